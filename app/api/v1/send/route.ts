import { NextResponse } from "next/server";
import { z } from "zod";
import { methodNotAllowed, withApiAuth } from "@/lib/api/with-api-auth";
import { renderFailedResponse, sandboxBusyResponse } from "@/lib/api/operation";
import { errorBodySchema, rateLimitBodySchema, validationErrorBodySchema } from "@/lib/schemas/common";
import { emailLimitBodySchema, idempotencyKeySchema, sendRequestSchema, sendResponseSchema } from "@/lib/schemas/send";
import { sendEmail } from "@/lib/send/pipeline";

// Any JSON object: lib/send/pipeline.ts validates it together with the Idempotency-Key header, so one 400 lists every
// problem.
const jsonObject = z.record(z.string(), z.unknown());

// POST /api/v1/send – send (or schedule) an email rendered from a template in the caller's library
export const POST = withApiAuth(
  {
    metered: true,
    sendingAccess: true,
    body: jsonObject,
    openapi: {
      operationId: "sendEmail",
      summary: "Send an email rendered from a template in your library",
      headers: {
        "Idempotency-Key": idempotencyKeySchema
          .optional()
          .meta({ description: "Replays the first response for 24 hours" }),
      },
      requestBody: sendRequestSchema,
      responses: {
        200: { description: "Sent (or scheduled)", schema: sendResponseSchema },
        400: { description: "Invalid fields; each problem is one entry of details", schema: validationErrorBodySchema },
        404: { description: "The template is not in your library (TEMPLATE_NOT_FOUND)", schema: errorBodySchema },
        409: {
          description: "Idempotency-Key reused with a different body (IDEMPOTENCY_CONFLICT)",
          schema: errorBodySchema,
        },
        422: {
          description: `${renderFailedResponse.description}; or a recipient is suppressed (RECIPIENT_SUPPRESSED, one entry of details per address)`,
          schema: errorBodySchema,
        },
        429: {
          description:
            "API quota exhausted (RateLimitExceeded), or the free plan's monthly emails or a test key's 100 a day used up (EmailLimitExceeded)",
          schema: z.xor([rateLimitBodySchema, emailLimitBodySchema]),
        },
        502: {
          description: "The email provider failed; the message is kept as failed and not counted",
          schema: errorBodySchema,
        },
        503: sandboxBusyResponse,
      },
    },
  },
  async ({ request, caller, body }) => {
    const { body: response, replayed } = await sendEmail(caller, body, request.headers.get("idempotency-key"));
    return replayed ? NextResponse.json(response, { headers: { "Idempotent-Replayed": "true" } }) : response;
  },
);

const otherMethods = methodNotAllowed(["POST"]);
export {
  otherMethods as GET,
  otherMethods as PUT,
  otherMethods as PATCH,
  otherMethods as DELETE,
  otherMethods as OPTIONS,
};
