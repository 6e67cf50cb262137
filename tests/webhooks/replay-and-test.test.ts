import { randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as replay } from "@/app/api/v1/webhooks/[id]/deliveries/[delivery_id]/replay/route";
import { GET as listDeliveries } from "@/app/api/v1/webhooks/[id]/deliveries/route";
import { POST as sendTest } from "@/app/api/v1/webhooks/[id]/test/route";
import { POST as postWebhook } from "@/app/api/v1/webhooks/route";
import { WEBHOOK_ATTEMPTS_PER_ACCOUNT, WEBHOOK_TIMEOUT_MS } from "@/lib/core/limits";
import { getDb } from "@/lib/db/client";
import { ISO, auth, call, counter, createUser, type TestUser } from "../support/api";
import { envForSuite } from "../support/env";

// POST /webhooks/{id}/test and POST /webhooks/{id}/deliveries/{delivery_id}/replay against a receiver on this
// machine (WEBHOOKS_ALLOW_PRIVATE_URLS=1 lets a webhook point at it), through the runner of lib/webhooks/delivery.ts.

envForSuite({ WEBHOOKS_ALLOW_PRIVATE_URLS: "1" });

type Received = { path: string; headers: IncomingHttpHeaders; body: string };
const received: Received[] = [];
// /hang/… answers when the test says so.
const hanging: ServerResponse[] = [];
let server: Server;
let base: string;

beforeAll(async () => {
  // /ok/… answers 200 "ok", /fail/… 500 "nope".
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ path: request.url ?? "", headers: request.headers, body: Buffer.concat(chunks).toString() });
      if (request.url?.startsWith("/hang/")) return void hanging.push(response);
      const ok = request.url?.startsWith("/ok/");
      response.writeHead(ok ? 200 : 500, { "content-type": "text/plain" }).end(ok ? "ok" : "nope");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const UUID = expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
const WEBHOOK_NOT_FOUND = { error: "Webhook not found", code: "WEBHOOK_NOT_FOUND", success: false };
const DELIVERY_NOT_FOUND = { error: "Webhook delivery not found", code: "WEBHOOK_DELIVERY_NOT_FOUND", success: false };

/** A webhook of the user's at `path` of the receiver: its id and secret. */
async function webhook(user: TestUser, path: string): Promise<{ id: string; secret: string }> {
  const result = await call(postWebhook, "/api/v1/webhooks", {
    method: "POST",
    headers: auth(user),
    body: { url: `${base}${path}`, events: ["email.delivered"] },
  });
  expect(result.status).toBe(201);
  return result.body.webhook;
}

const test = (user: TestUser, id: string) =>
  call(sendTest, `/api/v1/webhooks/${id}/test`, { method: "POST", params: { id }, headers: auth(user) });
const replayOf = (user: TestUser, id: string, deliveryId: string) =>
  call(replay, `/api/v1/webhooks/${id}/deliveries/${deliveryId}/replay`, {
    method: "POST",
    params: { id, delivery_id: deliveryId },
    headers: auth(user),
  });

const requestsTo = (path: string) => received.filter((request) => request.path === path);

describe("POST /webhooks/{id}/test", () => {
  it("sends one signed webhook.test event now and answers its outcome: succeeded, with the answer's status and body", async () => {
    const user = await createUser("free");
    const path = `/ok/${randomUUID()}`;
    const { id, secret } = await webhook(user, path);
    const result = await test(user, id);
    expect([result.status, result.body]).toEqual([
      200,
      {
        success: true,
        delivery: {
          id: UUID,
          event_id: UUID,
          event_type: "webhook.test",
          status: "succeeded",
          attempts: 1,
          next_attempt_at: null,
          last_attempt: { at: ISO, response_status: 200, duration_ms: expect.any(Number), response_excerpt: "ok" },
          created_at: ISO,
        },
      },
    ]);
    expect(result.headers.get("x-ratelimit-remaining")).toBe("498");
    expect(await counter(user, "api_calls")).toBe(2);

    const [request] = requestsTo(path);
    expect(requestsTo(path)).toHaveLength(1);
    expect(request.headers["webhook-id"]).toBe(result.body.delivery.event_id);
    expect(request.headers["content-type"]).toBe("application/json");
    // Verified as a receiver would, with the secret POST /webhooks showed.
    expect(new Webhook(secret).verify(request.body, request.headers as Record<string, string>)).toEqual({
      type: "webhook.test",
      created_at: ISO,
      data: { webhook_id: id },
    });

    // It is in the delivery log, as answered.
    const log = await call(listDeliveries, `/api/v1/webhooks/${id}/deliveries`, {
      params: { id },
      headers: auth(user),
    });
    expect(log.body.deliveries).toEqual([result.body.delivery]);
  });

  it("answers a failed attempt with the endpoint's status and first bytes, and does not retry a test", async () => {
    const user = await createUser();
    const path = `/fail/${randomUUID()}`;
    const { id } = await webhook(user, path);
    const result = await test(user, id);
    expect([result.status, result.body.delivery]).toEqual([
      200,
      {
        id: UUID,
        event_id: UUID,
        event_type: "webhook.test",
        status: "failed",
        attempts: 1,
        next_attempt_at: null,
        last_attempt: { at: ISO, response_status: 500, duration_ms: expect.any(Number), response_excerpt: "nope" },
        created_at: ISO,
      },
    ]);
    expect(requestsTo(path)).toHaveLength(1);
  });

  it("a disabled webhook is sent its test event all the same, and stays disabled", async () => {
    const user = await createUser();
    const path = `/ok/${randomUUID()}`;
    const { id } = await webhook(user, path);
    await getDb()`update webhook_endpoints set enabled = false where id = ${id}`;
    const result = await test(user, id);
    expect([result.status, result.body.delivery]).toEqual([
      200,
      {
        id: UUID,
        event_id: UUID,
        event_type: "webhook.test",
        status: "succeeded",
        attempts: 1,
        next_attempt_at: null,
        last_attempt: { at: ISO, response_status: 200, duration_ms: expect.any(Number), response_excerpt: "ok" },
        created_at: ISO,
      },
    ]);
    expect(requestsTo(path)).toHaveLength(1);
    const [endpoint] = await getDb()<{ enabled: boolean }[]>`select enabled from webhook_endpoints where id = ${id}`;
    expect(endpoint).toEqual({ enabled: false });
  });

  it("has at most 4 of an account's test events in flight: a fifth at once is 429 TOO_MANY_ATTEMPTS, and nothing is sent for it", async () => {
    const user = await createUser("free");
    const path = `/hang/${randomUUID()}`;
    const { id } = await webhook(user, path);
    const tests = Array.from({ length: WEBHOOK_ATTEMPTS_PER_ACCOUNT }, () => test(user, id));
    await expect.poll(() => requestsTo(path).length).toBe(WEBHOOK_ATTEMPTS_PER_ACCOUNT);

    const refused = await test(user, id);
    expect([refused.status, refused.body]).toEqual([
      429,
      {
        error: "Too many attempts",
        code: "TOO_MANY_ATTEMPTS",
        success: false,
        message: `${WEBHOOK_ATTEMPTS_PER_ACCOUNT} of your test events are in flight: try again once they are answered`,
      },
    ]);
    expect(refused.headers.get("retry-after")).toBe(String(WEBHOOK_TIMEOUT_MS / 1000));
    // The refused one is no delivery the runner would make later.
    const [{ count }] = await getDb()<{ count: number }[]>`
      select count(*)::int as count from webhook_deliveries where endpoint_id = ${id}`;
    expect(count).toBe(WEBHOOK_ATTEMPTS_PER_ACCOUNT);

    for (const response of hanging.splice(0)) response.writeHead(200).end("late");
    const answered = await Promise.all(tests);
    expect(answered.map((result) => [result.status, result.body.delivery.status])).toEqual(
      tests.map(() => [200, "succeeded"]),
    );
    expect((await test(user, id)).status).toBe(200);
    expect(requestsTo(path)).toHaveLength(WEBHOOK_ATTEMPTS_PER_ACCOUNT + 1);
  });

  it("another account's webhook, an unknown one and one that is no uuid: 404 WEBHOOK_NOT_FOUND, nothing sent", async () => {
    const owner = await createUser();
    const path = `/ok/${randomUUID()}`;
    const { id } = await webhook(owner, path);
    const other = await createUser();
    for (const [who, target] of [
      [other, id],
      [owner, randomUUID()],
      [owner, "nope"],
    ] as const) {
      const result = await test(who, target);
      expect([result.status, result.body]).toEqual([404, WEBHOOK_NOT_FOUND]);
    }
    expect(requestsTo(path)).toEqual([]);
  });
});

/** An event of the account whose delivery to the webhook failed for good, as the runner leaves one. */
async function failedDelivery(user: TestUser, endpointId: string): Promise<{ id: string; eventId: string }> {
  const payload = { type: "email.delivered", created_at: "2026-12-01T10:00:00.000Z", data: { email_id: randomUUID() } };
  const [row] = await getDb()<{ id: string; eventId: string }[]>`
    with event as (
      insert into webhook_events (account_id, type, payload) values (${user.accountId}, 'email.delivered', ${getDb().json(payload)})
      returning id
    )
    insert into webhook_deliveries (account_id, endpoint_id, event_id, status, attempts, finished_at)
    select ${user.accountId}, ${endpointId}, event.id, 'failed', 8, now() from event
    returning id, event_id as "eventId"`;
  return row;
}

/** Waits (at most 10 s) until the delivery's attempt is recorded: the runner makes it after the answer. */
async function attempted(deliveryId: string): Promise<{ status: string; attempts: number }> {
  for (let tries = 0; tries < 200; tries++) {
    const [row] = await getDb()<{ status: string; attempts: number }[]>`
      select status, attempts from webhook_deliveries where id = ${deliveryId}`;
    if (row.attempts > 0) return row;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`delivery ${deliveryId} was not attempted`);
}

describe("POST /webhooks/{id}/deliveries/{delivery_id}/replay", () => {
  it("answers 202 with a new delivery of the same event, due now, which is then delivered with the same webhook-id", async () => {
    const user = await createUser("free");
    const path = `/ok/${randomUUID()}`;
    const { id, secret } = await webhook(user, path);
    const original = await failedDelivery(user, id);

    const result = await replayOf(user, id, original.id);
    expect([result.status, result.body]).toEqual([
      202,
      {
        success: true,
        delivery: {
          id: UUID,
          event_id: original.eventId,
          event_type: "email.delivered",
          status: "pending",
          attempts: 0,
          next_attempt_at: ISO,
          last_attempt: null,
          created_at: ISO,
        },
      },
    ]);
    const replayed = result.body.delivery.id as string;
    expect(replayed).not.toBe(original.id);
    expect(result.headers.get("x-ratelimit-remaining")).toBe("498");

    expect(await attempted(replayed)).toEqual({ status: "succeeded", attempts: 1 });
    const [request] = requestsTo(path);
    expect(request.headers["webhook-id"]).toBe(original.eventId);
    expect(new Webhook(secret).verify(request.body, request.headers as Record<string, string>)).toMatchObject({
      type: "email.delivered",
      data: { email_id: expect.any(String) },
    });
    // The original stays as it was.
    const [before] = await getDb()<{ status: string; attempts: number }[]>`
      select status, attempts from webhook_deliveries where id = ${original.id}`;
    expect(before).toEqual({ status: "failed", attempts: 8 });
  });

  it("a delivery that is not this webhook's is 404 WEBHOOK_DELIVERY_NOT_FOUND; a webhook not the caller's, 404 WEBHOOK_NOT_FOUND", async () => {
    const owner = await createUser();
    const first = await webhook(owner, `/ok/${randomUUID()}`);
    const second = await webhook(owner, `/ok/${randomUUID()}`);
    const delivery = await failedDelivery(owner, first.id);
    const other = await createUser();
    const cases: [TestUser, string, string, object][] = [
      [owner, second.id, delivery.id, DELIVERY_NOT_FOUND],
      [owner, first.id, randomUUID(), DELIVERY_NOT_FOUND],
      [owner, first.id, "nope", DELIVERY_NOT_FOUND],
      [other, first.id, delivery.id, WEBHOOK_NOT_FOUND],
      [owner, randomUUID(), delivery.id, WEBHOOK_NOT_FOUND],
      [owner, "nope", "nope", WEBHOOK_NOT_FOUND],
    ];
    for (const [who, webhookId, deliveryId, body] of cases) {
      const result = await replayOf(who, webhookId, deliveryId);
      expect([result.status, result.body]).toEqual([404, body]);
    }
    const [{ count }] = await getDb()<{ count: number }[]>`
      select count(*)::int as count from webhook_deliveries where event_id = ${delivery.eventId}`;
    expect(count).toBe(1);
  });
});
