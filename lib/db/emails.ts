import "server-only";
import { getDb, jsonParameter, type Db } from "@/lib/db/client";
import { outboxDeliveryEvent, type OutboxDeliveryEvent } from "@/lib/mail/outbox-delivery";
import type { OutgoingEmail } from "@/lib/mail/types";
import type { PlanName } from "@/lib/plans";
import { holdsNul, isUuid } from "@/lib/schemas/common";
import { DELIVERY_STATUSES, type DeliveryStatus, type EmailEventType } from "@/lib/schemas/emails";

/** The hand-off's state: recorded (pending), handed to the provider (sent, or scheduled by it), or failed. */
export type EmailStatus = "pending" | "sent" | "scheduled" | "failed";

export type OutboxAttachment = { filename: string; content_type?: string; path?: string; size?: number };

export type OutboxMessage = {
  id: string;
  status: EmailStatus;
  delivery_status: DeliveryStatus;
  provider: string;
  provider_message_id: string | null;
  template_id: string | null;
  from: string;
  to: string[];
  cc: string[];
  bcc: string[];
  reply_to: string[];
  subject: string;
  html: string;
  text: string | null;
  headers: Record<string, string>;
  tags: { name: string; value: string }[];
  /** Metadata only: the Base64 content stays in the database. */
  attachments: OutboxAttachment[];
  is_overage: boolean;
  scheduled_at: Date | null;
  sent_at: Date | null;
  created_at: Date;
  error: string | null;
};

/**
 * The messages kept for the account, newest first (the embedded outbox, and every provider's record), each with its
 * hand-off's state and what became of it (`delivery_status`, the API's status): what the CLI's `outbox` prints. Due
 * scheduled outbox messages are delivered first, so the listing is never behind the clock.
 */
export async function listOutbox(accountId: string, limit = 100): Promise<OutboxMessage[]> {
  await dispatchDueScheduledEmails({ accountId });
  const db = getDb();
  return db<OutboxMessage[]>`
    select id, status, delivery_status, provider, provider_message_id, template_id, from_address as from,
           to_addresses as to, cc_addresses as cc, bcc_addresses as bcc, reply_to, subject, html, text_body as text,
           headers, tags, ${attachmentsMetadata(db)} as attachments, is_overage, scheduled_at, sent_at, created_at,
           error
    from sent_emails where account_id = ${accountId} order by created_at desc, batch_index desc nulls last, id limit ${limit}`;
}

/** A message's attachments as OutboxAttachment: metadata only, the Base64 content stays in the database. */
function attachmentsMetadata(db: Db) {
  return db`coalesce((select jsonb_agg(jsonb_strip_nulls(jsonb_build_object(
                        'filename', a ->> 'filename', 'content_type', a ->> 'content_type', 'path', a ->> 'path',
                        'size', (a ->> 'size')::int)))
                      from jsonb_array_elements(attachments) a), '[]'::jsonb)`;
}

/** The complete message as it is recorded and handed to a provider. */
export type EmailRecordInput = {
  accountId: string;
  templateId: string;
  status: "pending" | "sent" | "scheduled";
  provider: string;
  from: string;
  to: string[];
  cc: string[];
  bcc: string[];
  replyTo: string[];
  subject: string;
  html: string;
  text: string | null;
  headers: Record<string, string>;
  /** Stored whole (Base64 content included) so the record is the complete message; `size` is the decoded size. */
  attachments: { filename: string; content?: string; content_type?: string; path?: string; size?: number }[];
  tags: { name: string; value: string }[];
  scheduledAt: Date | null;
  /** The provider key derived from the caller's Idempotency-Key; null when none was given (see emailHandoffKey). */
  providerIdempotencyKey: string | null;
  /**
   * What became of a message the embedded outbox records as sent (outboxDeliveryEvent), applied in the statement that
   * records it, as the provider's report would be.
   */
  deliveryEvent?: OutboxDeliveryEvent | null;
};

/** An email already recorded under the same provider key, as recorded: what a retry of its request answers with. */
export type RecordedEmail = {
  id: string;
  status: EmailStatus;
  providerMessageId: string | null;
  from: string;
  to: string[];
  subject: string;
  scheduledAt: Date | null;
  createdAt: Date;
};

export type CountedEmail =
  | {
      allowed: true;
      id: string;
      used: number;
      isOverage: boolean;
      billingUsageReported: boolean;
      createdAt: Date;
      existing: RecordedEmail | null;
    }
  | { allowed: false; used: number };

/**
 * The quota a send counts against: the month's emails of the plan, or, for a test key's send (`testDailyLimit` set),
 * the account's test sends of the UTC day, at most `testDailyLimit`, leaving the month's emails alone (`used` is
 * still the month's count, as the answer reports it).
 */
export type SendQuota = { periodStart: Date; limit: number; overage: boolean; testDailyLimit?: number | null };

/** The quota as record_counted_email(s) take it (p_quota). */
function quotaRecord(db: Db, quota: SendQuota) {
  return jsonParameter(db, {
    period_start: quota.periodStart,
    monthly_limit: quota.limit,
    overage: quota.overage,
    test_daily_limit: quota.testDailyLimit ?? null,
  });
}

/** A message without its body, as record_counted_email(s) take it: keyed by its sent_emails columns. */
function messageRecord(message: BatchEmailInput) {
  return {
    template_id: message.templateId,
    from_address: message.from,
    to_addresses: message.to,
    cc_addresses: message.cc,
    bcc_addresses: message.bcc,
    reply_to: message.replyTo,
    subject: message.subject,
    headers: message.headers,
    tags: message.tags,
    delivery_type: message.deliveryEvent?.type ?? null,
    delivery_detail: message.deliveryEvent?.detail ?? null,
  };
}

/**
 * Counts the email against its quota and records it, atomically (`record_counted_email`). Refused (allowed = false)
 * only when the plan has no overage and the limit is reached, or a test send's daily limit is; then nothing is counted
 * or recorded. When the account already has a pending, sent or scheduled email under the same provider key (the first
 * attempt of a retried request), nothing is counted or recorded and that email is `existing`.
 */
export async function recordCountedEmail(message: EmailRecordInput, quota: SendQuota): Promise<CountedEmail> {
  const db = getDb();
  type Row = {
    email_id: string | null;
    allowed: boolean;
    used: number;
    is_overage: boolean;
    billing_usage_reported: boolean;
    created_at: Date | null;
    existing_status: EmailStatus | null;
    provider_message_id: string | null;
    from_address: string | null;
    to_addresses: string[] | null;
    subject: string | null;
    scheduled_at: Date | null;
  };
  const email = { ...messageRecord(message), attachments: message.attachments, scheduled_at: message.scheduledAt };
  const [row] = await db<Row[]>`select * from record_counted_email(
      ${message.accountId}::uuid, ${quotaRecord(db, quota)}::jsonb, ${message.status}::text, ${message.provider}::text,
      ${jsonParameter(db, email)}::jsonb, ${message.html}::text, ${message.text}::text,
      ${message.providerIdempotencyKey}::text)`;
  if (!row.allowed || !row.email_id || !row.created_at) return { allowed: false, used: row.used };
  return {
    allowed: true,
    id: row.email_id,
    used: row.used,
    isOverage: row.is_overage,
    billingUsageReported: row.billing_usage_reported,
    createdAt: row.created_at,
    existing:
      row.existing_status === null
        ? null
        : {
            id: row.email_id,
            status: row.existing_status,
            providerMessageId: row.provider_message_id,
            from: row.from_address ?? "",
            to: row.to_addresses ?? [],
            subject: row.subject ?? "",
            scheduledAt: row.scheduled_at,
            createdAt: row.created_at,
          },
  };
}

/** A message of a batch, as it is recorded: no attachments and no delivery time (the API refuses them in a batch). */
export type BatchEmailInput = Omit<
  EmailRecordInput,
  "accountId" | "status" | "provider" | "providerIdempotencyKey" | "attachments" | "scheduledAt"
>;

export type CountedBatch =
  | {
      allowed: true;
      used: number;
      /** The emails were recorded by an earlier attempt under the same provider key; nothing was counted now. */
      existing: boolean;
      emails: {
        id: string;
        status: EmailStatus;
        providerMessageId: string | null;
        isOverage: boolean;
        createdAt: Date;
      }[];
    }
  | {
      allowed: false;
      used: number;
      /** A test batch's: today's test sends, which left too few for it (null for a live batch). */
      testUsed: number | null;
    };

/**
 * Counts a batch against its quota (as recordCountedEmail: the month's emails, or a test key's day) and records its
 * emails, atomically (`record_counted_emails`): without overage, all of them fit in what is left or nothing is counted
 * or recorded. The emails come back in `messages`' order.
 */
export async function recordCountedEmails(
  messages: BatchEmailInput[],
  batch: { accountId: string; status: "pending" | "sent"; provider: string; providerIdempotencyKey: string | null },
  quota: SendQuota,
): Promise<CountedBatch> {
  const db = getDb();
  const items = messages.map((message) => ({ ...messageRecord(message), html: message.html, text_body: message.text }));
  const rows = await db<
    {
      email_id: string | null;
      allowed: boolean;
      used: number;
      is_overage: boolean;
      created_at: Date | null;
      existing_status: EmailStatus | null;
      provider_message_id: string | null;
      test_used: number | null;
    }[]
  >`select * from record_counted_emails(
      ${batch.accountId}::uuid, ${quotaRecord(db, quota)}::jsonb, ${batch.status}::text, ${batch.provider}::text,
      ${jsonParameter(db, items)}::jsonb, ${batch.providerIdempotencyKey}::text)`;
  const [first] = rows;
  if (!first.allowed) return { allowed: false, used: first.used, testUsed: first.test_used };
  return {
    allowed: true,
    used: first.used,
    existing: first.existing_status !== null,
    emails: rows.map((row) => ({
      id: row.email_id!,
      status: row.existing_status ?? batch.status,
      providerMessageId: row.provider_message_id,
      isOverage: row.is_overage,
      createdAt: row.created_at!,
    })),
  };
}

/** A provider accepted a batch's pending messages, each under its own message id. */
export async function markEmailsAccepted(accepted: { id: string; providerMessageId: string }[]): Promise<void> {
  await getDb()`
    update sent_emails e set status = 'sent', sent_at = now(), provider_message_id = a.provider_message_id
    from (select unnest(${accepted.map((a) => a.id)}::uuid[]) as id,
                 unnest(${accepted.map((a) => a.providerMessageId)}::text[]) as provider_message_id) a
    where e.id = a.id and e.status = 'pending'`;
}

/** A provider accepted a pending message: it is sent, or scheduled when it has a delivery time. */
export async function markEmailAccepted(emailId: string, providerMessageId: string | null): Promise<void> {
  await getDb()`
    update sent_emails set
      status = case when scheduled_at is not null then 'scheduled' else 'sent' end,
      sent_at = case when scheduled_at is not null then null else now() end,
      provider_message_id = ${providerMessageId}
    where id = ${emailId} and status = 'pending'`;
}

/**
 * What the answer to an email's request says about it, read afresh: the email as recorded, its account's plan and
 * emails counted this period, and whether its overage was billed.
 */
export async function findEmailReceipt(
  emailId: string,
): Promise<{ plan: PlanName; used: number; billingUsageReported: boolean; email: RecordedEmail } | undefined> {
  const [row] = await getDb()<(RecordedEmail & { plan: PlanName; used: number; billingUsageReported: boolean })[]>`
    select e.id, e.status, e.provider_message_id as "providerMessageId", e.from_address as "from", e.to_addresses as "to",
           e.subject, e.scheduled_at as "scheduledAt", e.created_at as "createdAt", a.plan, coalesce(c.count, 0) as used,
           l.reported_at is not null as "billingUsageReported"
    from sent_emails e
      join accounts a on a.id = e.account_id
      left join usage_counters c on c.account_id = e.account_id and c.metric = 'emails' and c.period_start = e.usage_period_start
      left join email_overage_ledger l on l.email_id = e.id
    where e.id = ${emailId}`;
  if (!row) return undefined;
  const { plan, used, billingUsageReported, ...email } = row;
  return { plan, used, billingUsageReported, email };
}

/** The provider failed: the message is kept as failed and its count given back (`fail_counted_email`). */
export async function markEmailFailed(emailId: string, error: string): Promise<boolean> {
  const [row] = await getDb()<
    { failed: boolean }[]
  >`select fail_counted_email(${emailId}::uuid, ${error}::text) as failed`;
  return row.failed;
}

/** A batch's hand-off failed: each of its messages is kept as failed and its count given back, in one statement. */
export async function markEmailsFailed(emailIds: string[], error: string): Promise<void> {
  await getDb()`select fail_counted_email(id, ${error}::text) from unnest(${emailIds}::uuid[]) as id`;
}

/**
 * Delivers due scheduled messages of the embedded outbox (status scheduled → sent). External providers deliver their
 * own scheduled mail, so only `provider = 'outbox'` rows move. Returns how many were delivered.
 */
export async function dispatchDueScheduledEmails(
  options: { accountId?: string; now?: Date; limit?: number } = {},
): Promise<number> {
  const db = getDb();
  const now = options.now ?? new Date();
  const rows = await db<{ id: string; recipients: string[] }[]>`
    update sent_emails set status = 'sent', sent_at = now()
    where id in (
      select id from sent_emails
      where status = 'scheduled' and provider = 'outbox' and scheduled_at <= ${now}
        ${options.accountId ? db`and account_id = ${options.accountId}` : db``}
      order by scheduled_at
      limit ${options.limit ?? 1000}
      for update skip locked
    )
    returning id, to_addresses || cc_addresses || bcc_addresses as recipients`;
  for (const row of rows) await applyOutboxDelivery(row.id, row.recipients);
  return rows.length;
}

// ---------------------------------------------------------------------------------------------------------------
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

// ---------------------------------------------------------------------------------------------------------------
// Emails as resources (GET /emails, GET /emails/{id}): what became of each email, moved by its events
// (apply_email_event). The hand-off's own changes are events already (a trigger on sent_emails.status).

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
export async function applyOutboxDelivery(emailId: string, recipients: string[]): Promise<void> {
  const { type, detail } = outboxDeliveryEvent(recipients);
  await applyEmailEvent(emailId, type, { detail });
}

export type EmailEvent = { type: EmailEventType; at: Date; detail: unknown };

export type EmailResource = {
  /** The id POST /send answered with: the provider's message id, or the email's own when it has none. */
  id: string;
  from: string;
  to: string[];
  cc: string[];
  bcc: string[];
  reply_to: string[];
  subject: string;
  template_id: string | null;
  tags: { name: string; value: string }[];
  status: DeliveryStatus;
  created_at: Date;
  sent_at: Date | null;
  scheduled_at: Date | null;
  /** Sent with a test key: kept in the outbox, never handed to a provider, not counted toward the month. */
  test: boolean;
};

/** Provider message ids are short; anything longer cannot be one. */
const MAX_EMAIL_ID_LENGTH = 256;

/** Whether `id` could be an email's (its provider's message id, or its own): short, and text PostgreSQL can hold. */
function canBeEmailId(id: string): boolean {
  return id.length <= MAX_EMAIL_ID_LENGTH && !holdsNul(id);
}

/**
 * One page of the account's emails, newest first, optionally of one status, and how many there are. Due scheduled
 * outbox messages are delivered first, so the page is never behind the clock.
 */
export async function listEmails(
  accountId: string,
  { limit, offset, status }: { limit: number; offset: number; status: DeliveryStatus | null },
): Promise<{ emails: EmailResource[]; total: number }> {
  await dispatchDueScheduledEmails({ accountId });
  const db = getDb();
  const ofStatus = status ? db`and delivery_status = ${status}` : db``;
  const rows = await db<(EmailResource & { total: number })[]>`
    select t.total, e.* from (
      select count(*)::int as total from sent_emails where account_id = ${accountId} ${ofStatus}
    ) t left join lateral (
      select coalesce(provider_message_id, id::text) as id, from_address as from, to_addresses as to,
             cc_addresses as cc, bcc_addresses as bcc, reply_to, subject, template_id, tags,
             delivery_status as status, created_at, sent_at, scheduled_at, test
      from sent_emails where account_id = ${accountId} ${ofStatus}
      order by created_at desc, batch_index desc nulls last, id limit ${limit} offset ${offset}
    ) e on true`;
  const total = rows[0]?.total ?? 0;
  return { emails: rows.filter((row) => row.id !== null).map(({ total: _total, ...email }) => email), total };
}

/**
 * How many of the account's emails are in each status: all of them, or those recorded since `since` (the overview's
 * month). Due scheduled outbox messages are delivered first, so the counts are never behind the clock.
 */
export async function countEmailsByStatus(
  accountId: string,
  { since = null, liveOnly = false }: { since?: Date | null; liveOnly?: boolean } = {},
): Promise<Record<DeliveryStatus, number>> {
  await dispatchDueScheduledEmails({ accountId });
  const db = getDb();
  const rows = await db<{ status: DeliveryStatus; count: number }[]>`
    select delivery_status as status, count(*)::int as count from sent_emails
    where account_id = ${accountId} ${since ? db`and created_at >= ${since}` : db``} ${liveOnly ? db`and not test` : db``}
    group by delivery_status`;
  const counts = Object.fromEntries(DELIVERY_STATUSES.map((status) => [status, 0])) as Record<DeliveryStatus, number>;
  for (const row of rows) counts[row.status] = row.count;
  return counts;
}

export type EmailWithEvents = EmailResource & { events: EmailEvent[] };

/** The message as recorded, beside the resource: what the dashboard's email page previews. */
export type EmailMessage = {
  provider: string;
  html: string;
  text: string | null;
  attachments: OutboxAttachment[];
  is_overage: boolean;
  /** Why the hand-off failed, as recorded. */
  error: string | null;
};

/**
 * The account's email with the id POST /send answered with (its provider's message id, or its own id), and its events
 * in order of arrival; undefined when the account has no such email. `withMessage` adds the message as recorded.
 */
export async function findEmailWithEvents(accountId: string, id: string): Promise<EmailWithEvents | undefined>;
export async function findEmailWithEvents(
  accountId: string,
  id: string,
  options: { withMessage: true },
): Promise<(EmailWithEvents & { message: EmailMessage }) | undefined>;
export async function findEmailWithEvents(
  accountId: string,
  id: string,
  { withMessage = false }: { withMessage?: boolean } = {},
): Promise<(EmailWithEvents & { message?: EmailMessage }) | undefined> {
  if (!canBeEmailId(id)) return undefined;
  await dispatchDueScheduledEmails({ accountId });
  const db = getDb();
  const message = withMessage
    ? db`, jsonb_build_object('provider', provider, 'html', html, 'text', text_body, 'attachments',
                              ${attachmentsMetadata(db)}, 'is_overage', is_overage, 'error', error) as message`
    : db``;
  const [row] = await db<(EmailResource & { internal_id: string; message?: EmailMessage })[]>`
    select id as internal_id, coalesce(provider_message_id, id::text) as id, from_address as from, to_addresses as to,
           cc_addresses as cc, bcc_addresses as bcc, reply_to, subject, template_id, tags,
           delivery_status as status, created_at, sent_at, scheduled_at, test ${message}
    from sent_emails where ${emailAddressedBy(accountId, id)}`;
  if (!row) return undefined;
  const events = await db<EmailEvent[]>`
    select type, occurred_at as at, detail from email_events where email_id = ${row.internal_id} order by id`;
  const { internal_id: _internalId, ...email } = row;
  return { ...email, events: [...events] };
}

/** What cancel needs to know of an email: where it went, and its status. */
export type EmailHandle = {
  internalId: string;
  provider: string;
  providerMessageId: string | null;
  status: DeliveryStatus;
};

/** The account's email with the id POST /send answered with (its provider's message id, or its own id). */
export async function findEmailHandle(accountId: string, id: string): Promise<EmailHandle | undefined> {
  if (!canBeEmailId(id)) return undefined;
  const [row] = await getDb()<EmailHandle[]>`
    select id as "internalId", provider, provider_message_id as "providerMessageId", delivery_status as status
    from sent_emails where ${emailAddressedBy(accountId, id)}`;
  return row;
}

/**
 * The condition (with its ordering and limit) picking the account's email `id` names: the provider's message id, or
 * the email's own id (which is what POST /send answered with when there was no provider).
 */
function emailAddressedBy(accountId: string, id: string) {
  const db = getDb();
  const ownId = isUuid(id) ? db`or id = ${id}::uuid` : db``;
  return db`account_id = ${accountId} and (provider_message_id = ${id} ${ownId})
    order by provider_message_id is not distinct from ${id} desc limit 1`;
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
