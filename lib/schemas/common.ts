import { z } from "zod";

export const uuidSchema = z.uuid();

export const errorBodySchema = z
  .object({
    error: z.string(),
    success: z.literal(false),
    code: z.string().optional(),
    message: z.string().optional(),
    details: z.unknown().optional(),
  })
  .meta({ id: "Error" });

export const validationErrorBodySchema = errorBodySchema
  .extend({
    code: z.literal("VALIDATION_ERROR"),
    details: z.array(z.object({ field: z.string(), message: z.string() })),
  })
  .meta({ id: "ValidationError" });

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
  .meta({ id: "RateLimitExceeded" });

export const planSchema = z.enum(["free", "monthly", "annual"]);

/** `?limit=&offset=` with the contract's bounds; unknown parameters are refused so typos surface. */
export const paginationQuerySchema = z
  .object({
    limit: z.coerce
      .number({ error: "limit must be an integer from 1 to 100" })
      .int("limit must be an integer from 1 to 100")
      .min(1, "limit must be an integer from 1 to 100")
      .max(100, "limit must be an integer from 1 to 100")
      .default(50),
    offset: z.coerce
      .number({ error: "offset must be a non-negative integer" })
      .int("offset must be a non-negative integer")
      .min(0, "offset must be a non-negative integer")
      .default(0),
  })
  .strict();

export const paginationSchema = z.object({ limit: z.int(), offset: z.int(), total: z.int() });
