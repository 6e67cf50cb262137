import "server-only";
import type postgres from "postgres";
import { currentAuditContext } from "@/lib/audit/context";
import type { AuditAction } from "@/lib/audit/schemas";
import type { Db, Tx } from "@/lib/db/client";

export type { AuditAction };

// The audit log's one writer and its reads. Every change of the contract's list awaits insertAuditEntry inside the
// transaction that makes the change, so an entry exists exactly when the change does.

export type NewAuditEntry = {
  accountId: string;
  action: AuditAction;
  target: { type: string; id: string | null; label: string | null };
  /** Never a secret: a key's display fragment at most. */
  details?: Record<string, postgres.JSONValue>;
};

export type AuditEntry = {
  id: string;
  action: AuditAction;
  actor: { type: "user" | "api_key" | "system"; id: string | null; label: string };
  target: { type: string; id: string | null; label: string | null };
  ip: string | null;
  created_at: Date;
  details?: Record<string, unknown>;
};

/**
 * The entry's insert, for `await` inside the change's transaction. The actor and address are the request's
 * (lib/audit/context.ts); an API key is labelled by its name, read here so authenticating stays one statement.
 */
export function insertAuditEntry(sql: Db | Tx, entry: NewAuditEntry): postgres.PendingQuery<postgres.Row[]> {
  const { actor, ip } = currentAuditContext();
  const label =
    actor.type === "api_key"
      ? sql`coalesce((select name from api_keys where id::text = ${actor.id}), ${actor.label})`
      : sql`${actor.label}`;
  return sql`
    insert into audit_log (account_id, action, actor_type, actor_id, actor_label, target_type, target_id,
                           target_label, ip, details)
    values (${entry.accountId}, ${entry.action}, ${actor.type}, ${actor.id}, ${label}, ${entry.target.type},
            ${entry.target.id}, ${entry.target.label}, ${ip}, ${entry.details ? sql.json(entry.details) : null})`;
}

/** The team's plan changed: by Stripe's events and the CLI (the system), or the test-mode processor (the person). */
export function planChangedEntry(accountId: string, from: string, to: string): NewAuditEntry {
  return { accountId, action: "plan.changed", target: { type: "plan", id: null, label: to }, details: { from, to } };
}

/** A catalogue template came into or left the team's library (added_via: free, purchased). */
export function libraryEntry(
  accountId: string,
  action: "library.added" | "library.removed",
  template: { id: string; name: string },
  addedVia = "purchased",
): NewAuditEntry {
  return {
    accountId,
    action,
    target: { type: "template", id: template.id, label: template.name },
    details: { added_via: addedVia },
  };
}

type AuditRow = {
  id: string;
  action: AuditAction;
  actor_type: AuditEntry["actor"]["type"];
  actor_id: string | null;
  actor_label: string;
  target_type: string;
  target_id: string | null;
  target_label: string | null;
  ip: string | null;
  details: Record<string, unknown> | null;
  created_at: Date;
};

function toEntry(row: AuditRow): AuditEntry {
  return {
    id: row.id,
    action: row.action,
    actor: { type: row.actor_type, id: row.actor_id, label: row.actor_label },
    target: { type: row.target_type, id: row.target_id, label: row.target_label },
    ip: row.ip,
    created_at: row.created_at,
    ...(row.details === null ? {} : { details: row.details }),
  };
}

export type AuditFilter = { action?: AuditAction; actorId?: string };

/**
 * One page of the team's entries, newest first, with how many match: one statement, walking the
 * (account_id[, action | actor_id], created_at desc, seq desc) indexes: seq orders the entries of one
 * instant (one transaction's share its start) as they were written.
 */
export async function listAuditEntries(
  db: Db,
  accountId: string,
  { limit, offset, action, actorId }: AuditFilter & { limit: number; offset: number },
): Promise<{ entries: AuditEntry[]; total: number }> {
  const wantedAction = action ?? null;
  const wantedActor = actorId ?? null;
  const rows = await db<(AuditRow & { total: number })[]>`
    select t.total, e.*
    from (
      select count(*)::int as total from audit_log
      where account_id = ${accountId}
        and (${wantedAction}::text is null or action = ${wantedAction}::text)
        and (${wantedActor}::text is null or actor_id = ${wantedActor}::text)
    ) t
    left join lateral (
      select id, action, actor_type, actor_id, actor_label, target_type, target_id, target_label, ip, details,
             created_at
      from audit_log
      where account_id = ${accountId}
        and (${wantedAction}::text is null or action = ${wantedAction}::text)
        and (${wantedActor}::text is null or actor_id = ${wantedActor}::text)
      order by created_at desc, seq desc
      limit ${limit} offset ${offset}
    ) e on true`;
  return {
    total: rows[0]?.total ?? 0,
    entries: rows.filter((row) => row.id !== null).map(({ total: _total, ...row }) => toEntry(row)),
  };
}
