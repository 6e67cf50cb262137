import { NextResponse } from "next/server";
import { z } from "zod";
import { methodNotAllowed, withApiAuth } from "@/lib/api/with-api-auth";
import { sandboxBusyResponse } from "@/lib/api/operation";
import { errorBodySchema, rateLimitBodySchema, validationErrorBodySchema } from "@/lib/schemas/common";
import {
  emailLimitBodySchema,
  idempotencyKeySchema,
  sendBatchRequestSchema,
  sendBatchResponseSchema,
} from "@/lib/schemas/send";
import { sendBatch } from "@/lib/send/batch";

// Any JSON object: lib/send/batch.ts validates it together with the Idempotency-Key header, so one 400 lists every
// problem.
const jsonObject = z.record(z.string(), z.unknown());

// POST /api/v1/send/batch – send 1 to 100 emails in one call, each rendered from a template in the caller's library
export const POST = withApiAuth(
  {
    metered: true,
    sendingAccess: true,
    body: jsonObject,
    openapi: {
      operationId: "sendBatch",
      summary: "Send up to 100 emails in one call: all are checked before any is sent",
      headers: {
        "Idempotency-Key": idempotencyKeySchema
          .optional()
          .meta({ description: "Covers the whole batch: replays the first response for 24 hours" }),
      },
      requestBody: sendBatchRequestSchema,
      responses: {
        200: { description: "All sent, in the request's order", schema: sendBatchResponseSchema },
        400: {
          description: "Invalid items; each problem is one entry of details, under emails.<i>.",
          schema: validationErrorBodySchema,
        },
        404: { description: "An item's template is not in your library (TEMPLATE_NOT_FOUND)", schema: errorBodySchema },
        409: {
          description: "Idempotency-Key reused with a different body (IDEMPOTENCY_CONFLICT)",
          schema: errorBodySchema,
        },
        422: {
          description:
            "A recipient is suppressed (RECIPIENT_SUPPRESSED), a template failed to render (RENDER_ERROR), or the whole batch passed its rendered size or render time (BATCH_TOO_LARGE, see Limits): nothing sent",
          schema: errorBodySchema,
        },
        429: {
          description:
            "API quota exhausted, or the free plan (or a test key's 100 a day) has fewer emails left than the batch holds: nothing sent",
          schema: z.xor([rateLimitBodySchema, emailLimitBodySchema]),
        },
        502: {
          description: "The email provider refused the batch; nothing was sent or counted",
          schema: errorBodySchema,
        },
        503: sandboxBusyResponse,
      },
    },
  },
  async ({ request, caller, body }) => {
    const { body: response, replayed } = await sendBatch(
      caller,
      body,
      request.headers.get("idempotency-key"),
      request.signal,
    );
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
