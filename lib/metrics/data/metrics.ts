import "server-only";
import { MAX_METRICS_KEYS } from "@/lib/core/limits";
import { getDb } from "@/lib/db/client";
import type { MetricsGroup } from "@/lib/metrics/schemas";

// The account's email counts by day, template, tag or domain, from the daily tables and deltas email events are
// counted into (supabase/sql-functions/email_metrics.sql, count_email_event_metrics.sql, fold_email_metrics.sql).

export type MetricsRow = {
  key: string | null;
  total: boolean;
  sent: number;
  delivered: number;
  bounced: number;
  complained: number;
  failed: number;
  opened: number;
  clicked: number;
  clicked_emails: number;
};

export async function readEmailMetrics(
  accountId: string,
  {
    from,
    to,
    groupBy,
    templateId,
    tag,
    test,
  }: {
    from: string;
    to: string;
    groupBy: MetricsGroup;
    templateId: string | null;
    tag: string | null;
    test: boolean;
  },
): Promise<MetricsRow[]> {
  const db = getDb();
  return db<MetricsRow[]>`
    select key, total, sent::int, delivered::int, bounced::int, complained::int, failed::int, opened::int, clicked::int,
           clicked_emails::int
    from email_metrics(${accountId}::uuid, ${from}::date, ${to}::date, ${groupBy}::text, ${templateId}::uuid,
                       ${tag}::text, ${test}::boolean, ${MAX_METRICS_KEYS}::integer)`;
}

/** The names of the account's own or the catalogue's templates, by id. */
export async function readTemplateNames(accountId: string, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const db = getDb();
  const rows = await db<{ id: string; name: string }[]>`
    select id, name from templates
    where id = any(${ids}::uuid[]) and (owner_account_id = ${accountId} or owner_account_id is null)`;
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** Folds up to `limit` of the oldest deltas into the daily tables; how many it folded (0 while another fold runs). */
export async function foldEmailMetricDeltas(limit: number): Promise<number> {
  const [{ folded }] = await getDb()<{ folded: number }[]>`select fold_email_metrics(${limit}::integer) as folded`;
  return folded;
}
