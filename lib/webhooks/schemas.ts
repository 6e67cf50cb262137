import { z } from "zod";
import { MAX_WEBHOOK_DESCRIPTION_CHARS, MAX_WEBHOOK_URL_LENGTH } from "@/lib/core/limits";
import { holdsNul, paginationQuerySchema, paginationSchema } from "@/lib/core/schemas";
import { component } from "@/lib/core/openapi-components";

/** The event types an endpoint may hear (the contract's list). */
export const WEBHOOK_EVENT_TYPES = [
  "email.scheduled",
  "email.sent",
  "email.delivered",
  "email.delivery_delayed",
  "email.bounced",
  "email.complained",
  "email.failed",
  "email.canceled",
  "email.opened",
  "email.clicked",
  "email.unsubscribed",
  "template.published",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** What POST /webhooks/{id}/test sends: no endpoint subscribes to it. */
export const WEBHOOK_TEST_EVENT_TYPE = "webhook.test";

export const WEBHOOK_DELIVERY_STATUSES = ["pending", "succeeded", "failed"] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

// The URL's rules beyond its length (https, no credentials, a public host) are checked by the service, which may look
// the host up; the schema bounds what is read.
const urlField = z
  .string({ error: "url must be a string" })
  .min(1, "url must not be empty")
  .max(MAX_WEBHOOK_URL_LENGTH, `url must be at most ${MAX_WEBHOOK_URL_LENGTH.toLocaleString("en-US")} characters`)
  .refine((url) => !holdsNul(url), "url must not contain the NUL character (\\u0000)")
  .meta({
    description:
      "https://, at most 2,048 characters, no credentials; its host must not be, nor resolve to, an internal address",
  });

const eventsField = z
  .array(z.enum(WEBHOOK_EVENT_TYPES, { error: `unknown event type: use one of ${WEBHOOK_EVENT_TYPES.join(", ")}` }), {
    error: "events must be a list of event types",
  })
  .min(1, "events must name at least one event type")
  .meta({ description: "The event types the endpoint hears (a repeated one counts once)" });

const descriptionField = z
  .string({ error: "description must be a string" })
  .max(MAX_WEBHOOK_DESCRIPTION_CHARS, `description must be at most ${MAX_WEBHOOK_DESCRIPTION_CHARS} characters`)
  .refine((description) => !holdsNul(description), "description must not contain the NUL character (\\u0000)");

export const createWebhookBodySchema = z
  .object({ url: urlField, events: eventsField, description: descriptionField.optional() })
  .strict();
export type CreateWebhookBody = z.output<typeof createWebhookBodySchema>;

export const updateWebhookBodySchema = z
  .object({
    url: urlField.optional(),
    events: eventsField.optional(),
    description: descriptionField.nullable().optional().meta({ description: "null clears it" }),
    enabled: z
      .boolean({ error: "enabled must be true or false" })
      .optional()
      .meta({ description: "false stops deliveries; true resumes them (and clears disabled_reason)" }),
  })
  .strict();
export type UpdateWebhookBody = z.output<typeof updateWebhookBodySchema>;

export const webhookSchema = z
  .object({
    id: z.uuid(),
    url: z.string(),
    events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
    description: z.string().nullable(),
    enabled: z.boolean(),
    disabled_reason: z
      .string()
      .nullable()
      .meta({ description: "Why Letterpress disabled it (5 days of failed deliveries); null otherwise" }),
    previous_secret_expires_at: z.iso
      .datetime()
      .nullable()
      .meta({ description: "After a rotation: until then deliveries are signed with the old secret too" }),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: "Webhook" })
  .apply(component);

export const webhookWithSecretSchema = webhookSchema
  .extend({
    secret: z
      .string()
      .meta({ description: "whsec_ + Base64 of the key: shown in this answer only, keep it to verify deliveries" }),
  })
  .meta({ id: "WebhookWithSecret" })
  .apply(component);

export const webhookResponseSchema = z
  .object({ success: z.literal(true), webhook: webhookSchema })
  .meta({ id: "WebhookResponse" })
  .apply(component);

export const webhookWithSecretResponseSchema = z
  .object({ success: z.literal(true), webhook: webhookWithSecretSchema })
  .meta({ id: "WebhookWithSecretResponse" })
  .apply(component);

export const listWebhooksResponseSchema = z
  .object({ success: z.literal(true), webhooks: z.array(webhookSchema) })
  .meta({ id: "WebhookListResponse" })
  .apply(component);

export const deleteWebhookResponseSchema = z
  .object({ success: z.literal(true) })
  .meta({ id: "WebhookDeleteResponse" })
  .apply(component);

export const listWebhookDeliveriesQuerySchema = z
  .object({
    ...paginationQuerySchema.shape,
    status: z
      .enum(WEBHOOK_DELIVERY_STATUSES, { error: `status must be one of ${WEBHOOK_DELIVERY_STATUSES.join(", ")}` })
      .optional()
      .meta({ description: "Only deliveries with this status" }),
  })
  .strict();

export const webhookDeliverySchema = z
  .object({
    id: z.uuid(),
    event_id: z.uuid().meta({ description: "The webhook-id header of every attempt" }),
    event_type: z.string(),
    status: z.enum(WEBHOOK_DELIVERY_STATUSES),
    attempts: z.int(),
    next_attempt_at: z.iso.datetime().nullable().meta({ description: "null once the delivery is final" }),
    last_attempt: z
      .object({
        at: z.iso.datetime(),
        response_status: z.int().nullable().meta({ description: "null when no answer came" }),
        duration_ms: z.int().nullable(),
        error: z.string().optional().meta({ description: "Why the attempt failed, when no 2xx answer came" }),
        response_excerpt: z.string().nullable().meta({ description: "The first 4 KB of the answer's body" }),
      })
      .nullable(),
    created_at: z.iso.datetime(),
  })
  .meta({ id: "WebhookDelivery" })
  .apply(component);

export const listWebhookDeliveriesResponseSchema = z
  .object({ success: z.literal(true), deliveries: z.array(webhookDeliverySchema), pagination: paginationSchema })
  .meta({ id: "WebhookDeliveryListResponse" })
  .apply(component);

export const webhookDeliveryResponseSchema = z
  .object({ success: z.literal(true), delivery: webhookDeliverySchema })
  .meta({ id: "WebhookDeliveryResponse" })
  .apply(component);
