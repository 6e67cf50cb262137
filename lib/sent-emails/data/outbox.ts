import "server-only";
import { getDb, type Db } from "@/lib/db/client";
import type { EmailStatus } from "@/lib/sent-emails/data/records";
import type { DeliveryStatus } from "@/lib/sent-emails/schemas";

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
 * hand-off's state and what became of it (`delivery_status`, the API's status): what the CLI's `outbox` prints.
 */
export async function listOutbox(accountId: string, limit = 100): Promise<OutboxMessage[]> {
  const db = getDb();
  return db<OutboxMessage[]>`
    select id, status, delivery_status, provider, provider_message_id, template_id, from_address as from,
           to_addresses as to, cc_addresses as cc, bcc_addresses as bcc, reply_to, subject, html, text_body as text,
           headers, tags, ${attachmentsMetadata(db)} as attachments, is_overage, scheduled_at, sent_at, created_at,
           error
    from sent_emails where account_id = ${accountId} order by created_at desc, batch_index desc nulls last, id limit ${limit}`;
}

/** A message's attachments as OutboxAttachment: metadata only, the Base64 content stays in the database. */
export function attachmentsMetadata(db: Db) {
  return db`coalesce((select jsonb_agg(jsonb_strip_nulls(jsonb_build_object(
                        'filename', a ->> 'filename', 'content_type', a ->> 'content_type', 'path', a ->> 'path',
                        'size', (a ->> 'size')::int)))
                      from jsonb_array_elements(attachments) a), '[]'::jsonb)`;
}
