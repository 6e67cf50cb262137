import "server-only";
import { type Db, getDb, jsonParameter } from "@/lib/db/client";
import type { OutboxDeliveryEvent } from "@/lib/mail-transport/outbox-delivery";
import type { RenderedMessage } from "@/lib/mail-transport/types";
import type { PlanName } from "@/lib/core/plans";

// Recording an email and its hand-off to the provider: counted and recorded in one statement, then accepted (sent or
// scheduled) or failed with its count given back.

/** The hand-off's state: recorded (pending), handed to the provider (sent, or scheduled by it), or failed. */
export type EmailStatus = "pending" | "sent" | "scheduled" | "failed";

/** The complete message as it is recorded, and where it goes. */
export type EmailRecordInput = RenderedMessage & {
  accountId: string;
  templateId: string;
  /** The version of the template it was rendered from: a number, or "draft". */
  templateVersion: string;
  /** The locale it was rendered in (the template's resolved tag); null for a template without messages. */
  locale?: string | null;
  status: "pending" | "sent" | "scheduled";
  provider: string;
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
    template_version: message.templateVersion,
    locale: message.locale ?? null,
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
