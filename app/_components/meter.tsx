import type { DeliveryStatus, EmailEventType } from "@/lib/sent-emails/schemas";
import { formatNumber, formatWord } from "./format";

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

/** Delivered reads as done; a bounce, complaint or failure as trouble; a delay as a warning; scheduled, sent as news. */
const STATUS_TONE: Record<DeliveryStatus | EmailEventType, string> = {
  scheduled: "badge-accent",
  queued: "",
  sent: "badge-accent",
  delivered: "badge-success",
  delivery_delayed: "badge-warning",
  bounced: "badge-danger",
  complained: "badge-danger",
  failed: "badge-danger",
  canceled: "",
  opened: "",
  clicked: "",
};

/**
 * What a test email's outcome is called: it never reaches a provider, so the outbox's delivered, bounced or complained
 * (the API's status, as the contract has it) is a simulation, and says so.
 */
const TEST_OUTCOME: Partial<Record<DeliveryStatus | EmailEventType, string>> = {
  delivered: "Simulated delivery",
  bounced: "Simulated bounce",
  complained: "Simulated complaint",
};

/** An email's status or an event's type, in the API's words; a test email's outcome as the simulation it is. */
export function StatusBadge({ status, test = false }: { status: DeliveryStatus | EmailEventType; test?: boolean }) {
  return (
    <span className={`badge badge-dot ${STATUS_TONE[status]}`}>
      {(test && TEST_OUTCOME[status]) || formatWord(status)}
    </span>
  );
}
