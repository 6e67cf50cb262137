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
 * (max_attempts 1), due at `now`, whatever the event types it hears. Undefined when the account has no such endpoint.
 */
export async function createTestEvent(
  accountId: string,
  endpointId: string,
  now: Date = new Date(),
): Promise<{ eventId: string; deliveryId: string } | undefined> {
  const db = getDb();
  const [row] = await db<{ eventId: string; deliveryId: string }[]>`
    with endpoint as (
      select id from webhook_endpoints where id = ${endpointId} and account_id = ${accountId}
    ), event as (
      insert into webhook_events (account_id, type, payload, created_at)
      select ${accountId}, 'webhook.test',
             jsonb_build_object('type', 'webhook.test',
                                'created_at', to_char(${now}::timestamptz at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                                'data', jsonb_build_object('webhook_id', endpoint.id)),
             ${now}
      from endpoint
      returning id
    )
    insert into webhook_deliveries (account_id, endpoint_id, event_id, max_attempts, next_attempt_at, created_at)
    select ${accountId}, endpoint.id, event.id, 1, ${now}, ${now} from endpoint, event
    returning event_id as "eventId", id as "deliveryId"`;
  return row;
}
