import type { Metadata } from "next";
import Link from "next/link";
import { requireAccount } from "@/lib/auth/current";
import { canUseAdminArea } from "@/lib/teams/rights";
import { AdminNeeded } from "../_components/admin-needed";
import { MAX_WEBHOOK_ENDPOINTS } from "@/lib/core/limits";
import { listWebhooks } from "@/lib/webhooks/service";
import { CardSection } from "../../_components/card-section";
import { formatDateTime, timeAgo } from "../../_components/format";
import { WebhookIcon } from "../../_components/icons";
import { ColumnHeadings } from "../../_components/column-headings";
import { EmptyState } from "../_components/data-table";
import { PageHeader } from "../_components/page-header";
import { EndpointStatus } from "./endpoint-status";
import { AddWebhookForm } from "./webhook-forms";

export const metadata: Metadata = { title: "Webhooks" };

const COLUMNS = [
  "Endpoint",
  { label: "Events", className: "hide-sm" },
  "Status",
  { label: "Added", className: "hide-sm" },
];

/** The first event types, then how many more: a row stays a few lines high. */
function eventsSummary(events: string[], shown = 3): string {
  if (events.length <= shown + 1) return events.join(", ");
  return `${events.slice(0, shown).join(", ")} and ${events.length - shown} more`;
}

export default async function WebhooksPage() {
  const account = await requireAccount("/dashboard/webhooks");
  if (!canUseAdminArea(account.role)) return <AdminNeeded title="Webhooks" area="webhooks" />;
  const webhooks = await listWebhooks(account.id);
  const full = webhooks.length >= MAX_WEBHOOK_ENDPOINTS;

  return (
    <>
      <PageHeader
        title="Webhooks"
        intro={
          <>
            Your endpoints hear what becomes of your emails as it happens: each event is a signed JSON POST (Standard
            Webhooks), retried for about a day and a half until it is answered with a 2xx. See the{" "}
            <a href="/docs#createWebhook">API reference</a>.
          </>
        }
      />

      <div className="stack">
        <CardSection
          headingId="add-title"
          title="Add an endpoint"
          aside={
            full ? (
              <span className="muted small">At most {MAX_WEBHOOK_ENDPOINTS}: delete one to add another</span>
            ) : null
          }
        >
          <div className="card-body">
            <AddWebhookForm endpointIds={webhooks.map((webhook) => webhook.id)} full={full} />
          </div>
        </CardSection>

        <CardSection
          headingId="list-title"
          title="Your endpoints"
          aside={
            <span className="muted small">
              {webhooks.length} of {MAX_WEBHOOK_ENDPOINTS}
            </span>
          }
        >
          {webhooks.length === 0 ? (
            <EmptyState icon={<WebhookIcon size={22} />} title="No endpoints yet">
              <p>Add the URL of your server that should hear about your emails, and choose the events it hears.</p>
            </EmptyState>
          ) : (
            <div className="table-wrap">
              <table className="table">
                <ColumnHeadings columns={COLUMNS} />
                <tbody>
                  {webhooks.map((webhook) => (
                    <tr key={webhook.id} data-testid="webhook-row">
                      <td style={{ minWidth: "min(220px, 45vw)" }}>
                        <Link
                          className="row-link mono"
                          href={`/dashboard/webhooks/${webhook.id}`}
                          style={{ overflowWrap: "anywhere" }}
                        >
                          {webhook.url}
                        </Link>
                        {webhook.description && <div className="muted small">{webhook.description}</div>}
                        <div className="muted small only-sm">
                          {webhook.events.length === 1 ? "1 event" : `${webhook.events.length} events`}
                        </div>
                      </td>
                      <td className="small mono hide-sm" style={{ overflowWrap: "anywhere" }}>
                        {eventsSummary(webhook.events)}
                      </td>
                      <td>
                        <EndpointStatus webhook={webhook} />
                      </td>
                      <td className="nowrap small hide-sm" title={formatDateTime(webhook.created_at)}>
                        {timeAgo(webhook.created_at)}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </CardSection>
      </div>
    </>
  );
}
