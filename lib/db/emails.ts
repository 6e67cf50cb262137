import "server-only";
import { getDb } from "@/lib/db/client";

export type OutboxMessage = {
  id: string;
  status: "pending" | "sent" | "scheduled" | "failed";
  provider: string;
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
  attachments: { filename: string; content_type?: string; path?: string; size?: number }[];
  scheduled_at: Date | null;
  sent_at: Date | null;
  created_at: Date;
  error: string | null;
};

/** The messages kept for the account, newest first (the embedded outbox, and every provider's record). */
export async function listOutbox(accountId: string, limit = 100): Promise<OutboxMessage[]> {
  return getDb()<OutboxMessage[]>`
    select id, status, provider, from_address as from, to_addresses as to, cc_addresses as cc, bcc_addresses as bcc,
           reply_to, subject, html, text_body as text, headers, tags, attachments, scheduled_at, sent_at, created_at, error
    from sent_emails where account_id = ${accountId} order by created_at desc limit ${limit}`;
}
