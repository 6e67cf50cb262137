import type { z } from "zod";
import { APP_ERROR_CODES, type AppErrorCode } from "@/lib/core/errors";
import { paginationQuerySchema } from "@/lib/core/schemas";
import type { AdminArea } from "@/lib/teams/rights";

export const API_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type ApiMethod = (typeof API_METHODS)[number];

export type HeaderDoc = { description?: string; schema: z.ZodType };

/** One answer of an operation: its JSON body's schema (a component appears as a $ref). */
export type ResponseDoc = { description: string; schema: z.ZodType; headers?: Record<string, HeaderDoc> };

/**
 * One operation of /api/v1, declared once: its route implements it (lib/api/route.ts `implement`), and the OpenAPI
 * document and /docs are built from it (lib/api/openapi.ts). What withApiAuth answers itself is not declared here but
 * added by the document's builder: UNAUTHORIZED and INTERNAL_ERROR everywhere, INSUFFICIENT_SCOPE without
 * `sendingAccess`, RATE_LIMIT_EXCEEDED when `metered`, VALIDATION_ERROR with a query or body, PAYLOAD_TOO_LARGE with a
 * body, `notFound` with path parameters, and ADMIN_REQUIRED with `adminArea`.
 */
export type Operation = {
  method: ApiMethod;
  /** Under /api/v1, a path parameter as `{name}`. */
  path: string;
  operationId: string;
  summary: string;
  /** Counts against the monthly API quota (and may answer 429). */
  metered: boolean;
  /** A sending_access key may call it too; without it, such a key is answered 403 INSUFFICIENT_SCOPE, not counted. */
  sendingAccess?: boolean;
  /** The schemas of the path parameters, for the document: the handler gets them as strings and checks them itself. */
  pathParameters?: Record<string, z.ZodType>;
  /** The 404 for a path parameter that can name nothing stored (one holding NUL); NOT_FOUND by default. */
  notFound?: AppErrorCode;
  /**
   * The admin-only area it belongs to (lib/teams/rights.ts): a member's browser session is answered 403
   * ADMIN_REQUIRED before its query or body is read; an API key's scope decides as everywhere.
   */
  adminArea?: AdminArea;
  query?: z.ZodType;
  /** Schema of the JSON body; a missing or empty body parses as `{}`. */
  body?: z.ZodType;
  /** The body as clients send it, where `body` is looser and the handler validates it further itself. */
  requestBody?: z.ZodType;
  /** Request headers the handler reads; an optional schema makes an optional header. */
  headers?: Record<string, z.ZodType>;
  success: ResponseDoc & { status: 200 | 201 | 202 };
  /** A second success answer of another status (the handler answers it as a NextResponse), say a repeat's 200. */
  alsoSuccess?: ResponseDoc & { status: 200 | 201 };
  /** Every code the handler can answer besides the wrapper's own (none when absent). */
  errors?: readonly AppErrorCode[];
  /** What a code means for this operation, where the general sentence (lib/api/contract/error-responses.ts) says less. */
  errorDescriptions?: Partial<Record<AppErrorCode, string>>;
};

/** An operation as declared, its schemas' types kept for the handler that implements it. */
export function defineOperation<const O extends Operation>(operation: O): O {
  const declared = Object.keys(operation.pathParameters ?? {});
  const inPath = [...operation.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => name);
  if (declared.join() !== inPath.join())
    throw new Error(
      `${operation.operationId}'s path parameters (${declared.join(", ") || "none"}) are not ${operation.path}'s`,
    );
  if (operation.notFound && APP_ERROR_CODES[operation.notFound].status !== 404)
    throw new Error(`${operation.operationId}'s notFound, ${operation.notFound}, is not a 404`);
  return operation;
}

/** A page of a list: `limit` and `offset`, and what a bad one is answered. */
export const PAGINATED = {
  query: paginationQuerySchema,
  errorDescriptions: { VALIDATION_ERROR: "Bad limit or offset" },
} as const;

/** The body an operation answers with on success, as its handler builds it. */
export type SuccessBody<O extends Operation> = z.input<O["success"]["schema"]>;

/**
 * Every code the operation can answer: withApiAuth's own, in the order it checks a request, then the handler's, then
 * the 500 any other failure is.
 */
export function errorResponseCodes(operation: Operation): AppErrorCode[] {
  const codes: AppErrorCode[] = [
    "UNAUTHORIZED",
    ...(operation.sendingAccess ? [] : (["INSUFFICIENT_SCOPE"] as const)),
    ...(operation.metered ? (["RATE_LIMIT_EXCEEDED"] as const) : []),
    ...(operation.pathParameters ? [operation.notFound ?? "NOT_FOUND"] : []),
    ...(operation.adminArea ? (["ADMIN_REQUIRED"] as const) : []),
    ...(operation.query || operation.body ? (["VALIDATION_ERROR"] as const) : []),
    ...(operation.body ? (["PAYLOAD_TOO_LARGE"] as const) : []),
    ...(operation.errors ?? []),
    "INTERNAL_ERROR",
  ];
  return [...new Set(codes)];
}
