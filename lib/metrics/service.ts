import "server-only";
import { throttledInBackground } from "@/lib/core/background";
import { METRICS_FOLD_BATCH } from "@/lib/core/limits";
import {
  foldEmailMetricDeltas,
  readEmailMetrics,
  readTemplateNames,
  type MetricsRow,
} from "@/lib/metrics/data/metrics";
import { metricsRange, utcDay, type MetricsCounts, type MetricsGroup } from "@/lib/metrics/schemas";

/**
 * A share from 0 to 1 with four decimals; 0 when it is a share of none. At most 1: a day's events are counted on the
 * day each happened, so a day can hold more deliveries than sends (sent before midnight, delivered after).
 */
function share(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.min(1, Math.round((part / whole) * 10_000) / 10_000);
}

/**
 * A row's counts and the contract's rates: delivery and bounce of sent; complaint, open and click of delivered (the
 * click rate's are emails with a click; `clicked` counts links).
 */
function withRates(row: MetricsRow): MetricsCounts {
  const { sent, delivered, bounced, complained, failed, opened, clicked, clicked_emails } = row;
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
    click_rate: share(clicked_emails, delivered),
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
  const rows = await readEmailMetrics(accountId, {
    from,
    to,
    groupBy: query.group_by,
    templateId: query.template_id ?? null,
    tag: query.tag ?? null,
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

/** The last `days` days to today (UTC), test sends left out: what the template page's chart shows. */
export async function emailMetricsOfDays(
  accountId: string,
  days: number,
  query: { group_by: MetricsGroup; template_id?: string },
) {
  const to = utcDay(Date.now());
  const from = utcDay(Date.parse(to) - (days - 1) * 86_400_000);
  return emailMetrics(accountId, { ...query, from, to, test: false });
}

/** The 30-day rates at which the overview warns: where Gmail and Yahoo start refusing senders, and a bounce rate past
 * which providers slow or suspend them. */
const COMPLAINT_RATE_WARNING = 0.003;
const BOUNCE_RATE_WARNING = 0.04;

export type DeliverabilityWarning = {
  complaintRate: number | null;
  bounceRate: number | null;
  /** The templates and domains whose own rate reaches a warned one: a template by name ("a deleted template"). */
  templates: string[];
  domains: string[];
};

/** Whether part of whole is at least rate, in basis points so that no float rounds it (none of nothing is no rate). */
const reaches = (part: number, whole: number, rate: number) =>
  whole > 0 && part * 10_000 >= whole * Math.round(rate * 10_000);

/** What the overview warns of: the last 30 days' complaint or bounce rate at its threshold, and what is behind it. */
export async function deliverabilityWarning(accountId: string): Promise<DeliverabilityWarning | null> {
  const query = { test: false } as const;
  const [{ totals }, byTemplate, byDomain] = await Promise.all([
    emailMetrics(accountId, { ...query, group_by: "day" }),
    emailMetrics(accountId, { ...query, group_by: "template" }),
    emailMetrics(accountId, { ...query, group_by: "domain" }),
  ]);
  // On the counts, not the rates' four decimals: 1 complaint in 334 deliveries (0.2994%) has not reached 0.3%.
  const complaints = reaches(totals.complained, totals.delivered, COMPLAINT_RATE_WARNING);
  const bounces = reaches(totals.bounced, totals.sent, BOUNCE_RATE_WARNING);
  if (!complaints && !bounces) return null;
  const behind = (entry: MetricsCounts) =>
    (complaints && reaches(entry.complained, entry.delivered, COMPLAINT_RATE_WARNING)) ||
    (bounces && reaches(entry.bounced, entry.sent, BOUNCE_RATE_WARNING));
  const templateIds = byTemplate.metrics.filter(behind).map((entry) => entry.key);
  const names = await readTemplateNames(
    accountId,
    templateIds.filter((id): id is string => id !== null),
  );
  return {
    complaintRate: complaints ? totals.complaint_rate : null,
    bounceRate: bounces ? totals.bounce_rate : null,
    templates: templateIds.map((id) => (id !== null && names.get(id)) || "a deleted template"),
    domains: byDomain.metrics.filter(behind).map((entry) => entry.key ?? ""),
  };
}

/**
 * The dispatch step's: folds the email events counted since the last fold into the daily tables, a batch at a time
 * while batches are full (a burst's backlog in one run); how many it folded.
 */
export async function foldEmailMetrics(): Promise<number> {
  let folded = 0;
  for (;;) {
    const batch = await foldEmailMetricDeltas(METRICS_FOLD_BATCH);
    folded += batch;
    if (batch < METRICS_FOLD_BATCH) return folded;
  }
}

/**
 * A fold after the answer, at most every 10 s a process: what provider events and reads start (their opens and clicks
 * come long after the sends that start the dispatch step), so the deltas a read sums stay few.
 */
export const foldEmailMetricsSoon = throttledInBackground("folding email metrics", 10_000, foldEmailMetrics);
