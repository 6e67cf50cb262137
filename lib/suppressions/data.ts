import "server-only";
import { insertAuditEntry } from "@/lib/audit/service";
import { getDb } from "@/lib/db/client";

/**
 * An address the account may not send to: it hard-bounced or complained (`group` null: every send), or its owner
 * unsubscribed from a group's sends ('' the unnamed list of `"unsubscribe": true`).
 */
export type Suppression = {
  email: string;
  reason: "bounced" | "complained" | "unsubscribed";
  group: string | null;
  created_at: Date;
};

/**
 * Suppressions are written by `apply_email_event` (a hard bounce or a complaint suppresses its recipients) and read
 * with each send (`send_context`); the user can list them and remove one.
 */

/** One page of the account's suppressed addresses, newest first, and how many there are. */
export async function listSuppressions(
  accountId: string,
  { limit, offset }: { limit: number; offset: number },
): Promise<{ suppressions: Suppression[]; total: number }> {
  const rows = await getDb()<(Suppression & { total: number })[]>`
    select t.total, s.* from (
      select count(*)::int as total from email_suppressions where account_id = ${accountId}
    ) t left join lateral (
      select email, reason, unsubscribe_group as group, created_at from email_suppressions
      where account_id = ${accountId}
      order by created_at desc, email limit ${limit} offset ${offset}
    ) s on true`;
  const total = rows[0]?.total ?? 0;
  return {
    suppressions: rows.filter((row) => row.email !== null).map(({ total: _total, ...suppression }) => suppression),
    total,
  };
}

/**
 * Removes an address from the account's suppressions, its unsubscribes too; the newest entry removed, or undefined
 * when it had none.
 */
export async function deleteSuppression(accountId: string, address: string): Promise<Suppression | undefined> {
  return getDb().begin(async (tx) => {
    const rows = await tx<Suppression[]>`
      delete from email_suppressions where account_id = ${accountId} and email = ${address.toLowerCase()}
      returning email, reason, unsubscribe_group as group, created_at`;
    const row = rows.sort((a, b) => b.created_at.getTime() - a.created_at.getTime())[0];
    if (row) {
      await insertAuditEntry(tx, {
        accountId,
        action: "suppression.removed",
        target: { type: "suppression", id: row.email, label: row.email },
        // Every entry it removed when there were several (a bounce and unsubscribes).
        details:
          rows.length > 1
            ? { reason: row.reason, removed: rows.map(({ reason, group }) => ({ reason, group })) }
            : { reason: row.reason },
      });
    }
    return row;
  });
}
