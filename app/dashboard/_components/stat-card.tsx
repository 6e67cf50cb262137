import type { ReactNode } from "react";
import { formatNumber } from "../../_components/format";
import { Meter } from "../../_components/meter";

/** One of the figures in a page's `.stats` row: a label, the value, then a meter or other children and a foot note. */
export function StatCard({
  label,
  value,
  foot,
  testId,
  children,
}: {
  label: string;
  value: ReactNode;
  foot?: ReactNode;
  testId?: string;
  children?: ReactNode;
}) {
  return (
    <div className="card stat" data-testid={testId}>
      <span className="stat-label">{label}</span>
      <span className="stat-value">{value}</span>
      {children}
      {foot !== undefined && <span className="stat-foot">{foot}</span>}
    </div>
  );
}

/** A monthly allowance as a stat: "1,234 / 5,000" (or "· unlimited" with no limit) over a compact meter. */
export function QuotaStatCard({
  label,
  meterLabel,
  used,
  limit,
  unit,
  foot,
}: {
  label: string;
  meterLabel: string;
  used: number;
  limit: number | null;
  unit: string;
  foot?: ReactNode;
}) {
  return (
    <StatCard
      label={label}
      value={
        <>
          {formatNumber(used)} <small>{limit === null ? "· unlimited" : `/ ${formatNumber(limit)}`}</small>
        </>
      }
      foot={foot}
    >
      <Meter label={meterLabel} used={used} limit={limit} unit={unit} compact />
    </StatCard>
  );
}
