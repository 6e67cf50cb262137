import "server-only";
import { getDb } from "@/lib/db/client";
import { attachmentsMetadata, type OutboxAttachment, type OutboxMessage } from "@/lib/sent-emails/data/outbox";
import { holdsNul, isUuid } from "@/lib/core/schemas";
import { DELIVERY_STATUSES, type DeliveryStatus, type EmailEventType } from "@/lib/sent-emails/schemas";
import { MAX_EMAIL_ID_LENGTH } from "@/lib/core/limits";

// Emails as resources (GET /emails, GET /emails/{id}, the dashboard's Emails pages): what became of each email, as its
// events moved it. Reads only: a due scheduled email is sent by the dispatcher, never by reading it.

export type EmailEvent = { type: EmailEventType; at: Date; detail: Record<string, unknown> | null };

/** An email as the API describes it: the columns the outbox lists too, with its status and the id it is known by. */
export type EmailResource = Pick<
  OutboxMessage,
  | "from"
  | "to"
  | "cc"
  | "bcc"
  | "reply_to"
  | "subject"
  | "template_id"
  | "tags"
  | "created_at"
  | "sent_at"
  | "scheduled_at"
> & {
  /** The id POST /send answered with: the provider's message id, or the email's own when it has none. */
  id: string;
  status: DeliveryStatus;
  /** Sent with a test key: kept in the outbox, never handed to a provider, not counted toward the month. */
  test: boolean;
  /** The version of its template it was rendered from: a number or "draft" (as text); null when sent before versions. */
  template_version: string | null;
  /** The locale it was rendered in; null for a template without messages. */
  locale: string | null;
};

/** Whether `id` could be an email's (its provider's message id, or its own): short, and text PostgreSQL can hold. */
export function canBeEmailId(id: string): boolean {
  return id.length <= MAX_EMAIL_ID_LENGTH && !holdsNul(id);
}

/** One page of the account's emails, newest first, optionally of one status, and how many there are. */
export async function listEmails(
  accountId: string,
  { limit, offset, status }: { limit: number; offset: number; status: DeliveryStatus | null },
): Promise<{ emails: EmailResource[]; total: number }> {
  const db = getDb();
  const ofStatus = status ? db`and delivery_status = ${status}` : db``;
  const rows = await db<(EmailResource & { total: number })[]>`
    select t.total, e.* from (
      select count(*)::int as total from sent_emails where account_id = ${accountId} ${ofStatus}
    ) t left join lateral (
      select coalesce(provider_message_id, id::text) as id, from_address as from, to_addresses as to,
             cc_addresses as cc, bcc_addresses as bcc, reply_to, subject, template_id, template_version, locale, tags,
             delivery_status as status, created_at, sent_at, scheduled_at, test
      from sent_emails where account_id = ${accountId} ${ofStatus}
      order by created_at desc, batch_index desc nulls last, id limit ${limit} offset ${offset}
    ) e on true`;
  const total = rows[0]?.total ?? 0;
  return { emails: rows.filter((row) => row.id !== null).map(({ total: _total, ...email }) => email), total };
}

/**
 * How many of the account's emails are in each status: all of them, or those recorded since `since` (the overview's
 * month); `test`: only test sends (true) or only live ones (false).
 */
export async function countEmailsByStatus(
  accountId: string,
  { since = null, test = null }: { since?: Date | null; test?: boolean | null } = {},
): Promise<Record<DeliveryStatus, number>> {
  const db = getDb();
  const rows = await db<{ status: DeliveryStatus; count: number }[]>`
    select delivery_status as status, count(*)::int as count from sent_emails
    where account_id = ${accountId} ${since ? db`and created_at >= ${since}` : db``} ${test === null ? db`` : db`and test = ${test}`}
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
  const db = getDb();
  const message = withMessage
    ? db`, jsonb_build_object('provider', provider, 'html', html, 'text', text_body, 'attachments',
                              ${attachmentsMetadata(db)}, 'is_overage', is_overage, 'error', error) as message`
    : db``;
  const [row] = await db<(EmailResource & { internal_id: string; message?: EmailMessage })[]>`
    select id as internal_id, coalesce(provider_message_id, id::text) as id, from_address as from, to_addresses as to,
           cc_addresses as cc, bcc_addresses as bcc, reply_to, subject, template_id, template_version, locale, tags,
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
export function emailAddressedBy(accountId: string, id: string) {
  const db = getDb();
  const ownId = isUuid(id) ? db`or id = ${id}::uuid` : db``;
  return db`account_id = ${accountId} and (provider_message_id = ${id} ${ownId})
    order by provider_message_id is not distinct from ${id} desc limit 1`;
}
