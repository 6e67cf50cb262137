import { z } from "zod";
import type { HeaderDoc, ResponseDoc } from "@/lib/api/contract/define";
import { APP_ERROR_CODES, type AppErrorCode } from "@/lib/core/errors";
import { MAX_BODY_BYTES, MAX_HTML_BYTES } from "@/lib/core/limits";
import { TEST_EMAILS_PER_DAY } from "@/lib/core/plans";
import { errorBodySchema, rateLimitBodySchema, validationErrorBodySchema } from "@/lib/core/schemas";
import { emailLimitBodySchema } from "@/lib/sending/schemas";
import { accessDeniedBodySchema, purchaseRequiredBodySchema } from "@/lib/templates/schemas";

const retryAfterHeader: HeaderDoc = {
  description: "Seconds to wait before retrying",
  schema: z.int().positive(),
};

/**
 * How the API documents a code where its title (lib/core/errors.ts) says too little or its body is not the Error
 * schema. An operation may say more for itself (`errorDescriptions`).
 */
const API_ERROR_RESPONSES: Partial<Record<AppErrorCode, Partial<ResponseDoc>>> = {
  VALIDATION_ERROR: {
    description: "A refused parameter or body field; each problem is one entry of details",
    schema: validationErrorBodySchema,
  },
  UNAUTHORIZED: {
    description:
      "Missing, malformed, unknown, revoked or expired credentials; the message says which (no credentials, a malformed key and why, an unknown or revoked key, an expired key, an Authorization header that is not Bearer, an expired session, a session of a person who belongs to no team), never quoting the key",
  },
  INSUFFICIENT_SCOPE: {
    description: "A sending_access API key on an endpoint it may not call; the call is not counted",
  },
  ACCESS_DENIED: { description: "A paid catalogue template you have not purchased", schema: accessDeniedBodySchema },
  PURCHASE_REQUIRED: {
    description: "A paid catalogue template you have not purchased; nothing was added",
    schema: purchaseRequiredBodySchema,
  },
  PAYLOAD_TOO_LARGE: { description: `The body passed ${MAX_BODY_BYTES / 1024 / 1024} MB` },
  RENDER_ERROR: {
    description: `The template's code threw or exceeded its time or memory limit, or its HTML passed ${MAX_HTML_BYTES / 1024 / 1024} MB`,
  },
  RATE_LIMIT_EXCEEDED: {
    description: "Monthly API quota exhausted",
    schema: rateLimitBodySchema,
    headers: { "Retry-After": retryAfterHeader },
  },
  EMAIL_LIMIT_REACHED: {
    description: `The free plan's monthly emails or a test key's ${TEST_EMAILS_PER_DAY} a day used up`,
    schema: emailLimitBodySchema,
    headers: { "Retry-After": retryAfterHeader },
  },
  IDEMPOTENCY_IN_PROGRESS: { headers: { "Retry-After": retryAfterHeader } },
  INTERNAL_ERROR: { description: "Internal error; details are logged under the X-Request-Id" },
  SANDBOX_BUSY: {
    description: "A render or compile queue is full; retry after Retry-After seconds",
    headers: { "Retry-After": retryAfterHeader },
  },
};

/** A code's answer as an operation documents it: its sentence, the body's schema and the headers it carries. */
export function errorResponseDoc(code: AppErrorCode, description?: string): ResponseDoc {
  const documented = API_ERROR_RESPONSES[code];
  return {
    description: description ?? documented?.description ?? APP_ERROR_CODES[code].error,
    schema: documented?.schema ?? errorBodySchema,
    ...(documented?.headers && { headers: documented.headers }),
  };
}
