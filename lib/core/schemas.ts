import { z } from "zod";
import { APP_ERROR_CODES, type AppErrorCode } from "@/lib/core/errors";
import { MAX_VARIABLES_BYTES } from "@/lib/core/limits";
import { component } from "@/lib/core/openapi-components";

export const uuidSchema = z.uuid();

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Any uuid, whatever its version: what a uuid column accepts. */
export function isUuid(value: unknown): value is string {
  return typeof value === "string" && UUID.test(value);
}

/**
 * Whether text holds the NUL character, which PostgreSQL's text cannot: a statement given it fails. Such a value names
 * nothing stored and cannot be stored, so it is answered (not found, or refused) before any SQL runs.
 */
export function holdsNul(value: string): boolean {
  return value.includes("\0");
}

const CODES_IN_BODIES = (Object.keys(APP_ERROR_CODES) as AppErrorCode[]).filter(
  (code) => !("codeInBody" in APP_ERROR_CODES[code]),
) as [AppErrorCode, ...AppErrorCode[]];

export const errorBodySchema = z
  .object({
    error: z.string(),
    success: z.literal(false),
    // Every code lib/ can answer in a body, from the one table (the OpenAPI document lists them).
    code: z.enum(CODES_IN_BODIES).optional(),
    message: z.string().optional(),
    details: z.unknown().optional(),
  })
  .meta({ id: "Error" })
  .apply(component);

export const validationErrorBodySchema = errorBodySchema
  .extend({
    code: z.literal("VALIDATION_ERROR"),
    details: z.array(z.object({ field: z.string(), message: z.string() })),
  })
  .meta({ id: "ValidationError" })
  .apply(component);

export const rateLimitBodySchema = z
  .object({
    error: z.literal("API usage limit exceeded"),
    code: z.literal("RATE_LIMIT_EXCEEDED"),
    message: z.string(),
    details: z.object({
      limit: z.int(),
      remaining: z.literal(0),
      reset: z.iso.datetime(),
      resetInSeconds: z.int(),
    }),
    upgrade_url: z.url(),
    documentation: z.url(),
  })
  .meta({ id: "RateLimitExceeded" })
  .apply(component);

export const planSchema = z.enum(["free", "monthly", "annual"]);

/**
 * A query parameter holding a whole number written in plain decimal digits. `z.coerce.number` would also take `1e1`,
 * `0x10`, ` 1` or `+5`, which the contract counts among "anything else".
 */
function queryInteger(min: number, max: number, fallback: number, message: string) {
  return z
    .string({ error: message })
    .regex(/^\d{1,10}$/, message)
    .transform(Number)
    .pipe(z.int().min(min, message).max(max, message))
    .default(fallback);
}

/** `?limit=&offset=` with the contract's bounds; unknown parameters are refused so typos surface. */
export const paginationQuerySchema = z
  .object({
    limit: queryInteger(1, 100, 50, "limit must be an integer from 1 to 100"),
    // The database's integer range: a larger offset could only ever answer an empty page.
    offset: queryInteger(0, 2_147_483_647, 0, "offset must be an integer from 0 to 2147483647"),
  })
  .strict();

export const paginationSchema = z.object({ limit: z.int(), offset: z.int(), total: z.int() });

const utf8 = new TextEncoder();

/** Within MAX_VARIABLES_BYTES; a JSON text longer than that in UTF-16 units is over it in bytes too, without encoding. */
function variablesFit(variables: Record<string, unknown>): boolean {
  const json = JSON.stringify(variables);
  return json.length <= MAX_VARIABLES_BYTES && utf8.encode(json).byteLength <= MAX_VARIABLES_BYTES;
}

/** A request's template variables: a JSON object of at most 1 MB. */
export const variablesSchema = z
  .record(z.string(), z.unknown(), { error: "variables must be an object" })
  .refine(variablesFit, `variables must be at most 1 MB (${MAX_VARIABLES_BYTES.toLocaleString("en-US")} bytes) as JSON`)
  .default({})
  .meta({ description: "The template's variables, at most 1 MB as JSON" });
