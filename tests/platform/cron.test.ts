import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import * as deliverWebhooks from "@/app/api/cron/deliver-webhooks/route";
import * as dispatchScheduled from "@/app/api/cron/dispatch-scheduled/route";
import * as reportUsage from "@/app/api/cron/report-usage/route";
import { getDb } from "@/lib/db/client";
import { holdEmailEvent } from "@/lib/sent-emails/data/events";
import { markEmailAccepted, recordCountedEmail, type EmailRecordInput } from "@/lib/sent-emails/data/records";
import { billingPeriod } from "@/lib/core/plans";
import { hashRequest } from "@/lib/sending/idempotency";
import { enqueueWebhookEvent } from "@/lib/webhooks/data/events";
import { call, counter, createUser, sender, type Sender } from "../support/api";
import { envForSuite } from "../support/env";
import { useResendStandIn } from "../support/resend-stand-in";
import { addEndpoint } from "../support/webhooks";

// Production has no long-running process: what `npm start` does in the background (bin/serve.ts's loop over due
// scheduled emails, and the dispatch every send starts after answering) happens on Vercel when Vercel Cron calls a route
// of app/api/cron/ that vercel.json lists: GET with `Authorization: Bearer $CRON_SECRET` (issue 44, item 3).

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const CRON_SECRET = "cron-secret-for-the-cron-tests-0123456789";

/** Every route of app/api/cron/, by path: a route added there and not here fails the first test. */
const CRON_ROUTES: Record<string, { GET: (...args: any[]) => Promise<Response> }> = {
  "/api/cron/deliver-webhooks": deliverWebhooks,
  "/api/cron/dispatch-scheduled": dispatchScheduled,
  "/api/cron/report-usage": reportUsage,
};

const asVercelCron = (route: string, authorization: string | null = `Bearer ${CRON_SECRET}`) =>
  call(CRON_ROUTES[route].GET, route, {
    headers: { "user-agent": "vercel-cron/1.0", ...(authorization === null ? {} : { authorization }) },
  });

envForSuite({ CRON_SECRET });

describe("vercel.json and app/api/cron/", () => {
  const crons = (
    JSON.parse(readFileSync(path.join(ROOT, "vercel.json"), "utf8")) as {
      crons: { path: string; schedule: string }[];
    }
  ).crons;

  it("vercel.json schedules every cron route once, and nothing else", () => {
    const routes = readdirSync(path.join(ROOT, "app", "api", "cron"), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `/api/cron/${entry.name}`)
      .sort();
    expect(Object.keys(CRON_ROUTES).sort()).toEqual(routes);
    expect(crons.map((cron) => cron.path).sort()).toEqual(routes);
  });

  it("every schedule runs at most once a day, which a Hobby project deploys (it refuses anything more often)", () => {
    for (const { path: route, schedule } of crons) {
      const [minute, hour, ...rest] = schedule.split(" ");
      expect({ route, minute, hour, fields: rest.length }).toEqual({
        route,
        minute: expect.stringMatching(/^\d{1,2}$/),
        hour: expect.stringMatching(/^\d{1,2}$/),
        fields: 3,
      });
    }
  });

  it("every cron route refuses a request without the bearer CRON_SECRET, or with another one", async () => {
    for (const route of Object.keys(CRON_ROUTES)) {
      for (const authorization of [null, "Bearer wrong-secret-0123456789", CRON_SECRET, `Basic ${CRON_SECRET}`]) {
        const answer = await asVercelCron(route, authorization);
        expect({ route, authorization, status: answer.status, body: answer.body }).toEqual({
          route,
          authorization,
          status: 401,
          body: { error: "Authentication required", code: "UNAUTHORIZED", success: false },
        });
      }
    }
  });

  describe("without CRON_SECRET", () => {
    envForSuite({ CRON_SECRET: undefined });

    it("every cron route refuses every request", async () => {
      for (const route of Object.keys(CRON_ROUTES)) {
        for (const authorization of ["Bearer ", "Bearer undefined", `Bearer ${CRON_SECRET}`]) {
          expect((await asVercelCron(route, authorization)).status).toBe(401);
        }
      }
    });
  });
});

describe("GET /api/cron/dispatch-scheduled, as Vercel Cron calls it", () => {
  const resend = useResendStandIn();
  const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000);

  /** An email counted and recorded as POST /send records it, `status` for `provider`. */
  async function recorded(
    user: Sender,
    fields: Pick<EmailRecordInput, "status" | "provider"> & Partial<EmailRecordInput>,
  ): Promise<string> {
    const counted = await recordCountedEmail(
      {
        accountId: user.accountId,
        templateId: user.welcomeId,
        templateVersion: "1",
        from: `hello@${user.domain}`,
        to: ["ann@example.com"],
        cc: [],
        bcc: [],
        replyTo: [],
        subject: "From the cron test",
        html: "<p>Hi</p>",
        text: "Hi",
        headers: {},
        attachments: [],
        tags: [],
        scheduledAt: null,
        providerIdempotencyKey: null,
        ...fields,
      },
      { periodStart: billingPeriod().start, limit: 1000, overage: false },
    );
    if (!counted.allowed) throw new Error("not counted");
    return counted.id;
  }

  /** The hand-off's status, and the delivery's as the API reports it. */
  const state = async (id: string) => {
    const [row] = await getDb()<
      { status: string; delivery_status: string | null; provider_message_id: string | null }[]
    >`
      select status, delivery_status, provider_message_id from sent_emails where id = ${id}`;
    return row;
  };

  it("does each duty npm start's server does in the background, in one run", async () => {
    const user = await sender();
    resend.domains.add(user.domain);

    // A scheduled email of the embedded outbox, now due (bin/serve.ts's loop sends these every second).
    const due = await recorded(user, {
      status: "scheduled",
      provider: "outbox",
      scheduledAt: new Date(Date.now() + 60_000),
    });
    await getDb()`update sent_emails set scheduled_at = now() - interval '1 second' where id = ${due}`;
    // Two hand-offs to Resend a killed server left pending: one three minutes ago, handed over again under its key;
    // one two days ago, past Resend's 24 hours of deduplication, given up and its count given back.
    const interrupted = await recorded(user, { status: "pending", provider: "resend" });
    await getDb()`update sent_emails set created_at = ${minutesAgo(3)} where id = ${interrupted}`;
    const abandoned = await recorded(user, { status: "pending", provider: "resend" });
    await getDb()`update sent_emails set created_at = ${minutesAgo(2 * 24 * 60)} where id = ${abandoned}`;
    // Resend's delivery event that arrived before its email's hand-off was recorded, held until it was.
    const handedOver = await recorded(user, { status: "pending", provider: "resend" });
    const messageId = `re_${randomUUID()}`;
    await holdEmailEvent("resend", messageId, "delivered", {
      detail: null,
      providerEventId: `evt_${randomUUID()}`,
      occurredAt: new Date(),
    });
    await markEmailAccepted(handedOver, messageId);
    // An idempotency key past its 24 hours.
    await getDb()`
      insert into idempotency_keys (account_id, scope, key, request_hash, token, status, created_at)
      values (${user.accountId}, 'send', 'old-key', ${hashRequest({})}, ${randomUUID()}, 'in_flight', now() - interval '2 days')`;
    expect(await counter(user, "emails")).toBe(4);
    const before = [due, interrupted, abandoned, handedOver].map(state);
    expect(await Promise.all(before)).toEqual([
      { status: "scheduled", delivery_status: "scheduled", provider_message_id: null },
      { status: "pending", delivery_status: "queued", provider_message_id: null },
      { status: "pending", delivery_status: "queued", provider_message_id: null },
      { status: "sent", delivery_status: "sent", provider_message_id: messageId },
    ]);

    const run = await asVercelCron("/api/cron/dispatch-scheduled");
    expect(run.status).toBe(200);
    // Other files' accounts share the database: their due rows may be in the counts too.
    expect(run.body).toEqual({
      success: true,
      dispatched: expect.any(Number),
      recovered_emails: expect.any(Number),
      failed_emails: expect.any(Number),
      expired_idempotency_keys: expect.any(Number),
      held_events_applied: expect.any(Number),
      folded_metric_events: expect.any(Number),
    });
    for (const count of ["dispatched", "recovered_emails", "failed_emails", "expired_idempotency_keys"])
      expect(run.body[count]).toBeGreaterThanOrEqual(1);
    expect(run.body.held_events_applied).toBeGreaterThanOrEqual(1);

    expect(await state(due)).toEqual({ status: "sent", delivery_status: "delivered", provider_message_id: null });
    expect(await state(interrupted)).toEqual({
      status: "sent",
      delivery_status: "sent",
      provider_message_id: "re_live_1",
    });
    expect(resend.received.map(({ method, url }) => ({ method, url }))).toEqual([{ method: "POST", url: "/emails" }]);
    expect(await state(abandoned)).toEqual({ status: "failed", delivery_status: "failed", provider_message_id: null });
    expect(await state(handedOver)).toEqual({
      status: "sent",
      delivery_status: "delivered",
      provider_message_id: messageId,
    });
    expect(await getDb()`select 1 from idempotency_keys where account_id = ${user.accountId}`).toHaveLength(0);
    expect(await counter(user, "emails")).toBe(3);

    // Nothing is left to do for this account: a second run changes none of it.
    await asVercelCron("/api/cron/dispatch-scheduled");
    expect(resend.received).toHaveLength(1);
    expect(await state(interrupted)).toEqual({
      status: "sent",
      delivery_status: "sent",
      provider_message_id: "re_live_1",
    });
    expect(await counter(user, "emails")).toBe(3);
  });
});

describe("GET /api/cron/report-usage, as Vercel Cron calls it", () => {
  it("without Stripe has nothing to report or downgrade (with Stripe: tests/billing/stripe.test.ts)", async () => {
    const run = await asVercelCron("/api/cron/report-usage");
    expect(run.status).toBe(200);
    expect(run.body).toEqual({ success: true, configured: false, reported: 0, failed: 0, downgraded: 0 });
  });
});

describe("GET /api/cron/deliver-webhooks, as Vercel Cron calls it", () => {
  it("makes the due webhook attempts and deletes events past their 30 days", async () => {
    const user = await createUser();
    const endpoint = await addEndpoint(user.accountId, { events: ["email.delivered"] });
    const old = await enqueueWebhookEvent(user.accountId, "email.delivered", {
      data: {},
      now: new Date(Date.now() - 31 * 24 * 3_600_000),
    });
    // Its delivery is left alone (a disabled endpoint's are not claimed): what the default sender makes of an
    // attempt is tests/webhooks/'s.
    await getDb()`update webhook_endpoints set enabled = false where id = ${endpoint.id}`;
    const run = await asVercelCron("/api/cron/deliver-webhooks");
    expect(run.status).toBe(200);
    expect(run.body).toEqual({
      success: true,
      attempted: expect.any(Number),
      succeeded: expect.any(Number),
      retrying: expect.any(Number),
      failed: expect.any(Number),
      disabled_endpoints: expect.any(Number),
      expired_events: expect.any(Number),
    });
    expect(run.body.expired_events).toBeGreaterThanOrEqual(1);
    expect(await getDb()`select 1 from webhook_events where id = ${old}`).toEqual([]);
  });
});
