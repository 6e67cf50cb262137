import "server-only";
import { getDb } from "@/lib/db/client";
import { applyOutboxDelivery } from "@/lib/sent-emails/data/events";
import { OUTBOX_CLICK_DOMAIN } from "@/lib/mail-transport/outbox-delivery";
import type { DeliveryStatus } from "@/lib/sent-emails/schemas";

// A scheduled email leaves `scheduled` one of two ways: sent when its time comes, or canceled before.

/**
 * Delivers due scheduled messages of the embedded outbox (status scheduled → sent). External providers deliver their
 * own scheduled mail, so only `provider = 'outbox'` rows move. Returns how many were delivered.
 */
export async function dispatchDueScheduledEmails(
  options: { accountId?: string; now?: Date; limit?: number } = {},
): Promise<number> {
  const db = getDb();
  const now = options.now ?? new Date();
  const rows = await db<{ id: string; recipients: string[]; html: string | null }[]>`
    update sent_emails set status = 'sent', sent_at = now()
    where id in (
      select id from sent_emails
      where status = 'scheduled' and provider = 'outbox' and scheduled_at <= ${now}
        ${options.accountId ? db`and account_id = ${options.accountId}` : db``}
      order by scheduled_at
      limit ${options.limit ?? 1000}
      for update skip locked
    )
    returning id, to_addresses || cc_addresses || bcc_addresses as recipients,
      -- Its HTML only where a recipient clicks its first link (outboxEngagementEvents), not a megabyte a row.
      case when exists (select 1 from unnest(to_addresses || cc_addresses || bcc_addresses) a
                        where lower(a) like ${`%@${OUTBOX_CLICK_DOMAIN}`})
           then html end as html`;
  for (const row of rows) await applyOutboxDelivery(row.id, row.recipients, row.html);
  return rows.length;
}

/**
 * Cancels a scheduled email of the account and gives its count back, atomically (`cancel_email`). `canceled` is false
 * when its status is no longer scheduled (then `status` says what it is).
 */
export async function cancelScheduledEmail(
  accountId: string,
  internalId: string,
): Promise<{ canceled: boolean; status: DeliveryStatus | null }> {
  const [row] = await getDb()<{ canceled: boolean; status: DeliveryStatus | null }[]>`
    select * from cancel_email(${accountId}::uuid, ${internalId}::uuid)`;
  return row;
}
