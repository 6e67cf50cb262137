import http from "node:http";
import type { AddressInfo } from "node:net";
import { WEBHOOK_EVENT_TYPES } from "@/lib/webhooks/schemas";
import type { Fixture } from "./fixture";
import type { HostileRequest } from "./hostile";

// Issue 47's webhooks scenarios: a receiver that answers every delivery at once and one that never answers, both in
// the bench's process, and the endpoints the bench's accounts subscribe to them through the API. The server runs with
// WEBHOOKS_ALLOW_PRIVATE_URLS=1 (server.ts), so that http://127.0.0.1 is an endpoint it may deliver to.

/** Every email event: a send makes its events, and each endpoint hears each of them. */
const EMAIL_EVENTS = WEBHOOK_EVENT_TYPES.filter((type) => type.startsWith("email."));

/** The endpoints the webhooks scenarios' sender subscribes: a send must cost at most 5% more with three. */
export const SUBSCRIBED_ENDPOINTS = 3;

export type Receivers = {
  /** Answers 204 at once and notes when each delivery arrived. */
  fastUrl: string;
  /** Reads the request and never answers: each attempt runs to the server's 15 s deadline. */
  hangingUrl: string;
  /** When each delivery reached the fast receiver (performance.now() of this process). */
  arrivals: number[];
  stop: () => Promise<void>;
};

export async function startReceivers(): Promise<Receivers> {
  const arrivals: number[] = [];
  const fast = http.createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      arrivals.push(performance.now());
      response.writeHead(204).end();
    });
  });
  const hanging = http.createServer((request) => request.resume());
  const listen = async (server: http.Server) => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  };
  const close = (server: http.Server) =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return {
    fastUrl: await listen(fast),
    hangingUrl: await listen(hanging),
    arrivals,
    stop: async () => {
      await Promise.all([close(fast), close(hanging)]);
    },
  };
}

/**
 * Subscribes the sender's account to the fast receiver three times and the attacker's to the hanging one, through
 * POST /api/v1/webhooks as a customer would.
 */
export async function subscribeEndpoints(base: string, fixture: Fixture, receivers: Receivers): Promise<void> {
  const create = async (key: string, url: string) => {
    const response = await fetch(`${base}/api/v1/webhooks`, {
      method: "POST",
      headers: { "x-api-key": key, "content-type": "application/json" },
      body: JSON.stringify({ url, events: EMAIL_EVENTS, description: "bench" }),
    });
    if (response.status !== 201)
      throw new Error(`POST /api/v1/webhooks answered ${response.status}: ${await response.text()}`);
  };
  for (let i = 0; i < SUBSCRIBED_ENDPOINTS; i++) await create(fixture.subscriber.key, receivers.fastUrl);
  await create(fixture.attacker.key, receivers.hangingUrl);
}

/** The attacker's sends: each makes events for its endpoint that never answers. */
export function hangingEndpointRequests(f: Fixture): HostileRequest[] {
  return [
    {
      name: "send to a hanging endpoint",
      path: "/api/v1/send",
      headers: { "x-api-key": f.attacker.key, "content-type": "application/json" },
      body: JSON.stringify({
        template_id: f.welcomeId,
        from: f.attacker.sendFrom,
        to: "reader@example.com",
        subject: "Welcome to Letterpress",
        variables: { userName: "Ada" },
      }),
    },
  ];
}

/**
 * Deliveries per second the fast receiver took during `windows` (start and end, performance.now()), and how long after
 * the last window the deliveries still owed kept arriving: waits until none arrives for 2 s, 60 s at most.
 */
export async function deliveryRate(
  receivers: Receivers,
  windows: { startedAt: number; endedAt: number }[],
): Promise<{ perSecond: number; drainedMs: number }> {
  const lastEnd = Math.max(...windows.map((w) => w.endedAt));
  const giveUp = lastEnd + 60_000;
  let seen = receivers.arrivals.length;
  let quietSince = performance.now();
  while (performance.now() - quietSince < 2000 && performance.now() < giveUp) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    if (receivers.arrivals.length !== seen) {
      seen = receivers.arrivals.length;
      quietSince = performance.now();
    }
  }
  const inWindows = receivers.arrivals.filter((t) => windows.some((w) => t >= w.startedAt && t <= w.endedAt)).length;
  const seconds = windows.reduce((total, w) => total + (w.endedAt - w.startedAt) / 1000, 0);
  const last = receivers.arrivals.at(-1) ?? lastEnd;
  return { perSecond: inWindows / seconds, drainedMs: Math.max(0, last - lastEnd) };
}
