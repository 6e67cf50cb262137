import { NextResponse } from "next/server";
import { methodNotAllowed, withErrorHandling } from "@/lib/api/with-api-auth";
import { getConfig } from "@/lib/config";
import { DOCUMENTED_ROUTES } from "@/app/api/v1/documented-routes";
import { buildOpenApiDocument } from "@/lib/openapi";

// GET /api/v1/openapi.json – the OpenAPI 3.1 document, generated from the routes' zod schemas
export const GET = withErrorHandling(async () =>
  NextResponse.json(buildOpenApiDocument(getConfig().siteUrl, DOCUMENTED_ROUTES)),
);

const otherMethods = methodNotAllowed(["GET", "HEAD"]);
export {
  otherMethods as POST,
  otherMethods as PUT,
  otherMethods as PATCH,
  otherMethods as DELETE,
  otherMethods as OPTIONS,
};
