import type { ReactNode } from "react";
import { formatNumber } from "../../_components/format";

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

/** "1,234 / 5,000", or "1,234 · unlimited" with no limit: a stat's value against its monthly allowance. */
export function UsedOfLimit({ used, limit }: { used: number; limit: number | null }) {
  return (
    <>
      {formatNumber(used)} <small>{limit === null ? "· unlimited" : `/ ${formatNumber(limit)}`}</small>
    </>
  );
}
