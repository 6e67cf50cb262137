import type { ReactNode } from "react";
import type { WebhookDelivery } from "@/lib/webhooks/service";
import { formatDateTime, timeAgo } from "../../../_components/format";
import { DELIVERY_STATUS_BADGE } from "../event-types";

// A delivery as the log and the test event's outcome show it; no hooks, so both the page and a form render it.

export function DeliveryStatusBadge({ status }: { status: WebhookDelivery["status"] }) {
  const badge = DELIVERY_STATUS_BADGE[status];
  return <span className={`badge badge-dot ${badge.tone}`}>{badge.label}</span>;
}

/** Its last attempt's figures (the endpoint's status code, the latency), why it failed, and the answer's first 4 KB. */
export function DeliveryFacts({ delivery }: { delivery: WebhookDelivery }) {
  const attempt = delivery.last_attempt;
  return (
    <>
      <dl className="facts">
        <div>
          <dt>Attempts</dt>
          <dd>{delivery.attempts}</dd>
        </div>
        <div>
          <dt>Response</dt>
          <dd>{attempt ? (attempt.response_status ?? "None") : "—"}</dd>
        </div>
        <div>
          <dt>Latency</dt>
          <dd>{attempt?.duration_ms != null ? `${attempt.duration_ms} ms` : "—"}</dd>
        </div>
        <div>
          <dt>Last attempt</dt>
          <dd>{attempt ? formatDateTime(attempt.at) : "Not yet"}</dd>
        </div>
        {delivery.next_attempt_at && (
          <div>
            <dt>Next attempt</dt>
            <dd>{formatDateTime(delivery.next_attempt_at)}</dd>
          </div>
        )}
        <div>
          <dt>Event id</dt>
          <dd className="mono small">{delivery.event_id}</dd>
        </div>
      </dl>
      {attempt?.error && (
        <p className="field-error" style={{ margin: "8px 0 0" }}>
          {attempt.error}
        </p>
      )}
      {attempt?.response_excerpt ? (
        <details style={{ marginTop: 8 }}>
          <summary className="small">Response body (first 4 KB)</summary>
          <pre className="code-block excerpt">{attempt.response_excerpt}</pre>
        </details>
      ) : null}
    </>
  );
}

/** One row of the delivery log: its event, status and age, `actions` (Replay) on the right, then its figures. */
export function DeliveryItem({ delivery, actions }: { delivery: WebhookDelivery; actions?: ReactNode }) {
  return (
    <li
      className="card-body"
      style={{ borderTop: "1px solid var(--border)" }}
      data-testid="delivery-row"
      data-status={delivery.status}
    >
      <div className="row-between">
        <div className="row">
          <strong className="mono">{delivery.event_type}</strong>
          <DeliveryStatusBadge status={delivery.status} />
          <span className="muted small" title={formatDateTime(delivery.created_at)}>
            {timeAgo(delivery.created_at)}
          </span>
        </div>
        {actions}
      </div>
      <DeliveryFacts delivery={delivery} />
    </li>
  );
}
