import { errors } from "@/lib/api/errors";
import { withErrorHandling } from "@/lib/api/with-api-auth";

// Any other path under /api/v1 – a JSON 404 instead of Next's HTML page
const notFound = withErrorHandling(async () => {
  throw errors.notFound();
});

export const GET = notFound;
export const HEAD = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
export const OPTIONS = notFound;
