import type { Webhook } from "@/lib/webhooks/service";

/** Enabled, or disabled: by its owner, or by Letterpress after days of failures (with why). */
export function EndpointStatus({ webhook }: { webhook: Pick<Webhook, "enabled" | "disabled_reason"> }) {
  if (webhook.enabled) return <span className="badge badge-success badge-dot">Enabled</span>;
  return (
    <span className="stack-sm" style={{ alignItems: "flex-start", gap: 4 }}>
      <span className="badge badge-danger badge-dot">Disabled</span>
      {webhook.disabled_reason && <span className="muted small">{webhook.disabled_reason}</span>}
    </span>
  );
}
