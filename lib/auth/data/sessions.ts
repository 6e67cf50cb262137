import "server-only";
import { getDb } from "@/lib/db/client";

// Local browser sessions (lib/auth/session.ts signs their ids into the cookie), each a person's. A session is valid
// while its row exists and has not expired: signing out deletes it.

export type Session = { id: string; person_id: string; expires_at: Date };

/** A new session for the person; their expired sessions are dropped in the same statement. */
export async function createSession(personId: string, maxAgeSeconds: number): Promise<Session> {
  const [session] = await getDb()<Session[]>`
    with expired as (delete from sessions where person_id = ${personId} and expires_at <= now())
    insert into sessions (person_id, expires_at) values (${personId}, now() + ${maxAgeSeconds} * interval '1 second')
    returning id, person_id, expires_at`;
  return session;
}

export async function deleteSession(sessionId: string): Promise<void> {
  await getDb()`delete from sessions where id = ${sessionId}`;
}

/** Ends every session of the person that the live session `sessionId` belongs to, on every browser. */
export async function deletePersonSessions(sessionId: string): Promise<void> {
  await getDb()`
    delete from sessions where person_id = (select person_id from sessions where id = ${sessionId} and expires_at > now())`;
}
