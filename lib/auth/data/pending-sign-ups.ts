import "server-only";
import { getDb } from "@/lib/db/client";

// Local sign-ups waiting for their address to be confirmed (lib/auth/local.ts). Rows are keyed by the lower-cased
// address; the confirmation link's token is kept only as its SHA-256 digest.

export type PendingSignUp = { email: string; password_hash: string };

/**
 * Holds a sign-up until its link is followed, replacing any earlier one for the address (whose link then stops
 * working). A few expired rows are dropped in the same statement, so the table holds about one day of sign-ups.
 */
export async function savePendingSignUp(input: {
  email: string;
  passwordHash: string;
  tokenHash: string;
  maxAgeSeconds: number;
}): Promise<void> {
  await getDb()`
    with expired as (
      delete from pending_sign_ups where email in (
        select email from pending_sign_ups where expires_at <= now() and email <> ${input.email}
        order by expires_at limit 20 for update skip locked)
    )
    insert into pending_sign_ups (email, password_hash, token_hash, expires_at)
    values (${input.email}, ${input.passwordHash}, ${input.tokenHash}, now() + ${input.maxAgeSeconds} * interval '1 second')
    on conflict (email) do update set
      password_hash = excluded.password_hash, token_hash = excluded.token_hash,
      created_at = now(), expires_at = excluded.expires_at`;
}

/** The address of the unexpired pending sign-up whose token has this digest, leaving it as it is; null if none. */
export async function findPendingSignUp(tokenHash: string): Promise<{ email: string } | null> {
  const [row] = await getDb()<{ email: string }[]>`
    select email from pending_sign_ups where token_hash = ${tokenHash} and expires_at > now()`;
  return row ?? null;
}

/**
 * Removes the pending sign-up whose token has this digest and answers it while it is unexpired: one statement, so a
 * link is honoured once however many times it is followed at once. Null for an unknown, used or expired token.
 */
export async function takePendingSignUp(tokenHash: string): Promise<PendingSignUp | null> {
  const [row] = await getDb()<(PendingSignUp & { live: boolean })[]>`
    delete from pending_sign_ups where token_hash = ${tokenHash}
    returning email, password_hash, expires_at > now() as live`;
  return row?.live ? { email: row.email, password_hash: row.password_hash } : null;
}
