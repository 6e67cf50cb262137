import { z } from "zod";
import { defineOperation } from "@/lib/api/contract/define";
import {
  idempotencyKeySchema,
  sendBatchRequestSchema,
  sendBatchResponseSchema,
  sendRequestSchema,
  sendResponseSchema,
} from "@/lib/sending/schemas";

// Any JSON object: lib/sending/ validates it together with the Idempotency-Key header, so one 400 lists every problem.
const jsonObject = z.record(z.string(), z.unknown());

const IDEMPOTENCY_CONFLICT = "Idempotency-Key reused with a different body";

export const sendEmail = defineOperation({
  method: "POST",
  path: "/send",
  operationId: "sendEmail",
  summary: "Send an email rendered from a template in your library",
  metered: true,
  sendingAccess: true,
  body: jsonObject,
  requestBody: sendRequestSchema,
  headers: {
    "Idempotency-Key": idempotencyKeySchema.optional().meta({ description: "Replays the first response for 24 hours" }),
  },
  success: { status: 200, description: "Sent (or scheduled)", schema: sendResponseSchema },
  errors: [
    "TEMPLATE_NOT_FOUND",
    "VERSION_NOT_FOUND",
    "TEMPLATE_NOT_PUBLISHED",
    "IDEMPOTENCY_CONFLICT",
    "IDEMPOTENCY_IN_PROGRESS",
    "RENDER_ERROR",
    "RECIPIENT_SUPPRESSED",
    "EMAIL_LIMIT_REACHED",
    "EMAIL_PROVIDER_ERROR",
    "SANDBOX_BUSY",
  ],
  errorDescriptions: {
    VALIDATION_ERROR:
      'Invalid fields; each problem is one entry of details (a version "draft" sent with a live key is one, field `version`; no `subject` while the resolved locale has no `subject` message, field `subject`)',
    TEMPLATE_NOT_FOUND:
      'No template of your library has that id, alias or slug; for a slip of a few letters from one of your aliases or a catalogue slug, the message ends "Did you mean <name>?"',
    VERSION_NOT_FOUND: "The template has no such version, or no draft",
    TEMPLATE_NOT_PUBLISHED: "No version was named and the template has only a draft",
    IDEMPOTENCY_CONFLICT,
    RECIPIENT_SUPPRESSED: "A recipient is suppressed, one entry of details per address",
    EMAIL_PROVIDER_ERROR: "The email provider failed; the message is kept as failed and not counted",
  },
});

export const sendBatch = defineOperation({
  method: "POST",
  path: "/send/batch",
  operationId: "sendBatch",
  summary: "Send up to 100 emails in one call: all are checked before any is sent",
  metered: true,
  sendingAccess: true,
  body: jsonObject,
  requestBody: sendBatchRequestSchema,
  headers: {
    "Idempotency-Key": idempotencyKeySchema
      .optional()
      .meta({ description: "Covers the whole batch: replays the first response for 24 hours" }),
  },
  success: { status: 200, description: "All sent, in the request's order", schema: sendBatchResponseSchema },
  errors: [
    "TEMPLATE_NOT_FOUND",
    "VERSION_NOT_FOUND",
    "TEMPLATE_NOT_PUBLISHED",
    "IDEMPOTENCY_CONFLICT",
    "IDEMPOTENCY_IN_PROGRESS",
    "RECIPIENT_SUPPRESSED",
    "RENDER_ERROR",
    "BATCH_TOO_LARGE",
    "EMAIL_LIMIT_REACHED",
    "EMAIL_PROVIDER_ERROR",
    "SANDBOX_BUSY",
  ],
  errorDescriptions: {
    VALIDATION_ERROR: "Invalid items; each problem is one entry of details, under emails.<i>",
    TEMPLATE_NOT_FOUND: "No template of your library has an item's id, alias or slug",
    VERSION_NOT_FOUND: "An item's template has no such version, or no draft: nothing sent",
    TEMPLATE_NOT_PUBLISHED: "An item names no version and its template has only a draft: nothing sent",
    IDEMPOTENCY_CONFLICT,
    RECIPIENT_SUPPRESSED: "A recipient is suppressed: nothing sent",
    RENDER_ERROR: "A template failed to render: nothing sent",
    BATCH_TOO_LARGE: "The whole batch passed its rendered size or render time (see Limits): nothing sent",
    EMAIL_LIMIT_REACHED:
      "The free plan (or a test key's 100 a day) has fewer emails left than the batch holds: nothing sent",
    EMAIL_PROVIDER_ERROR: "The email provider refused the batch; nothing was sent or counted",
  },
});
