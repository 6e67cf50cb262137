import { errors } from "@/lib/core/errors";
import { withErrorHandling } from "@/lib/api/with-api-auth";

// Any other path under /api – a JSON 404 instead of Next's HTML page. Next resolves dot segments first, escaped ones
// too: `/api/v1/templates/%2e%2e/%2e%2e/usage` is `/api/usage`, answered here.
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
