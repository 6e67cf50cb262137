import "server-only";
import { readEmailMetrics, type MetricsRow } from "@/lib/metrics/data/metrics";
import { metricsRange, type MetricsCounts, type MetricsGroup } from "@/lib/metrics/schemas";

/** A share from 0 to 1 with four decimals; 0 when it is a share of none. */
function share(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 10_000;
}

/** A row's counts and the contract's rates: delivery and bounce of sent; complaint, open and click of delivered. */
function withRates(row: MetricsRow): MetricsCounts {
  const { sent, delivered, bounced, complained, failed, opened, clicked } = row;
  return {
    sent,
    delivered,
    bounced,
    complained,
    failed,
    opened,
    clicked,
    delivery_rate: share(delivered, sent),
    bounce_rate: share(bounced, sent),
    complaint_rate: share(complained, delivered),
    open_rate: share(opened, delivered),
    click_rate: share(clicked, delivered),
  };
}

/** GET /metrics: the account's counts and rates over the range, by `group_by`, and the range's totals. */
export async function emailMetrics(
  accountId: string,
  query: {
    from?: string;
    to?: string;
    group_by: MetricsGroup;
    template_id?: string;
    tag?: string;
    test: boolean;
  },
) {
  const { from, to } = metricsRange(query);
  const separator = query.tag?.indexOf(":") ?? -1;
  const rows = await readEmailMetrics(accountId, {
    from,
    to,
    groupBy: query.group_by,
    templateId: query.template_id ?? null,
    tag: query.tag ? { name: query.tag.slice(0, separator), value: query.tag.slice(separator + 1) } : null,
    test: query.test,
  });
  const totals = rows.find((row) => row.total)!;
  return {
    from,
    to,
    metrics: rows.filter((row) => !row.total).map((row) => ({ key: row.key, ...withRates(row) })),
    totals: withRates(totals),
  };
}
