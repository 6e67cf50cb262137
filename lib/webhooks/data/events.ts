import "server-only";
import { getDb, jsonParameter } from "@/lib/db/client";

// Webhook events: one row per event whatever the number of endpoints that hear it, made in the transaction of what it
// tells. Emails' events are made by the SQL that appends them (apply_email_event, record_email_first_events →
// enqueue_email_webhook_event), template.published by a trigger on template_versions; these are the others.

/**
 * An event of the account for every enabled endpoint that hears `type` (enqueue_webhook_event): its id, or null when
 * none does (then nothing is written).
 */
export async function enqueueWebhookEvent(
  accountId: string,
  type: string,
  { data, emailId = null, now = new Date() }: { data: Record<string, unknown>; emailId?: string | null; now?: Date },
): Promise<string | null> {
  const db = getDb();
  const [{ id }] = await db<{ id: string | null }[]>`
    select enqueue_webhook_event(${accountId}::uuid, ${type}::text, ${emailId}::uuid, ${jsonParameter(db, data)}::jsonb,
                                 ${now}::timestamptz) as id`;
  return id;
}

/**
 * POST /webhooks/{id}/test: a `webhook.test` event for the account's endpoint alone, with one delivery of one attempt
 * (max_attempts 1), due at `now`, whatever the event types it hears (create_webhook_test_event). "busy" when
 * `perAccount` of the account's test events are in flight already (nothing is made); undefined when the account has
 * no such endpoint.
 */
export async function createTestEvent(
  accountId: string,
  endpointId: string,
  { now = new Date(), perAccount, leaseSeconds }: { now?: Date; perAccount: number; leaseSeconds: number },
): Promise<{ eventId: string; deliveryId: string } | "busy" | undefined> {
  const [row] = await getDb()<{ eventId: string | null; deliveryId: string | null; busy: boolean }[]>`
    select event_id as "eventId", delivery_id as "deliveryId", busy
    from create_webhook_test_event(${accountId}::uuid, ${endpointId}::uuid, ${now}::timestamptz,
                                   ${perAccount}::integer, ${leaseSeconds}::integer)`;
  if (!row) return undefined;
  return row.busy ? "busy" : { eventId: row.eventId!, deliveryId: row.deliveryId! };
}
