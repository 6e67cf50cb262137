import "server-only";
import { getDb } from "@/lib/db/client";
import type { MetricsGroup } from "@/lib/metrics/schemas";

// The account's email counts by day, template, tag or domain, from the daily tables email events are counted into
// (supabase/sql-functions/email_metrics.sql, count_email_event_metrics.sql).

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
    tag: { name: string; value: string } | null;
    test: boolean;
  },
): Promise<MetricsRow[]> {
  const db = getDb();
  return db<MetricsRow[]>`
    select key, total, sent::int, delivered::int, bounced::int, complained::int, failed::int, opened::int, clicked::int
    from email_metrics(${accountId}::uuid, ${from}::date, ${to}::date, ${groupBy}::text, ${templateId}::uuid,
                       ${tag?.name ?? null}::text, ${tag?.value ?? null}::text, ${test}::boolean)`;
}
