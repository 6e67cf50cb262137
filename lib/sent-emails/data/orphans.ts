import "server-only";
import { getDb } from "@/lib/db/client";
import type { OutgoingEmail } from "@/lib/mail-transport/types";

// Orphaned hand-offs. A message for an external provider is counted and recorded `pending` before it is handed over;
// if the process dies in between, the row stays pending. The dispatcher finds such rows once they are older than a
// grace period no live request's hand-off lasts, and either hands them over again under the first attempt's
// idempotency key or gives them up: marked failed, count given back (fail_counted_email), all in SQL.

/** A pending message to hand over again, as recorded. */
export type OrphanedEmail = OutgoingEmail & {
  accountId: string;
  providerIdempotencyKey: string | null;
  /** Set for an email of a batch: the batch is handed over again as it was, whole, under its key. */
  batchId: string | null;
  batchIndex: number | null;
};

export type OrphanRules = {
  now: Date;
  /** Pending for at least this long (since it was recorded or last claimed): its hand-off is no longer running. */
  graceMs: number;
  /** Older than this, a hand-off is not retried (the provider no longer dedupes its key): it is given up. */
  windowMs: number;
  /** Retried this many times without an answer: given up. */
  maxAttempts: number;
  /** Only this account's messages. */
  accountId?: string;
};

/**
 * Gives up orphaned messages that may not be retried: past the window or out of attempts. (A retry of the caller's
 * request never records a second message under the same provider key: it finds this one.) Each is marked failed and
 * its count given back atomically. Returns how many.
 */
export async function failExpiredOrphanedEmails(rules: OrphanRules): Promise<number> {
  const graceCutoff = new Date(rules.now.getTime() - rules.graceMs);
  const windowCutoff = new Date(rules.now.getTime() - rules.windowMs);
  const db = getDb();
  const rows = await db<{ failed: boolean }[]>`
    select fail_counted_email(e.id, case
             when e.created_at <= ${windowCutoff} then 'the hand-off to the provider was interrupted and could not be retried in time'
             else 'the hand-off to the provider was interrupted and every retry failed' end) as failed
    from sent_emails e
    where e.status = 'pending' and coalesce(e.handoff_claimed_at, e.created_at) <= ${graceCutoff}
      ${rules.accountId ? db`and e.account_id = ${rules.accountId}` : db``}
      and (e.created_at <= ${windowCutoff} or e.handoff_attempts >= ${rules.maxAttempts})`;
  return rows.filter((row) => row.failed).length;
}

/**
 * Claims orphaned messages of `provider` that may be retried: counts the attempt and stamps the claim, so another
 * dispatcher leaves them alone for the grace period. A batch's emails are claimed together. Returns them as recorded,
 * to be handed over again.
 */
export async function claimOrphanedEmails(
  provider: string,
  rules: OrphanRules & { limit: number },
): Promise<OrphanedEmail[]> {
  const graceCutoff = new Date(rules.now.getTime() - rules.graceMs);
  const windowCutoff = new Date(rules.now.getTime() - rules.windowMs);
  const db = getDb();
  return db<OrphanedEmail[]>`
    with due as (
      select id, batch_id from sent_emails
      where status = 'pending' and provider = ${provider} and coalesce(handoff_claimed_at, created_at) <= ${graceCutoff}
        and created_at > ${windowCutoff} and handoff_attempts < ${rules.maxAttempts}
        ${rules.accountId ? db`and account_id = ${rules.accountId}` : db``}
      order by created_at
      limit ${rules.limit}
      for update skip locked
    )
    update sent_emails set handoff_attempts = handoff_attempts + 1, handoff_claimed_at = ${rules.now}
    where id in (select id from due)
       or (status = 'pending' and batch_id in (select batch_id from due where batch_id is not null))
    returning id, account_id as "accountId", provider_idempotency_key as "providerIdempotencyKey", from_address as "from",
              to_addresses as "to", cc_addresses as cc, bcc_addresses as bcc, reply_to as "replyTo", subject, html, text_body as text, headers,
              attachments, tags, scheduled_at as "scheduledAt", batch_id as "batchId", batch_index as "batchIndex"`;
}
