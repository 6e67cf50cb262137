import { z } from "zod";
import { defineOperation } from "@/lib/api/contract/define";
import { WEBHOOK_ATTEMPTS_PER_ACCOUNT } from "@/lib/core/limits";
import {
  createWebhookBodySchema,
  deleteWebhookResponseSchema,
  listWebhookDeliveriesQuerySchema,
  listWebhookDeliveriesResponseSchema,
  listWebhooksResponseSchema,
  updateWebhookBodySchema,
  webhookDeliveryResponseSchema,
  webhookResponseSchema,
  webhookWithSecretResponseSchema,
} from "@/lib/webhooks/schemas";

/** An endpoint named by its id in the path. */
const BY_WEBHOOK_ID = {
  pathParameters: { id: z.string().max(64).meta({ description: "The webhook's id" }) },
  notFound: "WEBHOOK_NOT_FOUND",
} as const;

const NOT_YOURS = { WEBHOOK_NOT_FOUND: "Not one of your webhooks" } as const;

export const createWebhook = defineOperation({
  method: "POST",
  path: "/webhooks",
  operationId: "createWebhook",
  summary: "Add an endpoint that hears about your emails and templates; its signing secret is shown this once",
  metered: true,
  adminArea: "webhooks",
  body: createWebhookBodySchema,
  success: {
    status: 201,
    description: "Created, with its secret (whsec_…): keep it to verify deliveries",
    schema: webhookWithSecretResponseSchema,
  },
  errors: ["WEBHOOK_LIMIT_REACHED"],
  errorDescriptions: {
    VALIDATION_ERROR: "A bad url (field url), an unknown event type (field events.<i>) or description",
    WEBHOOK_LIMIT_REACHED: "You have 10 webhooks already",
  },
});

export const listWebhooks = defineOperation({
  method: "GET",
  path: "/webhooks",
  operationId: "listWebhooks",
  summary: "List your webhook endpoints, oldest first",
  metered: true,
  adminArea: "webhooks",
  success: { status: 200, description: "Your webhooks (never their secrets)", schema: listWebhooksResponseSchema },
});

export const getWebhook = defineOperation({
  method: "GET",
  path: "/webhooks/{id}",
  operationId: "getWebhook",
  summary: "A webhook endpoint of yours",
  metered: true,
  adminArea: "webhooks",
  ...BY_WEBHOOK_ID,
  success: { status: 200, description: "The webhook (never its secret)", schema: webhookResponseSchema },
  errors: ["WEBHOOK_NOT_FOUND"],
  errorDescriptions: NOT_YOURS,
});

export const updateWebhook = defineOperation({
  method: "PATCH",
  path: "/webhooks/{id}",
  operationId: "updateWebhook",
  summary: "Change a webhook's url, events or description, or disable and enable it",
  metered: true,
  adminArea: "webhooks",
  ...BY_WEBHOOK_ID,
  body: updateWebhookBodySchema,
  success: { status: 200, description: "The webhook as changed", schema: webhookResponseSchema },
  errors: ["WEBHOOK_NOT_FOUND"],
  errorDescriptions: {
    ...NOT_YOURS,
    VALIDATION_ERROR: "A bad url (field url), an unknown event type (field events.<i>) or description",
  },
});

export const deleteWebhook = defineOperation({
  method: "DELETE",
  path: "/webhooks/{id}",
  operationId: "deleteWebhook",
  summary: "Delete a webhook endpoint and its delivery log",
  metered: true,
  adminArea: "webhooks",
  ...BY_WEBHOOK_ID,
  success: { status: 200, description: "Deleted", schema: deleteWebhookResponseSchema },
  errors: ["WEBHOOK_NOT_FOUND"],
  errorDescriptions: NOT_YOURS,
});

export const listWebhookDeliveries = defineOperation({
  method: "GET",
  path: "/webhooks/{id}/deliveries",
  operationId: "listWebhookDeliveries",
  summary: "A webhook's deliveries of the last 30 days, newest first, each with its last attempt",
  metered: true,
  adminArea: "webhooks",
  ...BY_WEBHOOK_ID,
  query: listWebhookDeliveriesQuerySchema,
  success: {
    status: 200,
    description: "A page of the webhook's deliveries",
    schema: listWebhookDeliveriesResponseSchema,
  },
  errors: ["WEBHOOK_NOT_FOUND"],
  errorDescriptions: { ...NOT_YOURS, VALIDATION_ERROR: "Bad limit, offset or status" },
});

export const rotateWebhookSecret = defineOperation({
  method: "POST",
  path: "/webhooks/{id}/rotate-secret",
  operationId: "rotateWebhookSecret",
  summary: "Give a webhook a new signing secret; for 24 hours deliveries are signed with the old one too",
  metered: true,
  adminArea: "webhooks",
  ...BY_WEBHOOK_ID,
  success: {
    status: 200,
    description: "The webhook with its new secret, shown this once",
    schema: webhookWithSecretResponseSchema,
  },
  errors: ["WEBHOOK_NOT_FOUND"],
  errorDescriptions: NOT_YOURS,
});

export const replayWebhookDelivery = defineOperation({
  method: "POST",
  path: "/webhooks/{id}/deliveries/{delivery_id}/replay",
  operationId: "replayWebhookDelivery",
  summary: "Deliver an event again (the same webhook-id), attempted at once",
  metered: true,
  adminArea: "webhooks",
  pathParameters: {
    ...BY_WEBHOOK_ID.pathParameters,
    delivery_id: z.string().max(64).meta({ description: "The delivery's id (GET /webhooks/{id}/deliveries)" }),
  },
  notFound: "WEBHOOK_NOT_FOUND",
  success: {
    status: 202,
    description: "The new delivery, due now: GET /webhooks/{id}/deliveries shows its attempt",
    schema: webhookDeliveryResponseSchema,
  },
  errors: ["WEBHOOK_NOT_FOUND", "WEBHOOK_DELIVERY_NOT_FOUND"],
  errorDescriptions: { ...NOT_YOURS, WEBHOOK_DELIVERY_NOT_FOUND: "Not one of this webhook's deliveries" },
});

export const testWebhook = defineOperation({
  method: "POST",
  path: "/webhooks/{id}/test",
  operationId: "testWebhook",
  summary: "Send a webhook.test event to the endpoint once, now, and answer what came of it",
  metered: true,
  adminArea: "webhooks",
  ...BY_WEBHOOK_ID,
  success: {
    status: 200,
    description:
      "The test delivery after its one attempt: succeeded or failed, with the answer's status and first 4 KB",
    schema: webhookDeliveryResponseSchema,
  },
  errors: ["WEBHOOK_NOT_FOUND", "TOO_MANY_ATTEMPTS"],
  errorDescriptions: {
    ...NOT_YOURS,
    TOO_MANY_ATTEMPTS: `${WEBHOOK_ATTEMPTS_PER_ACCOUNT} of your test events are in flight already (Retry-After says when to try again)`,
  },
});
