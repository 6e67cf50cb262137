import { z } from "zod";
import { paginationQuerySchema, paginationSchema } from "@/lib/core/schemas";
import { component } from "@/lib/core/openapi-components";

/** What became of an email after it was handed over (or instead): each a status, and the event that set it. */
const OUTCOMES = ["sent", "delivered", "delivery_delayed", "bounced", "complained", "failed", "canceled"] as const;

export const DELIVERY_STATUSES = ["scheduled", "queued", ...OUTCOMES] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const EMAIL_EVENT_TYPES = ["scheduled", ...OUTCOMES, "opened", "clicked"] as const;
export type EmailEventType = (typeof EMAIL_EVENT_TYPES)[number];

export const emailStatusSchema = z
  .enum(DELIVERY_STATUSES)
  .meta({
    id: "EmailStatus",
    description:
      "queued (being handed to the provider), scheduled, sent and delivery_delayed move forward only; delivered, " +
      "bounced, complained, failed and canceled are final, except that delivered may still become bounced or complained",
  })
  .apply(component);

/** `?limit=&offset=&status=`; unknown parameters are refused, as everywhere. */
export const listEmailsQuerySchema = z
  .object({
    ...paginationQuerySchema.shape,
    status: z
      .enum(DELIVERY_STATUSES, { error: `status must be one of ${DELIVERY_STATUSES.join(", ")}` })
      .optional()
      .meta({ description: "Only emails with this status" }),
  })
  .strict();

export const emailEventSchema = z
  .object({
    type: z.enum(EMAIL_EVENT_TYPES),
    at: z.iso.datetime(),
    detail: z
      .record(z.string(), z.unknown())
      .optional()
      .meta({ description: "What the provider said: a failure's message, a bounce's type and recipient" }),
  })
  .meta({ id: "EmailEvent" })
  .apply(component);

const emailFields = {
  id: z.string().meta({ description: "The id POST /send answered with" }),
  from: z.string(),
  to: z.array(z.string()),
  cc: z.array(z.string()),
  bcc: z.array(z.string()),
  reply_to: z.array(z.string()),
  subject: z.string(),
  template_id: z.uuid().nullable(),
  template_version: z
    .union([z.int(), z.literal("draft")])
    .nullable()
    .meta({
      description: 'The version of the template it was rendered from, or "draft"; null for emails sent before versions',
    }),
  locale: z.string().optional().meta({
    description:
      "The locale it was rendered in: the template's tag the send's `locale` resolved to; left out for a template without messages",
  }),
  tags: z.array(z.object({ name: z.string(), value: z.string() })),
  status: emailStatusSchema,
  created_at: z.iso.datetime(),
  sent_at: z.iso.datetime().nullable().meta({ description: "When it was handed to the provider; null until then" }),
  scheduled_at: z.iso.datetime().nullable(),
  test: z.boolean(),
};

export const emailSummarySchema = z.object(emailFields).meta({ id: "EmailSummary" }).apply(component);

export const emailSchema = z
  .object({ ...emailFields, events: z.array(emailEventSchema).meta({ description: "In order of arrival" }) })
  .meta({ id: "Email" })
  .apply(component);

export const listEmailsResponseSchema = z
  .object({ success: z.literal(true), emails: z.array(emailSummarySchema), pagination: paginationSchema })
  .meta({ id: "EmailListResponse" })
  .apply(component);

export const emailResponseSchema = z
  .object({ success: z.literal(true), email: emailSchema })
  .meta({ id: "EmailResponse" })
  .apply(component);
