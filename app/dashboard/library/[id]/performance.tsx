import Link from "next/link";
import type { MetricsCounts } from "@/lib/metrics/schemas";
import { BarChart } from "../../../_components/bar-chart";
import { CardSection } from "../../../_components/card-section";
import { ColumnHeadings } from "../../../_components/column-headings";
import { formatNumber, formatRate } from "../../../_components/format";

/** The periods the card shows, in days to today (UTC). */
export const PERFORMANCE_PERIODS = [7, 30, 90] as const;
export type PerformancePeriod = (typeof PERFORMANCE_PERIODS)[number];

/** `?period=` as the page got it: one of PERFORMANCE_PERIODS, else 30 days. */
export function performancePeriod(value: string | undefined): PerformancePeriod {
  return PERFORMANCE_PERIODS.find((days) => String(days) === value) ?? 30;
}

const RATES = [
  ["delivery_rate", "Delivered", "of sent"],
  ["bounce_rate", "Bounced", "of sent"],
  ["complaint_rate", "Complaints", "of delivered"],
  ["open_rate", "Opened", "of delivered"],
  ["click_rate", "Clicked", "of delivered"],
] as const;

/**
 * A template's sends and rates over the period, day by day (test sends left out), as GET /metrics counts them
 * (`emailMetricsOfDays`, which the page reads with the rest).
 */
export function TemplatePerformance({
  period,
  metrics,
  totals,
}: {
  period: PerformancePeriod;
  metrics: (MetricsCounts & { key: string | null })[];
  totals: MetricsCounts;
}) {
  return (
    <CardSection
      headingId="performance-heading"
      title="Performance"
      testId="template-performance"
      aside={
        <nav aria-label="Period" className="row small">
          {PERFORMANCE_PERIODS.map((days) => (
            <Link
              key={days}
              className={`btn btn-sm ${days === period ? "btn-primary" : "btn-ghost"}`}
              aria-current={days === period ? "page" : undefined}
              href={`?period=${days}#performance-heading`}
              scroll={false}
            >
              {days} days
            </Link>
          ))}
        </nav>
      }
    >
      <dl className="row small" data-testid="performance-rates" style={{ gap: 24, margin: "0 0 12px" }}>
        <div>
          <dt className="muted">Sent</dt>
          <dd style={{ margin: 0 }}>{formatNumber(totals.sent)}</dd>
        </div>
        {RATES.map(([field, label, of]) => (
          <div key={field}>
            <dt className="muted">
              {label} <span className="visually-hidden">{of}</span>
            </dt>
            <dd style={{ margin: 0 }}>{formatRate(totals[field])}</dd>
          </div>
        ))}
      </dl>
      <BarChart label="Emails sent" tone="email" points={metrics.map((day) => ({ day: day.key!, value: day.sent }))} />
      <details className="small" style={{ marginTop: 8 }}>
        <summary className="muted" style={{ cursor: "pointer" }}>
          Show daily rates
        </summary>
        <div className="table-wrap" style={{ maxHeight: 240, overflowY: "auto", marginTop: 8 }}>
          <table className="table">
            <caption className="visually-hidden">Sends and rates per day</caption>
            <ColumnHeadings columns={["Day (UTC)", "Sent", ...RATES.map(([, label]) => label)]} />
            <tbody>
              {[...metrics].reverse().map((day) => (
                <tr key={day.key}>
                  <td>{day.key}</td>
                  <td>{formatNumber(day.sent)}</td>
                  {RATES.map(([field]) => (
                    <td key={field}>{formatRate(day[field])}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </CardSection>
  );
}
