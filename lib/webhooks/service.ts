import "server-only";
import { AppError, errors } from "@/lib/core/errors";
import {
  MAX_WEBHOOK_ENDPOINTS,
  WEBHOOK_ATTEMPTS_PER_ACCOUNT,
  WEBHOOK_LEASE_SECONDS,
  WEBHOOK_PREVIOUS_SECRET_HOURS,
  WEBHOOK_TIMEOUT_MS,
} from "@/lib/core/limits";
import { isUuid } from "@/lib/core/schemas";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  findWebhookDelivery,
  findWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  rotateWebhookEndpointSecret,
  updateWebhookEndpoint,
  type WebhookDeliveryRow,
  type WebhookEndpoint,
} from "@/lib/webhooks/data/endpoints";
import type {
  CreateWebhookBody,
  UpdateWebhookBody,
  WebhookDeliveryStatus,
  WebhookEventType,
} from "@/lib/webhooks/schemas";
import { replayDelivery as replayStoredDelivery } from "@/lib/webhooks/data/deliveries";
import { createTestEvent } from "@/lib/webhooks/data/events";
import { deliverWebhookNow, deliverWebhookSoon } from "@/lib/webhooks/delivery";
import { webhookUrlProblem } from "@/lib/webhooks/outbound";
import { newWebhookSecret } from "@/lib/webhooks/signing";

// The account's webhook endpoints, one verb per function (the API's routes and the dashboard's page call these). Every
// function takes the caller's account: an id of another account's endpoint is not found, as an unknown one is.

/** An endpoint as GET /webhooks/{id} shows it: never its secret. */
export type Webhook = ReturnType<typeof toWebhookResponse>;
/** An endpoint as POST /webhooks and rotate-secret show it: with its (new) secret. */
export type WebhookWithSecret = Webhook & { secret: string };
export type WebhookDelivery = ReturnType<typeof toDeliveryResponse>;

/** POST /webhooks: a new endpoint of the account, its secret shown this once. */
export async function createWebhook(accountId: string, body: CreateWebhookBody): Promise<WebhookWithSecret> {
  await checkUrl(body.url);
  const created = await createWebhookEndpoint(
    accountId,
    { url: body.url, events: distinct(body.events), description: body.description ?? null, secret: newWebhookSecret() },
    MAX_WEBHOOK_ENDPOINTS,
  );
  if (!created) throw errors.webhookLimitReached(MAX_WEBHOOK_ENDPOINTS);
  return withSecret(created);
}

/** GET /webhooks: the account's endpoints, oldest first. */
export async function listWebhooks(accountId: string): Promise<Webhook[]> {
  return (await listWebhookEndpoints(accountId)).map(toWebhookResponse);
}

/** GET /webhooks/{id}. */
export async function getWebhook(accountId: string, id: string): Promise<Webhook> {
  return toWebhookResponse(orNotFound(isUuid(id) ? await findWebhookEndpoint(accountId, id) : undefined));
}

/** PATCH /webhooks/{id}: changes what the body gives; `enabled: true` also clears why Letterpress disabled it. */
export async function updateWebhook(accountId: string, id: string, body: UpdateWebhookBody): Promise<Webhook> {
  if (!isUuid(id)) throw errors.webhookNotFound();
  if (body.url !== undefined) await checkUrl(body.url);
  const updated = await updateWebhookEndpoint(accountId, id, {
    ...body,
    events: body.events && distinct(body.events),
  });
  return toWebhookResponse(orNotFound(updated));
}

/** DELETE /webhooks/{id}: the endpoint and its delivery log. */
export async function deleteWebhook(accountId: string, id: string): Promise<void> {
  if (!isUuid(id) || !(await deleteWebhookEndpoint(accountId, id))) throw errors.webhookNotFound();
}

/**
 * POST /webhooks/{id}/rotate-secret: a new secret, shown this once; deliveries are signed with the old one as well for
 * WEBHOOK_PREVIOUS_SECRET_HOURS, so the receiver can switch without refusing any.
 */
export async function rotateWebhookSecret(accountId: string, id: string): Promise<WebhookWithSecret> {
  if (!isUuid(id)) throw errors.webhookNotFound();
  const rotated = await rotateWebhookEndpointSecret(accountId, id, newWebhookSecret(), WEBHOOK_PREVIOUS_SECRET_HOURS);
  return withSecret(orNotFound(rotated));
}

/** GET /webhooks/{id}/deliveries: a page of the endpoint's deliveries, newest first. */
export async function listDeliveries(
  accountId: string,
  id: string,
  { limit, offset, status }: { limit: number; offset: number; status?: WebhookDeliveryStatus },
) {
  const page = isUuid(id) ? await listWebhookDeliveries(accountId, id, { limit, offset, status }) : undefined;
  if (!page) throw errors.webhookNotFound();
  return { deliveries: page.deliveries.map(toDeliveryResponse), pagination: { limit, offset, total: page.total } };
}

/**
 * POST /webhooks/{id}/deliveries/{delivery_id}/replay: a new delivery of the same event (the same `webhook-id`), due
 * at once and attempted once the response is sent; answered as it stands before its attempt.
 */
export async function replayDelivery(accountId: string, id: string, deliveryId: string): Promise<WebhookDelivery> {
  if (!isUuid(id)) throw errors.webhookNotFound();
  const replayed = isUuid(deliveryId) ? await replayStoredDelivery(accountId, id, deliveryId, new Date()) : undefined;
  if (!replayed) {
    // Which of the two the path names wrongly.
    orNotFound(await findWebhookEndpoint(accountId, id));
    throw errors.webhookDeliveryNotFound();
  }
  const delivery = orNotFound(await findWebhookDelivery(accountId, id, replayed.id));
  deliverWebhookSoon(accountId);
  return toDeliveryResponse(delivery);
}

/**
 * POST /webhooks/{id}/test: a `webhook.test` event for this endpoint alone, attempted once, now; answered with the
 * attempt's outcome. A disabled endpoint is sent it too: its owner may check it before enabling it again. At most
 * WEBHOOK_ATTEMPTS_PER_ACCOUNT of the account's are in flight at once: past them, 429 TOO_MANY_ATTEMPTS.
 */
export async function sendTestEvent(accountId: string, id: string): Promise<WebhookDelivery> {
  const made = isUuid(id)
    ? await createTestEvent(accountId, id, {
        perAccount: WEBHOOK_ATTEMPTS_PER_ACCOUNT,
        leaseSeconds: WEBHOOK_LEASE_SECONDS,
      })
    : undefined;
  if (!made) throw errors.webhookNotFound();
  // Each call holds a connection to the endpoint for up to 15 s: unbounded, they would have our server hammer it.
  if (made === "busy") {
    throw new AppError("TOO_MANY_ATTEMPTS", {
      message: `${WEBHOOK_ATTEMPTS_PER_ACCOUNT} of your test events are in flight: try again once they are answered`,
      retryAfterSeconds: WEBHOOK_TIMEOUT_MS / 1000,
    });
  }
  await deliverWebhookNow(accountId, made.deliveryId);
  return toDeliveryResponse(orNotFound(await findWebhookDelivery(accountId, id, made.deliveryId)));
}

async function checkUrl(url: string): Promise<void> {
  const problem = await webhookUrlProblem(url);
  if (problem !== null) throw errors.validation([{ field: "url", message: problem }]);
}

function orNotFound<T>(row: T | undefined): T {
  if (row === undefined) throw errors.webhookNotFound();
  return row;
}

const distinct = (events: WebhookEventType[]) => [...new Set(events)];

function withSecret(endpoint: WebhookEndpoint): WebhookWithSecret {
  return { ...toWebhookResponse(endpoint), secret: endpoint.secret };
}

function toWebhookResponse(endpoint: WebhookEndpoint) {
  const previousUntil = endpoint.previous_secret_expires_at;
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: endpoint.events,
    description: endpoint.description,
    enabled: endpoint.enabled,
    disabled_reason: endpoint.disabled_reason,
    previous_secret_expires_at:
      previousUntil && previousUntil.getTime() > Date.now() ? previousUntil.toISOString() : null,
    created_at: endpoint.created_at.toISOString(),
    updated_at: endpoint.updated_at.toISOString(),
  };
}

function toDeliveryResponse(delivery: WebhookDeliveryRow) {
  return {
    id: delivery.id,
    event_id: delivery.event_id,
    event_type: delivery.event_type,
    status: delivery.status,
    attempts: delivery.attempts,
    next_attempt_at: delivery.next_attempt_at?.toISOString() ?? null,
    last_attempt: delivery.last_attempt_at
      ? {
          at: delivery.last_attempt_at.toISOString(),
          response_status: delivery.last_response_status,
          duration_ms: delivery.last_duration_ms,
          ...(delivery.last_error !== null && { error: delivery.last_error }),
          response_excerpt: delivery.last_response_excerpt,
        }
      : null,
    created_at: delivery.created_at.toISOString(),
  };
}
