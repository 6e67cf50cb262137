import { createHmac, randomBytes, randomUUID } from "node:crypto";
import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { GET as getEmail } from "@/app/api/v1/emails/[id]/route";
import { GET as webhookGet, POST as webhook } from "@/app/api/webhooks/resend/route";
import { ConfigError, parseConfig } from "@/lib/core/config";
import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/core/errors";
import { markEmailAccepted } from "@/lib/sent-emails/data/records";
import { dispatchScheduled } from "@/lib/sending/dispatch";
import { MAX_WEBHOOK_BODY_BYTES } from "@/lib/core/limits";
import { verifyResendWebhook } from "@/lib/mail-transport/resend-events";
import { proxy } from "@/proxy";
import { ISO, auth, call, catalogueId, createUser, type TestUser } from "../support/api";
import { setTestEnv, envForEachTest } from "../support/env";

// Resend's webhooks as Svix signs them: `v1,` and the Base64 HMAC-SHA256, keyed with the Base64 part of the whsec_
// secret, of `${svix-id}.${svix-timestamp}.${body}`.

const API_KEY = "re_test_0123456789abcdef";
const SECRET = `whsec_${randomBytes(24).toString("base64")}`;
envForEachTest({ RESEND_API_KEY: API_KEY, RESEND_WEBHOOK_SECRET: SECRET });

const nowSeconds = () => Math.floor(Date.now() / 1000);

function sign(id: string, timestamp: number, body: string, secret = SECRET): string {
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  return `v1,${createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64")}`;
}

type Delivery = { id?: string; timestamp?: number; secret?: string; headers?: Record<string, string> };

/** Posts the event as Resend does, signed; `headers` replace or (with "") leave out the Svix headers. */
function deliver(
  event: unknown,
  { id = `msg_${randomUUID()}`, timestamp = nowSeconds(), secret, headers }: Delivery = {},
) {
  const body = JSON.stringify(event);
  const svix: Record<string, string> = {
    "svix-id": id,
    "svix-timestamp": String(timestamp),
    "svix-signature": sign(id, timestamp, body, secret),
    ...headers,
  };
  for (const name of Object.keys(svix)) if (svix[name] === "") delete svix[name];
  return call(webhook, "/api/webhooks/resend", { method: "POST", headers: svix, body });
}

type Sent = { user: TestUser; resendId: string; templateId: string };

/** An email sent through Resend, as the send service leaves it once Resend accepted it: sent, with Resend's id. */
async function sentThroughResend(to = ["ann@example.com"]): Promise<Sent> {
  const user = await createUser("monthly");
  const templateId = await catalogueId("welcome");
  const [row] = await getDb()<{ id: string }[]>`
    insert into sent_emails (account_id, template_id, status, provider, from_address, to_addresses, subject, html)
    values (${user.accountId}, ${templateId}, 'pending', 'resend', 'hello@acme.example', ${to}, 'Hi', '<p>Hi</p>')
    returning id`;
  const resendId = randomUUID();
  await markEmailAccepted(row.id, resendId);
  return { user, resendId, templateId };
}

/** An event as Resend sends it about the email `emailId`, created at `createdAt`, with `data` added to its data. */
function resendEvent(type: string, emailId: string, data: Record<string, unknown> = {}, createdAt = new Date()) {
  return {
    type,
    created_at: createdAt.toISOString(),
    data: {
      created_at: "2026-11-24 10:00:00.000000+00",
      email_id: emailId,
      from: "hello@acme.example",
      message_id: `<${randomUUID()}@email.amazonses.com>`,
      subject: "Hi",
      to: ["ann@example.com"],
      ...data,
    },
  };
}

const getResource = (sent: Sent) =>
  call(getEmail, `/api/v1/emails/${sent.resendId}`, { params: { id: sent.resendId }, headers: auth(sent.user) });

/** GET /emails/{id}'s whole answer for the email of `sentThroughResend`, in `status`, with `events` after its sent. */
function resource(sent: Sent, status: string, events: unknown[], to = ["ann@example.com"]) {
  return {
    success: true,
    email: {
      id: sent.resendId,
      from: "hello@acme.example",
      to,
      cc: [],
      bcc: [],
      reply_to: [],
      subject: "Hi",
      template_id: sent.templateId,
      // Recorded here as emails were before versions.
      template_version: null,
      tags: [],
      status,
      created_at: ISO,
      sent_at: ISO,
      scheduled_at: null,
      test: false,
      events: [{ type: "sent", at: ISO }, ...events],
    },
  };
}

const APPLIED = { received: true, duplicate: false, outcome: "applied" };

describe("POST /api/webhooks/resend: applying events", () => {
  it("a delivered event moves the email to delivered and appends the event, at the event's time", async () => {
    const sent = await sentThroughResend();
    const at = new Date(Date.now() - 60_000);
    const result = await deliver(resendEvent("email.delivered", sent.resendId, {}, at));
    expect([result.status, result.body]).toEqual([200, APPLIED]);

    const email = await getResource(sent);
    expect([email.status, email.body]).toEqual([
      200,
      resource(sent, "delivered", [{ type: "delivered", at: at.toISOString() }]),
    ]);
  });

  const mapped: { type: string; data?: object; status: string; event: object }[] = [
    { type: "email.sent", status: "sent", event: { type: "sent", at: ISO } },
    { type: "email.delivered", status: "delivered", event: { type: "delivered", at: ISO } },
    { type: "email.delivery_delayed", status: "delivery_delayed", event: { type: "delivery_delayed", at: ISO } },
    {
      type: "email.bounced",
      data: {
        bounce: {
          message: "The recipient's email provider sent a hard bounce message.",
          subType: "General",
          type: "Permanent",
        },
      },
      status: "bounced",
      event: {
        type: "bounced",
        at: ISO,
        detail: {
          bounce_type: "hard",
          message: "The recipient's email provider sent a hard bounce message.",
          sub_type: "General",
          recipients: ["ann@example.com"],
        },
      },
    },
    {
      type: "email.complained",
      status: "complained",
      event: { type: "complained", at: ISO, detail: { recipients: ["ann@example.com"] } },
    },
    {
      type: "email.failed",
      data: { failed: { reason: "reached_daily_quota" } },
      status: "failed",
      event: { type: "failed", at: ISO, detail: { message: "reached_daily_quota" } },
    },
    // Opened and clicked are events only: the status stays.
    { type: "email.opened", status: "sent", event: { type: "opened", at: ISO } },
    {
      type: "email.clicked",
      data: {
        click: {
          ipAddress: "203.0.113.7",
          link: "https://acme.example/welcome?ref=email",
          timestamp: new Date().toISOString(),
          userAgent: "Mozilla/5.0",
        },
      },
      status: "sent",
      event: { type: "clicked", at: ISO, detail: { link: "https://acme.example/welcome?ref=email" } },
    },
  ];

  it.each(mapped)(
    "$type: the email's status becomes $status, with the event and only what users need of it",
    async ({ type, data, status, event }) => {
      const sent = await sentThroughResend();
      expect((await deliver(resendEvent(type, sent.resendId, { ...data }))).body).toEqual(APPLIED);
      expect((await getResource(sent)).body).toEqual(resource(sent, status, [event]));
    },
  );

  it("a bounce Resend does not call Permanent is soft, and names every recipient of the email", async () => {
    const to = ["ann@example.com", "bob@example.com"];
    const sent = await sentThroughResend(to);
    const bounce = { message: "The recipient's mailbox is full.", subType: "MailboxFull", type: "Transient" };
    expect((await deliver(resendEvent("email.bounced", sent.resendId, { to, bounce }))).body).toEqual(APPLIED);
    const detail = { bounce_type: "soft", message: bounce.message, sub_type: "MailboxFull", recipients: to };
    expect((await getResource(sent)).body).toEqual(
      resource(sent, "bounced", [{ type: "bounced", at: ISO, detail }], to),
    );
  });

  it("final states never move back: delivered may still bounce, a bounced email stays bounced", async () => {
    const first = await sentThroughResend();
    await deliver(resendEvent("email.delivered", first.resendId));
    await deliver(resendEvent("email.bounced", first.resendId, { bounce: { type: "Permanent" } }));
    expect((await getResource(first)).body).toEqual(
      resource(first, "bounced", [
        { type: "delivered", at: ISO },
        { type: "bounced", at: ISO, detail: { bounce_type: "hard", recipients: ["ann@example.com"] } },
      ]),
    );

    const second = await sentThroughResend();
    await deliver(resendEvent("email.bounced", second.resendId, { bounce: { type: "Permanent" } }));
    expect((await deliver(resendEvent("email.delivered", second.resendId))).body).toEqual(APPLIED);
    expect((await getResource(second)).body).toEqual(
      resource(second, "bounced", [
        { type: "bounced", at: ISO, detail: { bounce_type: "hard", recipients: ["ann@example.com"] } },
        { type: "delivered", at: ISO },
      ]),
    );
  });

  it("lists events in order of arrival, whatever times they carry", async () => {
    const sent = await sentThroughResend();
    const later = new Date(Date.now() - 1000);
    const earlier = new Date(Date.now() - 60_000);
    await deliver(resendEvent("email.delivered", sent.resendId, {}, later));
    await deliver(resendEvent("email.opened", sent.resendId, {}, earlier));
    expect((await getResource(sent)).body).toEqual(
      resource(sent, "delivered", [
        { type: "delivered", at: later.toISOString() },
        { type: "opened", at: earlier.toISOString() },
      ]),
    );
  });

  it("applies a delivery once by its svix-id: a replay, or concurrent retries, answer 200 and change nothing", async () => {
    const sent = await sentThroughResend();
    const id = `msg_${randomUUID()}`;
    const event = resendEvent("email.delivered", sent.resendId);
    expect((await deliver(event, { id })).body).toEqual(APPLIED);
    const replay = await deliver(event, { id });
    expect([replay.status, replay.body]).toEqual([200, { received: true, duplicate: true, outcome: "applied" }]);
    // The same id is the same delivery, whatever it says now.
    expect((await deliver(resendEvent("email.bounced", sent.resendId), { id })).body).toMatchObject({
      duplicate: true,
    });
    expect((await getResource(sent)).body).toEqual(resource(sent, "delivered", [{ type: "delivered", at: ISO }]));

    const other = await sentThroughResend();
    const retried = `msg_${randomUUID()}`;
    const opened = resendEvent("email.opened", other.resendId);
    const results = await Promise.all([1, 2, 3].map(() => deliver(opened, { id: retried })));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(results.filter((r) => r.body.duplicate === false)).toHaveLength(1);
    expect((await getResource(other)).body).toEqual(resource(other, "sent", [{ type: "opened", at: ISO }]));
  });

  it("acknowledges and ignores events for emails it does not know", async () => {
    const result = await deliver(resendEvent("email.delivered", randomUUID()));
    expect([result.status, result.body]).toEqual([200, { received: true, duplicate: false, outcome: "unknown_email" }]);
  });

  it("holds an event that arrives before its email's hand-off is recorded, and applies it first once it is", async () => {
    const user = await createUser("monthly");
    const templateId = await catalogueId("welcome");
    const pending = async () =>
      (
        await getDb()<{ id: string }[]>`
          insert into sent_emails (account_id, template_id, status, provider, from_address, to_addresses, subject, html)
          values (${user.accountId}, ${templateId}, 'pending', 'resend', 'hello@acme.example', '{ann@example.com}', 'Hi',
                  '<p>Hi</p>')
          returning id`
      )[0].id;

    // Applied before the next event about the same email.
    const first = { id: await pending(), resendId: randomUUID() };
    const early = await deliver(resendEvent("email.sent", first.resendId), { id: "msg_early_sent" });
    expect(early.body).toEqual({ received: true, duplicate: false, outcome: "unknown_email" });
    // Delivered again (Resend retries), it is held once.
    await deliver(resendEvent("email.sent", first.resendId), { id: "msg_early_sent" });
    await markEmailAccepted(first.id, first.resendId);
    const delivered = await deliver(resendEvent("email.delivered", first.resendId));
    expect(delivered.body).toEqual({ received: true, duplicate: false, outcome: "applied" });
    const sent = { user, resendId: first.resendId, templateId };
    expect((await getResource(sent)).body).toEqual(
      resource(sent, "delivered", [
        { type: "sent", at: ISO },
        { type: "delivered", at: ISO },
      ]),
    );

    // Applied by the dispatcher when no other event comes.
    const second = { id: await pending(), resendId: randomUUID() };
    await deliver(resendEvent("email.bounced", second.resendId, { bounce: { type: "Permanent", message: "gone" } }));
    await markEmailAccepted(second.id, second.resendId);
    // The dispatch step an earlier test's send started in the background may get to it first: either applies it.
    await dispatchScheduled();
    const bounced = { user, resendId: second.resendId, templateId };
    expect((await getResource(bounced)).body.email).toMatchObject({
      status: "bounced",
      events: [
        { type: "sent", at: ISO },
        { type: "bounced", at: ISO, detail: { bounce_type: "hard", message: "gone", recipients: ["ann@example.com"] } },
      ],
    });
    expect(
      await getDb()`select 1 from held_email_events where provider_message_id in (${first.resendId}, ${second.resendId})`,
    ).toHaveLength(0);
  });

  it("drops held events after a day", async () => {
    const resendId = randomUUID();
    await deliver(resendEvent("email.delivered", resendId));
    await getDb()`update held_email_events set received_at = now() - interval '25 hours' where provider_message_id = ${resendId}`;
    await dispatchScheduled();
    expect(await getDb()`select 1 from held_email_events where provider_message_id = ${resendId}`).toHaveLength(0);
  });

  it("acknowledges and ignores event types that say nothing about an email's delivery", async () => {
    const sent = await sentThroughResend();
    const others = [
      resendEvent("email.scheduled", sent.resendId),
      resendEvent("email.received", sent.resendId),
      {
        type: "contact.created",
        created_at: new Date().toISOString(),
        data: { id: randomUUID(), email: "a@b.example" },
      },
      {
        type: "domain.updated",
        created_at: new Date().toISOString(),
        data: { id: randomUUID(), name: "acme.example" },
      },
    ];
    for (const event of others) {
      const result = await deliver(event);
      expect([result.status, result.body]).toEqual([200, { received: true, duplicate: false, outcome: "ignored" }]);
    }
    expect((await getResource(sent)).body).toEqual(resource(sent, "sent", []));
  });
});

describe("POST /api/webhooks/resend: signatures and access", () => {
  const invalid = (message: string) => ({
    error: "Invalid webhook signature",
    code: "INVALID_SIGNATURE",
    success: false,
    message,
  });

  it("answers 400 to a bad, tampered, stale or missing signature, and changes nothing", async () => {
    const sent = await sentThroughResend();
    const event = resendEvent("email.delivered", sent.resendId);
    const id = `msg_${randomUUID()}`;
    const noMatch = invalid("No matching signature found");

    const forged = await deliver(event, { id, secret: `whsec_${randomBytes(24).toString("base64")}` });
    expect([forged.status, forged.body]).toEqual([400, noMatch]);

    // A valid signature of another body.
    const timestamp = nowSeconds();
    const other = sign(id, timestamp, JSON.stringify(resendEvent("email.bounced", sent.resendId)));
    const tampered = await deliver(event, { id, timestamp, headers: { "svix-signature": other } });
    expect([tampered.status, tampered.body]).toEqual([400, noMatch]);

    // Signed under another svix-id than the one it arrives with: a replay dressed as a new delivery.
    const renamed = await deliver(event, { id, headers: { "svix-id": `msg_${randomUUID()}` } });
    expect([renamed.status, renamed.body]).toEqual([400, noMatch]);

    // Correctly signed, six minutes old or ahead: outside the five minutes' tolerance (a captured delivery sent again).
    const stale = await deliver(event, { id, timestamp: nowSeconds() - 6 * 60 });
    expect([stale.status, stale.body]).toEqual([400, invalid("Message timestamp too old")]);
    const ahead = await deliver(event, { id, timestamp: nowSeconds() + 6 * 60 });
    expect([ahead.status, ahead.body]).toEqual([400, invalid("Message timestamp too new")]);

    for (const header of ["svix-id", "svix-timestamp", "svix-signature"]) {
      const missing = await deliver(event, { id, headers: { [header]: "" } });
      expect([missing.status, missing.body]).toEqual([
        400,
        invalid("Missing svix-id, svix-timestamp or svix-signature header"),
      ]);
    }
    expect((await getResource(sent)).body).toEqual(resource(sent, "sent", []));

    // Four minutes old is within the tolerance, and the svix-id was not used up by the refusals.
    const late = await deliver(event, { id, timestamp: nowSeconds() - 4 * 60 });
    expect([late.status, late.body]).toEqual([200, APPLIED]);
  });

  it("is refused by verifyResendWebhook itself with the INVALID_SIGNATURE AppError the route answers", () => {
    const id = `msg_${randomUUID()}`;
    const timestamp = nowSeconds();
    const refusal = (headers: Record<string, string>) => {
      try {
        verifyResendWebhook("{}", new Headers(headers));
      } catch (error) {
        return error instanceof AppError ? { code: error.code, message: error.message } : error;
      }
    };
    const forged = sign(id, timestamp, "{}", `whsec_${randomBytes(24).toString("base64")}`);
    expect(refusal({ "svix-id": id, "svix-timestamp": String(timestamp), "svix-signature": forged })).toEqual({
      code: "INVALID_SIGNATURE",
      message: "No matching signature found",
    });
    expect(refusal({ "svix-id": id })).toEqual({
      code: "INVALID_SIGNATURE",
      message: "Missing svix-id, svix-timestamp or svix-signature header",
    });
  });

  it("answers 503 while RESEND_WEBHOOK_SECRET is not set (Resend retries later), and 405 to other methods", async () => {
    const sent = await sentThroughResend();
    const notConfigured = {
      error: "Email events are not configured",
      code: "EMAIL_EVENTS_NOT_CONFIGURED",
      success: false,
    };
    setTestEnv({ RESEND_WEBHOOK_SECRET: undefined });
    const withoutSecret = await deliver(resendEvent("email.delivered", sent.resendId));
    expect([withoutSecret.status, withoutSecret.body]).toEqual([503, notConfigured]);
    setTestEnv({ RESEND_API_KEY: undefined });
    const withoutResend = await deliver(resendEvent("email.delivered", sent.resendId));
    expect([withoutResend.status, withoutResend.body]).toEqual([503, notConfigured]);
    expect((await getResource(sent)).body).toEqual(resource(sent, "sent", []));

    const get = await call(webhookGet, "/api/webhooks/resend");
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
  });

  it("is never sent to sign in: Next's proxy lets a delivery through without a session", async () => {
    const response = await proxy(new NextRequest("http://localhost:3000/api/webhooks/resend", { method: "POST" }));
    expect(response.headers.get("location")).toBeNull();
    expect(response.headers.get("x-middleware-next")).toBe("1");
  });
});

describe("POST /api/webhooks/resend: body size", () => {
  const tooLarge = { error: "Request body too large", code: "PAYLOAD_TOO_LARGE", success: false };

  it("refuses a declared Content-Length past 1 MB without reading the body", async () => {
    const sent = await sentThroughResend();
    const result = await deliver(resendEvent("email.delivered", sent.resendId), {
      headers: { "content-length": String(MAX_WEBHOOK_BODY_BYTES + 1) },
    });
    expect([result.status, result.body]).toEqual([413, tooLarge]);
    expect((await getResource(sent)).body).toEqual(resource(sent, "sent", []));
  });

  it("refuses a chunked body as soon as it passes 1 MB, before buffering the rest", async () => {
    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    const counter = { pulled: 0 };
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (counter.pulled >= 64 * 1024 * 1024) return controller.close();
        counter.pulled += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const id = `msg_${randomUUID()}`;
    const timestamp = nowSeconds();
    const request = new NextRequest("http://localhost:3000/api/webhooks/resend", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "svix-id": id,
        "svix-timestamp": String(timestamp),
        "svix-signature": sign(id, timestamp, "{}"),
      },
      body,
      duplex: "half",
    } as ConstructorParameters<typeof NextRequest>[1]);
    const response = await webhook(request);
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual(tooLarge);
    expect(counter.pulled).toBeGreaterThan(MAX_WEBHOOK_BODY_BYTES);
    expect(counter.pulled).toBeLessThanOrEqual(MAX_WEBHOOK_BODY_BYTES + 2 * 64 * 1024);
  });
});

describe("RESEND_WEBHOOK_SECRET", () => {
  const problems = (env: Record<string, string>) => {
    try {
      parseConfig(env);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as ConfigError).problems;
    }
    return [];
  };
  const sender = { SYSTEM_EMAIL_FROM: "Letterpress <no-reply@letterpress.test>" };

  it("is a Svix signing secret, read with the Resend key it reports on", () => {
    expect(parseConfig({ ...sender, RESEND_API_KEY: API_KEY, RESEND_WEBHOOK_SECRET: SECRET }).resend).toEqual({
      apiKey: API_KEY,
      baseUrl: undefined,
      webhookSecret: SECRET,
    });
    expect(parseConfig({ ...sender, RESEND_API_KEY: API_KEY }).resend).toEqual({
      apiKey: API_KEY,
      baseUrl: undefined,
      webhookSecret: undefined,
    });
    for (const secret of ["abc", "whsec_", "whsec_not base64!", "whsec_a"]) {
      expect(problems({ ...sender, RESEND_API_KEY: API_KEY, RESEND_WEBHOOK_SECRET: secret })).toEqual([
        "RESEND_WEBHOOK_SECRET must be a webhook signing secret (whsec_…)",
      ]);
    }
    expect(problems({ RESEND_WEBHOOK_SECRET: SECRET })).toEqual([
      "RESEND_API_KEY is required when RESEND_WEBHOOK_SECRET is set",
    ]);
  });
});
