import { randomBytes } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { afterAll, beforeAll, beforeEach } from "vitest";
import { envForEachTest } from "./env";
import StandInStripe, { standInAddress } from "./stripe-sdk";

// A local stand-in for Stripe's API (node:http on 127.0.0.1) that the real `stripe` SDK talks to through its
// host/port/protocol settings (set by ./stripe-sdk.ts, which the test file puts in place of the package). It records every request exactly as sent, answers like Stripe for
// the endpoints Letterpress uses, replays responses per Idempotency-Key like Stripe does, and counts meter events once
// per identifier. Tests can make it fail.

export type RecordedRequest = {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
  /** The form-encoded body, flat: `line_items[0][price]` -> value. */
  form: Record<string, string>;
};

export type Reply = { status: number; body: unknown; headers?: Record<string, string> };
/** Return a Reply to answer instead of the default, "record-then-fail" to apply the request but answer 500. */
export type Override = (request: RecordedRequest) => Reply | "record-then-fail" | undefined;

export const STRIPE_TEST_ENV = {
  STRIPE_SECRET_KEY: "sk_test_letterpress0123456789",
  STRIPE_WEBHOOK_SECRET: "whsec_letterpress0123456789",
  STRIPE_PRICE_MONTHLY: "price_monthly_test",
  STRIPE_PRICE_ANNUAL: "price_annual_test",
  STRIPE_PRICE_OVERAGE: "price_overage_test",
  STRIPE_METER_EVENT_NAME: "letterpress_overage_emails",
};
/** Every variable of STRIPE_TEST_ENV unset: Stripe not configured. */
export const WITHOUT_STRIPE = Object.fromEntries(Object.keys(STRIPE_TEST_ENV).map((name) => [name, undefined]));

export class StripeStandIn {
  requests: RecordedRequest[] = [];
  /** Meter events Stripe would count: one per identifier. */
  meterEvents = new Map<string, Record<string, string>>();
  override: Override | undefined;
  private server: Server | undefined;
  private idempotent = new Map<string, { form: string; reply: Reply }>();
  private counter = 0;
  /** Object ids are unique across tests and files sharing the database, like Stripe's: see id(). */
  private prefix = randomBytes(4).toString("hex");
  port = 0;

  /** The id of the n-th object the stand-in created since the last reset, e.g. id("cs", 2). */
  id(kind: string, n: number): string {
    return `${kind}_test_${this.prefix}_${n}`;
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const url = new URL(req.url ?? "/", "http://stand-in");
        const request: RecordedRequest = {
          method: req.method ?? "GET",
          path: url.pathname,
          headers: req.headers,
          raw,
          form: Object.fromEntries(new URLSearchParams(raw)),
        };
        this.requests.push(request);
        const reply = this.answer(request);
        res.writeHead(reply.status, {
          "content-type": "application/json",
          "request-id": `req_${this.requests.length}`,
          ...reply.headers,
        });
        res.end(JSON.stringify(reply.body));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  reset(): void {
    this.requests = [];
    this.meterEvents.clear();
    this.override = undefined;
    this.idempotent.clear();
    this.counter = 0;
    this.prefix = randomBytes(4).toString("hex");
  }

  /** The recorded requests to one path (method POST unless given). */
  to(path: string, method = "POST"): RecordedRequest[] {
    return this.requests.filter((r) => r.path === path && r.method === method);
  }

  private answer(request: RecordedRequest): Reply {
    if (request.headers.authorization !== `Bearer ${STRIPE_TEST_ENV.STRIPE_SECRET_KEY}`) {
      return { status: 401, body: { error: { type: "invalid_request_error", message: "Invalid API Key provided" } } };
    }
    const overridden = this.override?.(request);
    if (overridden && overridden !== "record-then-fail") return overridden;
    const key = request.headers["idempotency-key"];
    if (typeof key === "string") {
      const seen = this.idempotent.get(key);
      if (seen) {
        if (seen.form !== request.raw) {
          return {
            status: 400,
            body: {
              error: {
                type: "idempotency_error",
                message:
                  "Keys for idempotent requests can only be used with the same parameters they were first used with.",
              },
            },
          };
        }
        return { ...seen.reply, headers: { ...seen.reply.headers, "idempotent-replayed": "true" } };
      }
    }
    const reply = this.route(request);
    if (typeof key === "string" && reply.status < 500) this.idempotent.set(key, { form: request.raw, reply });
    if (overridden === "record-then-fail") {
      return {
        status: 500,
        body: { error: { type: "api_error", message: "Stand-in: applied, but the answer was lost" } },
        headers: { "stripe-should-retry": "false" },
      };
    }
    return reply;
  }

  private route(request: RecordedRequest): Reply {
    const f = request.form;
    const now = Math.floor(Date.now() / 1000);
    const n = ++this.counter;
    if (request.path === "/v1/customers") {
      return {
        status: 200,
        body: { id: this.id("cus", n), object: "customer", email: f.email ?? null, metadata: pick(f, "metadata") },
      };
    }
    if (request.path === "/v1/checkout/sessions") {
      const id = this.id("cs", n);
      return {
        status: 200,
        body: {
          id,
          object: "checkout.session",
          mode: f.mode,
          status: "open",
          payment_status: "unpaid",
          customer: f.customer ?? null,
          client_reference_id: f.client_reference_id ?? null,
          metadata: pick(f, "metadata"),
          url: `https://checkout.stripe.test/c/pay/${id}`,
          expires_at: f.expires_at ? Number(f.expires_at) : now + 86_400,
        },
      };
    }
    if (request.path === "/v1/billing_portal/sessions") {
      return {
        status: 200,
        body: {
          id: this.id("bps", n),
          object: "billing_portal.session",
          customer: f.customer,
          url: `https://billing.stripe.test/p/session/${this.id("bps", n)}`,
        },
      };
    }
    if (request.path === "/v1/billing/meter_events") {
      const payload = pick(f, "payload");
      if (!this.meterEvents.has(f.identifier))
        this.meterEvents.set(f.identifier, { ...payload, timestamp: f.timestamp, event_name: f.event_name });
      return {
        status: 200,
        body: {
          object: "billing.meter_event",
          created: now,
          event_name: f.event_name,
          identifier: f.identifier,
          livemode: false,
          payload,
          timestamp: Number(f.timestamp),
        },
      };
    }
    const cancel = /^\/v1\/subscriptions\/([^/]+)$/.exec(request.path);
    if (cancel && request.method === "DELETE") {
      return { status: 200, body: { id: cancel[1], object: "subscription", status: "canceled", canceled_at: now } };
    }
    return {
      status: 404,
      body: {
        error: {
          type: "invalid_request_error",
          message: `Unrecognized request URL (${request.method}: ${request.path})`,
        },
      },
    };
  }
}

/** `metadata[account_id]` etc. as an object. */
function pick(form: Record<string, string>, prefix: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(form)) {
    const match = new RegExp(`^${prefix}\\[([^\\]]+)\\]$`).exec(key);
    if (match) out[match[1]] = value;
  }
  return out;
}

/**
 * Starts a stand-in for the file and points the app at it with Stripe configured, for every test in the file. The
 * file must also replace the SDK: `vi.mock("stripe", () => import("./support/stripe-sdk"))`.
 */
export function useStripeStandIn(): StripeStandIn {
  const standIn = new StripeStandIn();
  beforeAll(async () => {
    if (Stripe !== StandInStripe)
      throw new Error(
        'The Stripe SDK would call api.stripe.com: vi.mock("stripe", () => import("./support/stripe-sdk")) in the test file',
      );
    await standIn.start();
    standInAddress.port = standIn.port;
  });
  envForEachTest(STRIPE_TEST_ENV);
  beforeEach(() => standIn.reset());
  afterAll(async () => {
    standInAddress.port = 0;
    await standIn.stop();
  });
  return standIn;
}

/** A webhook delivery as Stripe sends it: the JSON body and its Stripe-Signature header. */
export function signedEvent(
  event: Record<string, unknown>,
  secret = STRIPE_TEST_ENV.STRIPE_WEBHOOK_SECRET,
  timestamp?: number,
) {
  const payload = JSON.stringify(event);
  const signature = Stripe.webhooks.generateTestHeaderString({
    payload,
    secret,
    ...(timestamp !== undefined ? { timestamp } : {}),
  });
  return { payload, signature };
}

let eventCounter = 0;
export function stripeEvent(type: string, object: Record<string, unknown>, created = Math.floor(Date.now() / 1000)) {
  return {
    id: `evt_test_${Date.now()}_${++eventCounter}`,
    object: "event",
    api_version: "2026-10-28.endive",
    created,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  };
}
