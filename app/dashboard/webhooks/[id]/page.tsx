import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requireAccount } from "@/lib/auth/current";
import { canUseAdminArea } from "@/lib/teams/rights";
import { AdminNeeded } from "../../_components/admin-needed";
import { AppError } from "@/lib/core/errors";
import { WEBHOOK_PREVIOUS_SECRET_HOURS } from "@/lib/core/limits";
import { WEBHOOK_DELIVERY_STATUSES, type WebhookDeliveryStatus } from "@/lib/webhooks/schemas";
import { getWebhook, listDeliveries } from "@/lib/webhooks/service";
import { CardSection } from "../../../_components/card-section";
import { formatDateTime, formatWord } from "../../../_components/format";
import { WebhookIcon } from "../../../_components/icons";
import { Pager } from "../../../_components/pager";
import { EmptyState } from "../../_components/data-table";
import { StatusFilter } from "../../emails/status-filter";
import { EndpointStatus } from "../endpoint-status";
import { DeliveryItem } from "./delivery";
import { DeleteWebhook, EditWebhookForm, EnabledForm, ReplayForm, RotateSecret, TestEventForm } from "./endpoint-forms";

export const metadata: Metadata = { title: "Webhook" };

type Filter = WebhookDeliveryStatus | "all";
const FILTERS: Filter[] = ["all", ...WEBHOOK_DELIVERY_STATUSES];
const PAGE_SIZE = 20;

function logHref(id: string, filter: Filter, page = 1): string {
  const query = new URLSearchParams({
    ...(filter === "all" ? {} : { status: filter }),
    ...(page > 1 ? { page: String(page) } : {}),
  }).toString();
  return `/dashboard/webhooks/${encodeURIComponent(id)}${query ? `?${query}` : ""}#deliveries`;
}

/** The endpoint, or the not-found page for an id that is not one of the account's. */
async function findWebhook(accountId: string, id: string) {
  try {
    return await getWebhook(accountId, id);
  } catch (error) {
    if (error instanceof AppError && error.code === "WEBHOOK_NOT_FOUND") notFound();
    throw error;
  }
}

export default async function WebhookPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ status?: string; page?: string }>;
}) {
  const [{ id }, query] = await Promise.all([params, searchParams]);
  const account = await requireAccount(`/dashboard/webhooks/${encodeURIComponent(id)}`);
  if (!canUseAdminArea(account.role)) return <AdminNeeded title="Webhook" area="webhooks" />;
  const webhook = await findWebhook(account.id, id);
  const filter = FILTERS.find((value) => value === query.status) ?? "all";
  const requested = Math.max(1, Number.parseInt(query.page ?? "1", 10) || 1);
  const status = filter === "all" ? undefined : filter;
  let log = await listDeliveries(account.id, id, { limit: PAGE_SIZE, offset: (requested - 1) * PAGE_SIZE, status });
  const pages = Math.max(1, Math.ceil(log.pagination.total / PAGE_SIZE));
  // A page past the last (the log got shorter since the link was made) shows the last.
  const page = Math.min(pages, requested);
  if (page !== requested)
    log = await listDeliveries(account.id, id, { limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE, status });

  return (
    <>
      <div className="breadcrumb">
        <Link href="/dashboard/webhooks">Webhooks</Link> <span aria-hidden="true">/</span>{" "}
        <span style={{ overflowWrap: "anywhere" }}>{webhook.description ?? "Endpoint"}</span>
      </div>
      <div className="page-header">
        <div style={{ minWidth: 0 }}>
          <h1 className="mono" style={{ overflowWrap: "anywhere", fontSize: "1.4rem" }}>
            {webhook.url}
          </h1>
          <div className="row" data-testid="webhook-status">
            <EndpointStatus webhook={webhook} />
            {webhook.description && <span className="muted small">{webhook.description}</span>}
          </div>
        </div>
        <EnabledForm id={webhook.id} enabled={webhook.enabled} />
      </div>

      <div className="stack">
        <div className="two-col">
          <CardSection headingId="test-title" title="Test event">
            <div className="card-body stack">
              <p className="muted small" style={{ margin: 0 }}>
                Sends <code>{'{ "type": "webhook.test", … }'}</code> once, signed as every event is, and shows what your
                endpoint answered. It goes in the delivery log too.
              </p>
              <TestEventForm id={webhook.id} enabled={webhook.enabled} />
            </div>
          </CardSection>
          <CardSection headingId="secret-title" title="Signing secret">
            <div className="card-body stack">
              <p className="muted small" style={{ margin: 0 }}>
                Shown once, when the endpoint was added or its secret rotated. Rotate it if it leaked or you lost it.
                {webhook.previous_secret_expires_at &&
                  ` The previous secret also signs deliveries until ${formatDateTime(webhook.previous_secret_expires_at)}.`}
              </p>
              <RotateSecret id={webhook.id} overlapHours={WEBHOOK_PREVIOUS_SECRET_HOURS} />
            </div>
          </CardSection>
        </div>

        <CardSection
          headingId="deliveries"
          title="Delivery log"
          aside={<span className="muted small">Newest first, kept 30 days</span>}
        >
          <div className="card-body" style={{ paddingBottom: 0 }}>
            <StatusFilter
              action={`/dashboard/webhooks/${encodeURIComponent(webhook.id)}#deliveries`}
              active={filter}
              options={FILTERS.map((value) => ({
                value,
                label: formatWord(value),
                href: logHref(webhook.id, value),
              }))}
            />
          </div>
          {log.deliveries.length === 0 ? (
            <EmptyState
              icon={<WebhookIcon size={22} />}
              title={filter === "all" ? "No deliveries yet" : `No ${filter} deliveries`}
            >
              <p>
                {filter === "all"
                  ? "Each event the endpoint hears is delivered and listed here, with your server's answer."
                  : "Deliveries with this status will appear here."}
              </p>
            </EmptyState>
          ) : (
            <ul style={{ listStyle: "none", margin: 0, padding: 0 }}>
              {log.deliveries.map((delivery) => (
                <DeliveryItem
                  key={delivery.id}
                  delivery={delivery}
                  actions={<ReplayForm id={webhook.id} deliveryId={delivery.id} />}
                />
              ))}
            </ul>
          )}
          <Pager
            offset={log.pagination.offset}
            shown={log.deliveries.length}
            total={log.pagination.total}
            page={page}
            pages={pages}
            href={(target) => logHref(webhook.id, filter, target)}
          />
        </CardSection>
        <div className="two-col">
          <CardSection headingId="edit-title" title="URL and events">
            <div className="card-body">
              <EditWebhookForm webhook={webhook} />
            </div>
          </CardSection>
          <CardSection headingId="delete-title" title="Delete">
            <div className="card-body stack">
              <p className="muted small" style={{ margin: 0 }}>
                Added {formatDateTime(webhook.created_at)}. Deleting it stops its deliveries and removes its log.
              </p>
              <div>
                <DeleteWebhook id={webhook.id} url={webhook.url} />
              </div>
            </div>
          </CardSection>
        </div>
      </div>
    </>
  );
}
