import "server-only";
import { listAuditEntries, type AuditEntry, type AuditFilter } from "@/lib/audit/data";
import { getDb } from "@/lib/db/client";

// Other domains' data layers write their entries inside their own transactions, through these.
export { insertAuditEntry, libraryEntry, planChangedEntry, type AuditAction } from "@/lib/audit/data";

/** An entry as the API and the dashboard show it. */
export function toAuditEntryResponse(entry: AuditEntry) {
  return { ...entry, created_at: entry.created_at.toISOString() };
}

/** GET /audit-log: a page of the team's entries, newest first (of one action, when given). */
export async function listAuditLogPage(
  accountId: string,
  { limit, offset, action }: { limit: number; offset: number; action?: AuditFilter["action"] },
) {
  const { entries, total } = await listAuditEntries(getDb(), accountId, { limit, offset, action });
  return { events: entries.map(toAuditEntryResponse), pagination: { limit, offset, total } };
}
