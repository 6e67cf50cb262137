import "server-only";
import { getDb } from "@/lib/db/client";

// Local accounts' password resets waiting for their link to be followed (lib/auth/local.ts), one per person; the
// link's token is kept only as its SHA-256 digest.

/** Holds a reset until its link is used, replacing the person's earlier one (whose link then stops working). */
export async function savePasswordReset(input: {
  personId: string;
  tokenHash: string;
  maxAgeSeconds: number;
}): Promise<void> {
  await getDb()`
    insert into password_resets (person_id, token_hash, expires_at)
    values (${input.personId}, ${input.tokenHash}, now() + ${input.maxAgeSeconds} * interval '1 second')
    on conflict (person_id) do update set
      token_hash = excluded.token_hash, created_at = now(), expires_at = excluded.expires_at`;
}

/**
 * The work savePasswordReset does, for an address without a sign-in: the same statement shape reaches the database,
 * so the answer's timing does not tell the two apart. Drops a few expired resets, which is useful in its own right.
 */
export async function dropExpiredPasswordResets(): Promise<void> {
  await getDb()`
    delete from password_resets where person_id in (
      select person_id from password_resets where expires_at <= now() order by expires_at limit 20 for update skip locked)`;
}

/** The address of the person whose unexpired reset has this token digest, leaving it usable; null if none. */
export async function findPasswordReset(tokenHash: string): Promise<{ email: string } | null> {
  const [row] = await getDb()<{ email: string }[]>`
    select p.email from password_resets r join people p on p.id = r.person_id
    where r.token_hash = ${tokenHash} and r.expires_at > now()`;
  return row ?? null;
}

/**
 * Uses a reset: in one statement, its row is removed, the person's password set and every session of theirs
 * ended, so a link works once however many times it is posted at once. The person's email, or null for an unknown,
 * used or expired token (the row is removed either way).
 */
export async function takePasswordReset(tokenHash: string, passwordHash: string): Promise<{ email: string } | null> {
  const [row] = await getDb()<{ id: string; email: string }[]>`
    with taken as (
      delete from password_resets where token_hash = ${tokenHash} returning person_id, expires_at > now() as live
    ), updated as (
      update people set password_hash = ${passwordHash}, updated_at = now()
      where id = (select person_id from taken where live) returning id, email
    ), ended as (
      delete from sessions where person_id in (select id from updated)
    )
    select id, email from updated`;
  return row ? { email: row.email } : null;
}
