import "server-only";
import type { Account } from "@/lib/auth/data/accounts";
import { getDb } from "@/lib/db/client";

// Local browser sessions (lib/auth/session.ts signs their ids into the cookie). A session is valid while its row
// exists and has not expired: signing out deletes it.

export type Session = { id: string; account_id: string; expires_at: Date };

/** A new session for the account; the account's expired sessions are dropped in the same statement. */
export async function createSession(accountId: string, maxAgeSeconds: number): Promise<Session> {
  const [session] = await getDb()<Session[]>`
    with expired as (delete from sessions where account_id = ${accountId} and expires_at <= now())
    insert into sessions (account_id, expires_at) values (${accountId}, now() + ${maxAgeSeconds} * interval '1 second')
    returning id, account_id, expires_at`;
  return session;
}

/** The account of a live session, or null when the session was ended, has expired or is another account's. */
export async function findSessionAccount(sessionId: string, accountId: string): Promise<Account | null> {
  const [account] = await getDb()<Account[]>`
    select a.id, a.email, a.plan, a.created_at from sessions s join accounts a on a.id = s.account_id
    where s.id = ${sessionId} and s.account_id = ${accountId} and s.expires_at > now()`;
  return account ?? null;
}

export async function deleteSession(sessionId: string): Promise<void> {
  await getDb()`delete from sessions where id = ${sessionId}`;
}

/** Ends every session of the account that the live session `sessionId` belongs to, on every browser. */
export async function deleteAccountSessions(sessionId: string): Promise<void> {
  await getDb()`
    delete from sessions where account_id = (select account_id from sessions where id = ${sessionId} and expires_at > now())`;
}
