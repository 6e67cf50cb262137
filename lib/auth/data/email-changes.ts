import "server-only";
import { getDb } from "@/lib/db/client";

// Local accounts' changes of sign-in email waiting for the link mailed to the new address (lib/auth/local.ts), one per
// person; the link's token is kept only as its SHA-256 digest.

/** Holds a change until its link is used, replacing the person's earlier one (whose link then stops working). */
export async function saveEmailChange(input: {
  personId: string;
  newEmail: string;
  tokenHash: string;
  maxAgeSeconds: number;
}): Promise<void> {
  await getDb()`
    insert into email_changes (person_id, new_email, token_hash, expires_at)
    values (${input.personId}, ${input.newEmail}, ${input.tokenHash},
            now() + ${input.maxAgeSeconds} * interval '1 second')
    on conflict (person_id) do update set
      new_email = excluded.new_email, token_hash = excluded.token_hash, created_at = now(),
      expires_at = excluded.expires_at`;
}

/** The current and new address of the unexpired change with this token digest, leaving it usable; null if none. */
export async function findEmailChange(tokenHash: string): Promise<{ email: string; newEmail: string } | null> {
  const [row] = await getDb()<{ email: string; newEmail: string }[]>`
    select p.email, c.new_email as "newEmail" from email_changes c join people p on p.id = c.person_id
    where c.token_hash = ${tokenHash} and c.expires_at > now()`;
  return row ?? null;
}

export type EmailChangeTaken = { status: "changed"; oldEmail: string; newEmail: string } | { status: "invalid" };

/**
 * Uses a change in one statement: its row is removed and, while unexpired and the new address is still free, the
 * person's email set to it. A link works once however many times it is posted at once; `invalid` for an unknown,
 * used or expired token, or an address taken meanwhile (a race the check misses is refused by the unique index, and
 * leaves the link as it was: it fails the same way until it expires).
 */
export async function takeEmailChange(tokenHash: string): Promise<EmailChangeTaken> {
  try {
    const [row] = await getDb()<{ oldEmail: string; newEmail: string }[]>`
      with taken as (
        delete from email_changes where token_hash = ${tokenHash}
        returning person_id, new_email, expires_at > now() as live
      ), previous as (
        select a.id, a.email from people a join taken t on t.person_id = a.id where t.live
          and not exists (select 1 from people b where lower(b.email) = lower(t.new_email))
      ), updated as (
        update people a set email = t.new_email, updated_at = now()
        from taken t, previous p where a.id = p.id and t.person_id = p.id
        returning a.id, a.email
      )
      select p.email as "oldEmail", u.email as "newEmail" from updated u join previous p on p.id = u.id`;
    return row ? { status: "changed", ...row } : { status: "invalid" };
  } catch (error) {
    if ((error as { code?: string }).code === "23505") return { status: "invalid" };
    throw error;
  }
}
