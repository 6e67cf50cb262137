import "server-only";
import { Resend } from "resend";
import { z } from "zod";
import { getConfig } from "@/lib/core/config";
import { errors } from "@/lib/core/errors";
import {
  applyEmailEvent,
  applyHeldEmailEvents,
  findEmailIdByProviderMessageId,
  holdEmailEvent,
} from "@/lib/sent-emails/delivery";
import type { EmailEventType } from "@/lib/sent-emails/schemas";

// Resend's delivery events (POST /api/webhooks/resend), signed through Svix. Each names its email by the id Resend
// answered the hand-off with, and is applied through apply_email_event once, by its svix-id, in order of arrival.

/** Resend's events about what became of an email, as ours; every other type is acknowledged and ignored. */
const EVENT_TYPES = new Map<string, EmailEventType>([
  ["email.sent", "sent"],
  ["email.delivered", "delivered"],
  ["email.delivery_delayed", "delivery_delayed"],
  ["email.bounced", "bounced"],
  ["email.complained", "complained"],
  ["email.failed", "failed"],
  ["email.opened", "opened"],
  ["email.clicked", "clicked"],
]);

/** The parts of an email event read here (Resend's SDK types them as WebhookEventPayload); the rest is left aside. */
const emailEventSchema = z.object({
  type: z.string(),
  created_at: z.string().optional(),
  data: z.object({
    email_id: z.string(),
    to: z.array(z.string()).optional(),
    bounce: z.object({ type: z.string(), subType: z.string(), message: z.string() }).partial().optional(),
    failed: z.object({ reason: z.string() }).partial().optional(),
    click: z.object({ link: z.string() }).partial().optional(),
  }),
});
type EmailEventData = z.infer<typeof emailEventSchema>["data"];

/** A verified delivery: Svix's message id (the same on every retry of it) and the event. */
export type ResendDelivery = { id: string; event: unknown };

export type ResendEventOutcome = { duplicate: boolean; outcome: "applied" | "ignored" | "unknown_email" };

let cached: { apiKey: string; client: Resend } | undefined;

/**
 * Checks the delivery's Svix signature over the raw body, with five minutes' tolerance on its timestamp either way, and
 * parses it; throws INVALID_SIGNATURE (400) when a header is missing or the signature is wrong or stale.
 */
export function verifyResendWebhook(rawBody: string, headers: Headers): ResendDelivery {
  const settings = getConfig().resend;
  if (!settings?.webhookSecret) throw new Error("Resend webhooks are not configured (RESEND_WEBHOOK_SECRET)");
  const id = headers.get("svix-id");
  const timestamp = headers.get("svix-timestamp");
  const signature = headers.get("svix-signature");
  if (!id || !timestamp || !signature) {
    throw errors.invalidWebhookSignature("Missing svix-id, svix-timestamp or svix-signature header");
  }
  if (cached?.apiKey !== settings.apiKey) cached = { apiKey: settings.apiKey, client: new Resend(settings.apiKey) };
  try {
    const event: unknown = cached.client.webhooks.verify({
      payload: rawBody,
      headers: { id, timestamp, signature },
      webhookSecret: settings.webhookSecret,
    });
    return { id, event };
  } catch (error) {
    throw errors.invalidWebhookSignature(error instanceof Error ? error.message : "Invalid signature");
  }
}

/**
 * Applies a verified event to the email it names, once: a replay of an applied svix-id changes nothing. Events of
 * other types are acknowledged and ignored; one naming no email sent through Resend is acknowledged and held for a day,
 * in case that email's hand-off is still being recorded.
 */
export async function handleResendEvent(delivery: ResendDelivery): Promise<ResendEventOutcome> {
  const result = await applyResendEvent(delivery);
  const type = (delivery.event as { type?: unknown } | null)?.type;
  console.log(JSON.stringify({ level: "info", message: "resend webhook", event: delivery.id, type, ...result }));
  return result;
}

async function applyResendEvent({ id, event }: ResendDelivery): Promise<ResendEventOutcome> {
  const parsed = emailEventSchema.safeParse(event);
  const type = parsed.success ? EVENT_TYPES.get(parsed.data.type) : undefined;
  if (!parsed.success || !type) return { duplicate: false, outcome: "ignored" };
  const { data, created_at: createdAt } = parsed.data;
  const detail = eventDetail(type, data);
  const occurredAt = createdAt ? validDate(new Date(createdAt)) : null;
  const emailId = await findEmailIdByProviderMessageId("resend", data.email_id);
  if (!emailId) {
    // Resend may report an email before its hand-off is recorded here (a recovered hand-off, minutes later): held
    // until an email has its id, then applied in order of receipt.
    await holdEmailEvent("resend", data.email_id, type, { detail, providerEventId: id, occurredAt });
    return { duplicate: false, outcome: "unknown_email" };
  }
  await applyHeldEmailEvents("resend", data.email_id);
  const { applied, status } = await applyEmailEvent(emailId, type, { detail, providerEventId: id, occurredAt });
  // No status: the email was deleted in between.
  if (status === null) return { duplicate: false, outcome: "unknown_email" };
  return { duplicate: !applied, outcome: "applied" };
}

/** What users need of the event, kept small: a bounce's kind, message and recipients, a failure's reason, a link. */
function eventDetail(type: EmailEventType, data: EmailEventData): Record<string, unknown> | null {
  const recipients = data.to ? { recipients: data.to } : {};
  switch (type) {
    case "bounced": {
      const { type: bounceType, subType, message } = data.bounce ?? {};
      return {
        // Resend passes on Amazon SES's bounce types: Permanent (the address takes no mail), Transient, Undetermined.
        bounce_type: bounceType === "Permanent" ? "hard" : "soft",
        ...(message ? { message } : {}),
        ...(subType ? { sub_type: subType } : {}),
        ...recipients,
      };
    }
    case "complained":
      return data.to ? recipients : null;
    case "failed":
      return data.failed?.reason ? { message: data.failed.reason } : null;
    case "clicked":
      return data.click?.link ? { link: data.click.link } : null;
    default:
      return null;
  }
}

function validDate(date: Date): Date | null {
  return Number.isNaN(date.getTime()) ? null : date;
}
