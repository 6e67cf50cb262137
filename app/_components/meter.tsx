import { formatNumber } from "./format";

/** A labelled usage bar; `limit` null means unlimited. */
export function Meter({
  label,
  used,
  limit,
  unit,
  compact = false,
}: {
  label: string;
  used: number;
  limit: number | null;
  unit: string;
  compact?: boolean;
}) {
  const ratio = limit === null || limit === 0 ? 0 : Math.min(1, used / limit);
  const tone = limit !== null && used >= limit ? " is-danger" : ratio >= 0.8 ? " is-warning" : "";
  return (
    <div className="stack-sm">
      <div className={compact ? "visually-hidden" : "row-between small"}>
        <span>{label}</span>
        <span className="muted">
          {formatNumber(used)} {limit === null ? unit : `/ ${formatNumber(limit)} ${unit}`}
        </span>
      </div>
      {limit === null ? (
        <div className="progress" aria-hidden="true">
          <span style={{ width: "100%", opacity: 0.25 }} />
        </div>
      ) : (
        <div
          className={`progress${tone}`}
          role="progressbar"
          aria-label={label}
          aria-valuemin={0}
          aria-valuemax={limit}
          aria-valuenow={Math.min(used, limit)}
          aria-valuetext={`${formatNumber(used)} of ${formatNumber(limit)} ${unit}`}
        >
          <span style={{ width: `${Math.max(ratio * 100, used > 0 ? 2 : 0)}%` }} />
        </div>
      )}
    </div>
  );
}

const STATUS_TONE: Record<string, string> = {
  sent: "badge-success",
  scheduled: "badge-accent",
  pending: "badge-warning",
  failed: "badge-danger",
};

export function StatusBadge({ status }: { status: string }) {
  return (
    <span className={`badge badge-dot ${STATUS_TONE[status] ?? ""}`}>{status[0].toUpperCase() + status.slice(1)}</span>
  );
}
