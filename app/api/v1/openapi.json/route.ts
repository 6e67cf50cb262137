import { NextResponse } from "next/server";
import { routeHandlers } from "@/lib/api/route";
import { withErrorHandling } from "@/lib/api/with-api-auth";
import { getConfig } from "@/lib/core/config";
import { buildOpenApiDocument } from "@/lib/api/openapi";

// GET /api/v1/openapi.json – the OpenAPI 3.1 document, generated from the contract (lib/api/contract/)
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers({
  GET: withErrorHandling(async () => NextResponse.json(buildOpenApiDocument(getConfig().siteUrl))),
});
