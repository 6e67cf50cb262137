import { createServer, type IncomingHttpHeaders, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { WEBHOOK_MAX_RESPONSE_BYTES, WEBHOOK_RESPONSE_EXCERPT_BYTES } from "@/lib/core/limits";
import { attemptWebhook } from "@/lib/webhooks/outbound";
import { envForSuite } from "../support/env";

// One attempt of a delivery against receivers on this machine (so with WEBHOOKS_ALLOW_PRIVATE_URLS=1, as under
// npm run dev): what it sends, what counts as success, and the bounds on a receiver that misbehaves. The refusals of
// internal addresses, which that flag lifts, are tests/webhooks/addresses.test.ts's.

envForSuite({ WEBHOOKS_ALLOW_PRIVATE_URLS: "1" });

type Receiver = {
  url: string;
  requests: { method: string; path: string; headers: IncomingHttpHeaders; body: string }[];
  /** Connections it accepted, and those closed since. */
  connections: number;
  closed: number;
  /** Each request's connection, as the client's port. */
  ports: number[];
};

const servers: Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});
afterEach(() => {
  for (const server of servers) server.closeAllConnections();
});

/** A receiver on 127.0.0.1 answering with `answer` once each request's body is in. */
async function receiver(answer: RequestListener): Promise<Receiver> {
  const state: Receiver = { url: "", requests: [], connections: 0, closed: 0, ports: [] };
  const server = createServer((request, response) => {
    state.ports.push(request.socket.remotePort ?? 0);
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      state.requests.push({
        method: request.method ?? "",
        path: request.url ?? "",
        headers: request.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      });
      answer(request, response);
    });
  });
  server.on("connection", (socket) => {
    state.connections++;
    socket.on("close", () => state.closed++);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return state;
}

const SIGNED = { "webhook-id": "evt-1", "webhook-timestamp": "1796191207", "webhook-signature": "v1,c2lnbmVk" };
const BODY = JSON.stringify({ type: "webhook.test", created_at: "2026-12-02T06:00:00.000Z", data: {} });

/** Until `condition` holds (a socket's close reaches the server a moment after the client's). */
async function eventually(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 250 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(condition()).toBe(true);
}

describe("attemptWebhook", () => {
  it("POSTs the body as JSON with the signature's headers, once; a 2xx is a success, its body the excerpt", async () => {
    const target = await receiver((_, response) => response.writeHead(200, { "content-type": "text/plain" }).end("ok"));
    expect(await attemptWebhook({ url: target.url, headers: SIGNED, body: BODY })).toEqual({
      status: 200,
      durationMs: expect.any(Number),
      excerpt: "ok",
      succeeded: true,
    });
    expect(target.requests).toEqual([
      {
        method: "POST",
        path: "/hooks",
        headers: expect.objectContaining({
          ...SIGNED,
          "content-type": "application/json",
          "content-length": String(Buffer.byteLength(BODY)),
          "user-agent": "Letterpress-Webhooks/1.0",
          connection: "close",
        }),
        body: BODY,
      },
    ]);
    await eventually(() => target.closed === 1);
  });

  it.each([201, 202, 204, 299])("takes %i as a success", async (status) => {
    const target = await receiver((_, response) => response.writeHead(status).end());
    expect(await attemptWebhook({ url: target.url, headers: SIGNED, body: BODY })).toMatchObject({
      status,
      succeeded: true,
    });
  });

  it.each([400, 404, 410, 429, 500, 503])("fails on %i, keeping what the receiver said", async (status) => {
    const target = await receiver((_, response) => response.writeHead(status).end(`no: ${status}`));
    expect(await attemptWebhook({ url: target.url, headers: SIGNED, body: BODY })).toEqual({
      status,
      durationMs: expect.any(Number),
      excerpt: `no: ${status}`,
      succeeded: false,
    });
  });

  it.each([301, 302, 303, 307, 308])("does not follow a %i redirect: the attempt fails", async (status) => {
    const elsewhere = await receiver((_, response) => response.writeHead(200).end());
    const target = await receiver((_, response) => response.writeHead(status, { location: elsewhere.url }).end());
    expect(await attemptWebhook({ url: target.url, headers: SIGNED, body: BODY })).toEqual({
      status,
      durationMs: expect.any(Number),
      error: "redirect not followed",
      excerpt: "",
      succeeded: false,
    });
    expect(target.requests).toHaveLength(1);
    expect(elsewhere.connections).toBe(0);
  });

  it("gives up on a receiver that never answers at the deadline, and closes the connection", async () => {
    const target = await receiver(() => {});
    const outcome = await attemptWebhook({ url: target.url, headers: SIGNED, body: BODY, timeoutMs: 300 });
    expect(outcome).toEqual({
      status: null,
      durationMs: expect.any(Number),
      error: "no answer within 0.3 s",
      excerpt: "",
      succeeded: false,
    });
    expect(outcome.durationMs).toBeGreaterThanOrEqual(295);
    // Well before the 15 s default, however busy the machine.
    expect(outcome.durationMs).toBeLessThan(5000);
    expect(target.requests).toHaveLength(1);
    await eventually(() => target.closed === 1);
  });

  it("keeps a 2xx status that came before the deadline when its body is still coming at it", async () => {
    const target = await receiver((_, response) => {
      response.writeHead(200);
      response.write("accepted, thinking");
    });
    const outcome = await attemptWebhook({ url: target.url, headers: SIGNED, body: BODY, timeoutMs: 300 });
    expect(outcome).toEqual({
      status: 200,
      durationMs: expect.any(Number),
      excerpt: "accepted, thinking",
      succeeded: true,
    });
    expect(outcome.durationMs).toBeGreaterThanOrEqual(295);
    await eventually(() => target.closed === 1);
  });

  it("reads at most 64 KB of a body that never ends, keeps the first 4 KB, and closes the connection", async () => {
    let written = 0;
    let stopped = false;
    const target = await receiver((_, response) => {
      response.writeHead(200, { "content-type": "text/plain" });
      const chunk = Buffer.alloc(1024, "a");
      const more = () => {
        while (!response.destroyed && response.write(chunk)) written += chunk.length;
        if (response.destroyed) stopped = true;
        else response.once("drain", more);
      };
      response.on("close", () => (stopped = true));
      more();
    });
    const outcome = await attemptWebhook({ url: target.url, headers: SIGNED, body: BODY, timeoutMs: 10_000 });
    expect(outcome).toEqual({
      status: 200,
      durationMs: expect.any(Number),
      excerpt: "a".repeat(WEBHOOK_RESPONSE_EXCERPT_BYTES),
      succeeded: true,
    });
    // Cut off well before the deadline, by the read limit; the receiver is stopped by the closed connection.
    expect(outcome.durationMs).toBeLessThan(5000);
    await eventually(() => stopped && target.closed === 1);
    expect(written).toBeGreaterThanOrEqual(WEBHOOK_MAX_RESPONSE_BYTES);
  });

  it("keeps the excerpt valid text: a character cut at 4 KB left out, NULs replaced", async () => {
    // A NUL, then 2-byte characters: the 4,096th byte is the first of one.
    const target = await receiver((_, response) => response.writeHead(500).end(`\u0000${"é".repeat(3000)}`));
    const { excerpt } = await attemptWebhook({ url: target.url, headers: SIGNED, body: BODY });
    expect(excerpt).toBe(`\uFFFD${"é".repeat(2047)}`);
  });

  it("fails without a status when nothing listens at the address", async () => {
    const target = await receiver(() => {});
    const closedPort = new URL(target.url).port;
    await new Promise((resolve) => servers.pop()!.close(resolve));
    expect(await attemptWebhook({ url: target.url, headers: SIGNED, body: BODY })).toEqual({
      status: null,
      durationMs: expect.any(Number),
      error: `connect ECONNREFUSED 127.0.0.1:${closedPort}`,
      excerpt: "",
      succeeded: false,
    });
  });
});

describe("attemptWebhook on an account's connections", () => {
  const attempt = (url: string, accountId: string, timeoutMs?: number) =>
    attemptWebhook({ url, headers: SIGNED, body: BODY, accountId, timeoutMs });

  it("keeps a connection for the account's next attempt to the same origin, and never lends it to another account", async () => {
    const target = await receiver((_, response) => response.writeHead(200).end("ok"));
    const ok = { status: 200, durationMs: expect.any(Number), excerpt: "ok", succeeded: true };
    expect(await attempt(target.url, "account-a")).toEqual(ok);
    expect(await attempt(target.url, "account-a")).toEqual(ok);
    expect(await attempt(target.url, "account-b")).toEqual(ok);
    expect(await attempt(`${target.url}/other-path`, "account-a")).toEqual(ok);

    expect(target.requests.map((request) => request.headers.connection)).toEqual(Array(4).fill("keep-alive"));
    // account-a's three attempts on its one connection; account-b's on one of its own.
    const [first, second, third, fourth] = target.ports;
    expect([second, fourth]).toEqual([first, first]);
    expect(third).not.toBe(first);
    expect(target.connections).toBe(2);
  });

  it("opens another connection within the attempt when the endpoint closed the kept one: the attempt succeeds", async () => {
    // Each connection's second request is cut off unanswered, as by an endpoint that closed it while it was idle.
    const served = new Map<number, number>();
    const target = await receiver((request, response) => {
      const port = request.socket.remotePort ?? 0;
      served.set(port, (served.get(port) ?? 0) + 1);
      if (served.get(port) === 2) request.socket.destroy();
      else response.writeHead(204).end();
    });
    expect(await attempt(target.url, "account-a")).toMatchObject({ status: 204, succeeded: true });
    expect(await attempt(target.url, "account-a")).toEqual({
      status: 204,
      durationMs: expect.any(Number),
      excerpt: "",
      succeeded: true,
    });
    expect(target.requests).toHaveLength(3);
    expect(target.connections).toBe(2);
  });

  it("fails an attempt cut off on a new connection, without trying again", async () => {
    const target = await receiver((request) => request.socket.destroy());
    expect(await attempt(target.url, "account-a")).toEqual({
      status: null,
      durationMs: expect.any(Number),
      error: "socket hang up",
      excerpt: "",
      succeeded: false,
    });
    expect(target.requests).toHaveLength(1);
  });

  it("closes, rather than keeps, a connection whose answer it stopped reading at the deadline", async () => {
    const target = await receiver((_, response) => {
      response.writeHead(200);
      response.write("accepted, thinking");
    });
    expect(await attempt(target.url, "account-a", 300)).toMatchObject({ status: 200, succeeded: true });
    await eventually(() => target.closed === 1);
    const next = await receiver((_, response) => response.writeHead(200).end());
    expect(await attempt(next.url, "account-a")).toMatchObject({ status: 200, succeeded: true });
    expect(next.connections).toBe(1);
  });
});
