import "server-only";
import { listAuditEntries, type AuditEntry, type AuditFilter } from "@/lib/audit/data";
import { getDb } from "@/lib/db/client";

// Other domains' data layers write their entries inside their own transactions, through these.
export { insertAuditEntry, libraryEntry, planChangedEntry, type AuditAction } from "@/lib/audit/data";

/** An entry as the API and the dashboard show it. */
export function toAuditEntryResponse(entry: AuditEntry) {
  return { ...entry, created_at: entry.created_at.toISOString() };
}

/**
 * GET /audit-log and the dashboard's page: a page of the team's entries, newest first (of one action, and in the
 * dashboard of one actor, when given).
 */
export async function listAuditLogPage(
  accountId: string,
  { limit, offset, action, actorId }: AuditFilter & { limit: number; offset: number },
) {
  const { entries, total } = await listAuditEntries(getDb(), accountId, { limit, offset, action, actorId });
  return { events: entries.map(toAuditEntryResponse), pagination: { limit, offset, total } };
}
