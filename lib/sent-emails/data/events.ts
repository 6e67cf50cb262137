import "server-only";
import { getDb, jsonParameter } from "@/lib/db/client";
import { canBeEmailId } from "@/lib/sent-emails/data/resources";
import { outboxDeliveryEvent, outboxEngagementEvents } from "@/lib/mail-transport/outbox-delivery";
import type { DeliveryStatus, EmailEventType } from "@/lib/sent-emails/schemas";

// What became of an email is moved only by its events (apply_email_event): the hand-off's own changes (a trigger on
// sent_emails.status), the embedded outbox's report, and a provider's webhook, held until its email is recorded.

/**
 * Appends an event to an email and moves its status by the status machine, atomically (`apply_email_event`).
 * `applied` is false when the email does not exist or the provider's event id was applied already.
 */
export async function applyEmailEvent(
  emailId: string,
  type: EmailEventType,
  options: { detail?: Record<string, unknown> | null; providerEventId?: string | null; occurredAt?: Date | null } = {},
): Promise<{ applied: boolean; status: DeliveryStatus | null }> {
  const db = getDb();
  const detail = options.detail ? jsonParameter(db, options.detail) : null;
  const [row] = await db<{ applied: boolean; status: DeliveryStatus | null }[]>`
    select * from apply_email_event(${emailId}::uuid, ${type}::text, ${detail}::jsonb,
                                    ${options.providerEventId ?? null}::text, ${options.occurredAt ?? null}::timestamptz)`;
  return row;
}

/** The embedded outbox, having sent a message, reports what a provider would (see outboxDeliveryEvent). */
export async function applyOutboxDelivery(emailId: string, recipients: string[], html: string | null): Promise<void> {
  const { type, detail } = outboxDeliveryEvent(recipients);
  await applyEmailEvent(emailId, type, { detail });
  if (type === "delivered") await applyOutboxEngagement(emailId, recipients, html);
}

/**
 * After a delivered message is recorded: what its recipients at opened.test and clicked.test do (outboxEngagementEvents),
 * one event at a time, as tracking would report them. Nothing for any other recipient, so a send pays no statement.
 */
export async function applyOutboxEngagement(emailId: string, recipients: string[], html: string | null): Promise<void> {
  for (const { type, detail } of outboxEngagementEvents(recipients, html))
    await applyEmailEvent(emailId, type, { detail });
}

/**
 * The email a provider's message id names, whichever account sent it (a provider's webhook is the operator's, not an
 * account's); undefined when there is none.
 */
export async function findEmailIdByProviderMessageId(
  provider: string,
  providerMessageId: string,
): Promise<string | undefined> {
  if (!canBeEmailId(providerMessageId)) return undefined;
  const [row] = await getDb()<{ id: string }[]>`
    select id from sent_emails where provider_message_id = ${providerMessageId} and provider = ${provider} limit 1`;
  return row?.id;
}

/**
 * Holds a provider's event about a message no email has the id of yet (its hand-off is still being recorded): it is
 * applied once an email has that id (applyHeldEmailEvents). An event held already is not held twice.
 */
export async function holdEmailEvent(
  provider: string,
  providerMessageId: string,
  type: EmailEventType,
  options: { detail: Record<string, unknown> | null; providerEventId: string; occurredAt: Date | null },
): Promise<void> {
  if (!canBeEmailId(providerMessageId)) return;
  const db = getDb();
  await db`
    insert into held_email_events (provider_event_id, provider, provider_message_id, type, detail, occurred_at)
    values (${options.providerEventId}, ${provider}, ${providerMessageId}, ${type},
            ${options.detail ? jsonParameter(db, options.detail) : null}::jsonb, ${options.occurredAt})
    on conflict (provider_event_id) do nothing`;
}

/**
 * Applies the held events whose email now has the message id they name, in order of receipt (`apply_held_email_events`):
 * one message's, or every one (and drops those held longer than a day). Returns how many were applied.
 */
export async function applyHeldEmailEvents(provider: string, providerMessageId: string | null = null): Promise<number> {
  const [row] = await getDb()<{ applied: number }[]>`
    select apply_held_email_events(${provider}::text, ${providerMessageId}::text) as applied`;
  return row.applied;
}
