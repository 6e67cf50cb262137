import { z } from "zod";
import { errorBodySchema } from "@/lib/schemas/common";

export type HeaderDoc = { description?: string; schema: z.ZodType };

/** One status of an operation: its JSON body's schema (a schema with a `.meta({ id })` appears as a $ref). */
export type ResponseDoc = { description: string; schema: z.ZodType; headers?: Record<string, HeaderDoc> };

/**
 * An operation's entry in the OpenAPI document, declared with its route in withApiAuth's `openapi` option. lib/openapi.ts
 * derives the query parameters and the request body from the route's own `query` and `body` schemas, and adds what
 * the wrapper answers itself: 401 and 500 everywhere, 429 and the rate-limit headers on metered routes.
 */
export type OperationDoc = {
  operationId: string;
  summary: string;
  /** The schemas the route checks its path parameters with (it answers 404 for a malformed one, not 400). */
  pathParameters?: Record<string, z.ZodType>;
  /** Request headers the route reads; an optional schema makes an optional header. */
  headers?: Record<string, z.ZodType>;
  /** The body as clients send it, where the route parses a looser `body` and validates it further itself. */
  requestBody?: z.ZodType;
  responses: Record<number, ResponseDoc>;
};

/** What withApiAuth attaches to the handler it returns, for lib/openapi.ts to read. */
export type DeclaredOperation = {
  doc: OperationDoc;
  metered: boolean;
  /** A sending_access key may call it. */
  sendingAccess: boolean;
  query?: z.ZodType;
  body?: z.ZodType;
};

export const retryAfterHeader: HeaderDoc = {
  description: "Seconds to wait before retrying",
  schema: z.int().positive(),
};

export const sandboxBusyResponse: ResponseDoc = {
  description: "A render or compile queue is full (SANDBOX_BUSY); retry after Retry-After seconds",
  schema: errorBodySchema,
  headers: { "Retry-After": retryAfterHeader },
};

export const renderFailedResponse: ResponseDoc = {
  description: "The template's code threw or exceeded its time or memory limit, or its HTML passed 5 MB (RENDER_ERROR)",
  schema: errorBodySchema,
};
