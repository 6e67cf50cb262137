import { createHmac } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Letterpress, WebhookVerificationError } from "letterpress";
import { Webhook as StandardWebhook } from "standardwebhooks";
import { Webhook as SvixWebhook, WebhookVerificationError as SvixVerificationError } from "svix";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { attemptWebhook } from "@/lib/webhooks/outbound";
import { newWebhookSecret, signWebhook } from "@/lib/webhooks/signing";
import { envForSuite } from "../support/env";

// Deliveries are Standard Webhooks: the two kept verifiers (standardwebhooks, svix) and the typed client's verify
// accept what the server signs and sent, unchanged, and refuse it once anything signed differs.

const EVENT_ID = "0b5e7a4e-8a43-4d4e-9c1f-3f1b6f7c2a10";
const BODY = JSON.stringify({
  type: "email.delivered",
  created_at: "2026-12-02T06:00:00.000Z",
  data: { email_id: "5b0f0d1e-7a7c-4a43-9a1b-2f6b1d3c4e5f", to: ["ann@example.com"], subject: "Ça va? 👋" },
});
const AT = new Date("2026-12-02T06:00:07.250Z");

type Verify = (body: string, headers: Record<string, string>, secret: string) => unknown;
/** Every verifier a receiver may use, each answering the parsed event or throwing its verification error. */
const VERIFIERS: [string, Verify, new (message: string) => Error][] = [
  [
    "standardwebhooks",
    (body, headers, secret) => new StandardWebhook(secret).verify(body, headers),
    WebhookVerificationError,
  ],
  ["svix", (body, headers, secret) => new SvixWebhook(secret).verify(body, headers), SvixVerificationError],
  [
    "Letterpress.webhooks.verify",
    (body, headers, secret) => Letterpress.webhooks.verify(body, headers, secret),
    WebhookVerificationError,
  ],
];

/** The verifiers' clock at `at`: they compare the timestamp with Date.now(). */
function clockAt(at: Date) {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(at);
}
afterEach(() => {
  vi.useRealTimers();
});

describe("newWebhookSecret", () => {
  it("is whsec_ and the Base64 of 32 random bytes, a new one each time", () => {
    const secrets = [newWebhookSecret(), newWebhookSecret()];
    for (const secret of secrets) {
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(Buffer.from(secret.slice("whsec_".length), "base64")).toHaveLength(32);
    }
    expect(secrets[0]).not.toBe(secrets[1]);
  });
});

describe("signWebhook", () => {
  const secret = newWebhookSecret();

  it("gives the contract's three headers: the event id, the attempt's Unix seconds, v1 and the HMAC-SHA256", () => {
    const headers = signWebhook({ id: EVENT_ID, timestamp: AT, body: BODY, secrets: [secret] });
    // The contract's formula, computed here on its own: keyed with the secret's decoded bytes.
    const hmac = createHmac("sha256", Buffer.from(secret.slice("whsec_".length), "base64"))
      .update(`${EVENT_ID}.1796191207.${BODY}`)
      .digest("base64");
    expect(headers).toEqual({
      "webhook-id": EVENT_ID,
      "webhook-timestamp": "1796191207",
      "webhook-signature": `v1,${hmac}`,
    });
  });

  it.each(VERIFIERS)("verifies with %s, which answers the event", (_name, verify) => {
    clockAt(AT);
    const headers = signWebhook({ id: EVENT_ID, timestamp: AT, body: BODY, secrets: [secret] });
    expect(verify(BODY, headers, secret)).toEqual(JSON.parse(BODY));
  });

  it.each(VERIFIERS)(
    "fails with %s for a tampered body, another secret, or a timestamp over 5 minutes off",
    (_, verify, Refused) => {
      const headers = signWebhook({ id: EVENT_ID, timestamp: AT, body: BODY, secrets: [secret] });
      clockAt(AT);
      expect(() => verify(BODY.replace("ann@", "bob@"), headers, secret)).toThrow(Refused);
      expect(() => verify(`${BODY} `, headers, secret)).toThrow(Refused);
      expect(() => verify(BODY, headers, newWebhookSecret())).toThrow(Refused);
      expect(() => verify(BODY, { ...headers, "webhook-id": `${EVENT_ID}0` }, secret)).toThrow(Refused);
      const { "webhook-signature": _signature, ...unsigned } = headers;
      expect(() => verify(BODY, unsigned, secret)).toThrow(Refused);
      // A replay 5 minutes and a second later, or a clock as far behind: refused, though the signature is the secret's.
      for (const offsetMs of [301_000, -301_000]) {
        clockAt(new Date(AT.getTime() + offsetMs));
        expect(() => verify(BODY, headers, secret)).toThrow(Refused);
      }
      // Within the five minutes it holds.
      for (const offsetMs of [299_000, -299_000]) {
        clockAt(new Date(AT.getTime() + offsetMs));
        expect(verify(BODY, headers, secret)).toEqual(JSON.parse(BODY));
      }
    },
  );

  it.each(VERIFIERS)(
    "during a rotation signs with both secrets, the new one first: %s verifies with either",
    (_, verify, Refused) => {
      const [current, previous] = [newWebhookSecret(), newWebhookSecret()];
      const headers = signWebhook({ id: EVENT_ID, timestamp: AT, body: BODY, secrets: [current, previous] });
      const [first, second, ...rest] = headers["webhook-signature"].split(" ");
      expect(rest).toEqual([]);
      expect(first).toBe(
        signWebhook({ id: EVENT_ID, timestamp: AT, body: BODY, secrets: [current] })["webhook-signature"],
      );
      expect(second).toBe(
        signWebhook({ id: EVENT_ID, timestamp: AT, body: BODY, secrets: [previous] })["webhook-signature"],
      );
      clockAt(AT);
      expect(verify(BODY, headers, current)).toEqual(JSON.parse(BODY));
      expect(verify(BODY, headers, previous)).toEqual(JSON.parse(BODY));
      expect(() => verify(BODY, headers, newWebhookSecret())).toThrow(Refused);
    },
  );

  it("refuses to sign without a secret", () => {
    expect(() => signWebhook({ id: EVENT_ID, timestamp: AT, body: BODY, secrets: [] })).toThrow(
      "A webhook delivery is signed with at least one secret",
    );
  });
});

describe("a delivery as a receiver gets it", () => {
  // The receiver is on this machine, so the outbound rule is lifted for it (as under npm run dev).
  envForSuite({ WEBHOOKS_ALLOW_PRIVATE_URLS: "1" });
  const received: { body: Buffer; headers: IncomingHttpHeaders }[] = [];
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        received.push({ body: Buffer.concat(chunks), headers: request.headers });
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/letterpress`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it("verifies, from the raw body and the request's headers, with all three during a rotation", async () => {
    const [current, previous] = [newWebhookSecret(), newWebhookSecret()];
    const now = new Date();
    const headers = signWebhook({ id: EVENT_ID, timestamp: now, body: BODY, secrets: [current, previous] });
    expect(await attemptWebhook({ url, headers, body: BODY })).toEqual({
      status: 204,
      durationMs: expect.any(Number),
      excerpt: "",
      succeeded: true,
    });
    expect(received).toHaveLength(1);
    const [{ body, headers: got }] = received;
    expect(body.toString("utf8")).toBe(BODY);
    expect(got).toMatchObject({ ...headers, "content-type": "application/json" });
    const asSent = {
      "webhook-id": String(got["webhook-id"]),
      "webhook-timestamp": String(got["webhook-timestamp"]),
      "webhook-signature": String(got["webhook-signature"]),
    };
    for (const secret of [current, previous]) {
      expect(new StandardWebhook(secret).verify(body.toString("utf8"), asSent)).toEqual(JSON.parse(BODY));
      expect(new SvixWebhook(secret).verify(body, asSent)).toEqual(JSON.parse(BODY));
      // The client takes Node's headers object and the bytes as they came, as a receiver's handler has them.
      expect(Letterpress.webhooks.verify(body, got, secret)).toEqual(JSON.parse(BODY));
      expect(Letterpress.webhooks.verify(body.toString("utf8"), new Headers(asSent), secret)).toEqual(JSON.parse(BODY));
    }
    expect(() => Letterpress.webhooks.verify(body, got, newWebhookSecret())).toThrow(WebhookVerificationError);
  });
});
