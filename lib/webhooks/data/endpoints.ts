import "server-only";
import { insertAuditEntry, type AuditAction } from "@/lib/audit/service";
import { getDb, type Tx } from "@/lib/db/client";
import type { WebhookDeliveryStatus, WebhookEventType } from "@/lib/webhooks/schemas";

// An account's webhook endpoints, and what the API shows of their deliveries. Events and deliveries are made, replayed
// and attempted by lib/webhooks/data/events.ts and deliveries.ts (the runner's SQL); here they are only read.

export type WebhookEndpoint = {
  id: string;
  account_id: string;
  url: string;
  /** Checked by the API: only the contract's types. */
  events: WebhookEventType[];
  description: string | null;
  enabled: boolean;
  disabled_reason: string | null;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  failing_since: Date | null;
  created_at: Date;
  updated_at: Date;
};

export type NewWebhookEndpoint = {
  url: string;
  events: WebhookEventType[];
  description: string | null;
  secret: string;
};

/** A delivery as the log shows it: its event's type and its last attempt (null before the first). */
export type WebhookDeliveryRow = {
  id: string;
  event_id: string;
  event_type: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  next_attempt_at: Date | null;
  created_at: Date;
  last_attempt_at: Date | null;
  last_response_status: number | null;
  last_duration_ms: number | null;
  last_error: string | null;
  last_response_excerpt: string | null;
};

/** The new endpoint, or undefined when the account has `limit` already (counted under a lock, in SQL). */
export async function createWebhookEndpoint(
  accountId: string,
  endpoint: NewWebhookEndpoint,
  limit: number,
): Promise<WebhookEndpoint | undefined> {
  return getDb().begin(async (tx) => {
    const [row] = await tx<WebhookEndpoint[]>`
      select * from create_webhook_endpoint(${accountId}, ${endpoint.url}, ${endpoint.events}::text[],
        ${endpoint.description}, ${endpoint.secret}, ${limit})`;
    if (row) await auditEndpoint(tx, "webhook.created", row, { events: row.events });
    return row;
  });
}

/** An endpoint's entry, named by its URL; never its secrets. */
function auditEndpoint(
  tx: Tx,
  action: AuditAction,
  endpoint: { id: string; account_id: string; url: string },
  details?: Record<string, string | string[] | boolean | null>,
) {
  return insertAuditEntry(tx, {
    accountId: endpoint.account_id,
    action,
    target: { type: "webhook_endpoint", id: endpoint.id, label: endpoint.url },
    details,
  });
}

/** The account's endpoints, oldest first. */
export async function listWebhookEndpoints(accountId: string): Promise<WebhookEndpoint[]> {
  return getDb()<WebhookEndpoint[]>`
    select * from webhook_endpoints where account_id = ${accountId} order by created_at, id`;
}

export async function findWebhookEndpoint(accountId: string, id: string): Promise<WebhookEndpoint | undefined> {
  const [row] = await getDb()<WebhookEndpoint[]>`
    select * from webhook_endpoints where id = ${id} and account_id = ${accountId}`;
  return row;
}

export type WebhookEndpointChanges = {
  url?: string;
  events?: WebhookEventType[];
  /** null clears it; undefined leaves it. */
  description?: string | null;
  enabled?: boolean;
};

/**
 * Changes what is given. Enabling an endpoint clears why it was disabled and when its failures began, so the 5-day
 * rule counts afresh. Undefined when the account has no such endpoint.
 */
export async function updateWebhookEndpoint(
  accountId: string,
  id: string,
  changes: WebhookEndpointChanges,
): Promise<WebhookEndpoint | undefined> {
  const enabled = changes.enabled ?? null;
  return getDb().begin(async (tx) => {
    const [row] = await tx<WebhookEndpoint[]>`
    update webhook_endpoints set
      url = coalesce(${changes.url ?? null}, url),
      events = coalesce(${changes.events ?? null}::text[], events),
      description = case when ${changes.description !== undefined}::boolean then ${changes.description ?? null}
                         else description end,
      enabled = coalesce(${enabled}::boolean, enabled),
      disabled_reason = case when ${enabled}::boolean then null else disabled_reason end,
      failing_since = case when ${enabled}::boolean then null else failing_since end,
      updated_at = now()
    where id = ${id} and account_id = ${accountId}
    returning *`;
    // The fields the caller changed, by name: what an admin reading the log needs to tell updates apart.
    const changed = Object.entries(changes).filter(([, value]) => value !== undefined);
    if (row) await auditEndpoint(tx, "webhook.updated", row, { changed: changed.map(([name]) => name).sort() });
    return row;
  });
}

/** Whether the account had the endpoint; its deliveries and their attempts go with it. */
export async function deleteWebhookEndpoint(accountId: string, id: string): Promise<boolean> {
  return getDb().begin(async (tx) => {
    const [row] = await tx<{ id: string; account_id: string; url: string }[]>`
      delete from webhook_endpoints where id = ${id} and account_id = ${accountId} returning id, account_id, url`;
    if (row) await auditEndpoint(tx, "webhook.deleted", row);
    return row !== undefined;
  });
}

/**
 * The endpoint with `secret` as its secret, the one it replaces kept as the previous secret for `previousHours`
 * (deliveries are signed with both until then). Undefined when the account has no such endpoint.
 */
export async function rotateWebhookEndpointSecret(
  accountId: string,
  id: string,
  secret: string,
  previousHours: number,
): Promise<WebhookEndpoint | undefined> {
  return getDb().begin(async (tx) => {
    const [row] = await tx<WebhookEndpoint[]>`
      update webhook_endpoints set
        previous_secret = secret,
        previous_secret_expires_at = now() + make_interval(hours => ${previousHours}),
        secret = ${secret},
        updated_at = now()
      where id = ${id} and account_id = ${accountId}
      returning *`;
    if (row) await auditEndpoint(tx, "webhook.secret_rotated", row);
    return row;
  });
}

/**
 * One page of an endpoint's deliveries, newest first, with how many there are (of `status`, when given); undefined
 * when the account has no such endpoint.
 */
export async function listWebhookDeliveries(
  accountId: string,
  endpointId: string,
  { limit, offset, status }: { limit: number; offset: number; status?: WebhookDeliveryStatus },
): Promise<{ deliveries: WebhookDeliveryRow[]; total: number } | undefined> {
  const wanted = status ?? null;
  const rows = await getDb()<(WebhookDeliveryRow & { total: number })[]>`
    select t.total, d.*
    from webhook_endpoints e
    cross join lateral (
      select count(*)::int as total from webhook_deliveries c
      where c.endpoint_id = e.id and (${wanted}::text is null or c.status = ${wanted}::text)
    ) t
    left join lateral (
      select d.id, d.event_id, v.type as event_type, d.status, d.attempts, d.next_attempt_at, d.created_at,
             a.started_at as last_attempt_at, a.response_status as last_response_status,
             a.duration_ms as last_duration_ms, a.error as last_error, a.response_excerpt as last_response_excerpt
      from webhook_deliveries d
      join webhook_events v on v.id = d.event_id
      left join lateral (
        select * from webhook_attempts a where a.delivery_id = d.id order by a.attempt desc limit 1
      ) a on true
      where d.endpoint_id = e.id and (${wanted}::text is null or d.status = ${wanted}::text)
      order by d.created_at desc, d.id desc
      limit ${limit} offset ${offset}
    ) d on true
    where e.id = ${endpointId} and e.account_id = ${accountId}`;
  if (rows.length === 0) return undefined;
  return {
    total: rows[0].total,
    deliveries: rows.filter((row) => row.id !== null).map(({ total: _total, ...delivery }) => delivery),
  };
}

/** One of the endpoint's deliveries as the log shows it. */
export async function findWebhookDelivery(
  accountId: string,
  endpointId: string,
  deliveryId: string,
): Promise<WebhookDeliveryRow | undefined> {
  const [row] = await getDb()<WebhookDeliveryRow[]>`
    select d.id, d.event_id, v.type as event_type, d.status, d.attempts, d.next_attempt_at, d.created_at,
           a.started_at as last_attempt_at, a.response_status as last_response_status,
           a.duration_ms as last_duration_ms, a.error as last_error, a.response_excerpt as last_response_excerpt
    from webhook_deliveries d
    join webhook_events v on v.id = d.event_id
    left join lateral (
      select * from webhook_attempts a where a.delivery_id = d.id order by a.attempt desc limit 1
    ) a on true
    where d.id = ${deliveryId} and d.endpoint_id = ${endpointId} and d.account_id = ${accountId}`;
  return row;
}
