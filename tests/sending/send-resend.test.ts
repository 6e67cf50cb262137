import { createHash, randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { beforeEach, describe, expect, it } from "vitest";
import { POST as cancelEmail } from "@/app/api/v1/emails/[id]/cancel/route";
import { POST as sendBatch } from "@/app/api/v1/send/batch/route";
import { POST as send } from "@/app/api/v1/send/route";
import { getDb } from "@/lib/db/client";
import { addSendingDomain } from "@/lib/sending-domains/data";
import { recordCountedEmails } from "@/lib/sent-emails/data/records";
import { dispatchDueScheduledEmails } from "@/lib/sent-emails/data/scheduled";
import { AppError } from "@/lib/core/errors";
import { getMailer, type OutgoingEmail } from "@/lib/mail-transport";
import { outboxMailer } from "@/lib/mail-transport/outbox";
import { ResendMailer } from "@/lib/mail-transport/resend";
import { billingPeriod, type PlanName } from "@/lib/core/plans";
import { providerIdempotencyKey } from "@/lib/sending/idempotency";
import { recoverOrphanedEmails } from "@/lib/sending/recovery";
import { addToLibrary, auth, call, catalogueId, createUser, nextInstant, type TestUser } from "../support/api";
import { setTestEnv } from "../support/env";
import { RESEND_TEST_API_KEY, type ResendReply, useResendStandIn } from "../support/resend-stand-in";

// Resend's API at a local stand-in (tests/support/resend-stand-in.ts): it records every request about this file's
// accounts and answers with whatever the test sets in `resend.reply`, or holds them.

const resend = useResendStandIn();
/** The mailer's own tests send from it. */
resend.domains.add("acme.example");
const API_KEY = RESEND_TEST_API_KEY;

beforeEach(() => {
  resend.reply = { status: 200, body: { id: "re_unset" } };
});

/** A user who can send through Resend: a domain of its own (one account per domain) that Resend verified. */
async function sender(plan: PlanName = "free") {
  const user = await createUser(plan);
  const domain = `acme-${randomUUID().slice(0, 8)}.example`;
  resend.domains.add(domain);
  await addSendingDomain(user.accountId, { domain, verified: true });
  await getDb()`update sending_domains set provider_status = 'verified' where account_id = ${user.accountId}`;
  await addToLibrary(user, "welcome");
  return { ...user, welcomeId: await catalogueId("welcome"), domain };
}

const post = (user: TestUser, body: unknown, headers: Record<string, string> = {}) =>
  call(send, "/api/v1/send", { method: "POST", headers: { ...auth(user), ...headers }, body });

async function emailsCounted(user: TestUser): Promise<number> {
  const { start } = billingPeriod();
  const [row] = await getDb()<{ count: number }[]>`
    select count from usage_counters where account_id = ${user.accountId} and metric = 'emails' and period_start = ${start}`;
  return row?.count ?? 0;
}

async function emailsToday(user: TestUser): Promise<number> {
  const [row] = await getDb()<{ count: number }[]>`
    select count from usage_daily where account_id = ${user.accountId} and metric = 'emails' and day = (now() at time zone 'utc')::date`;
  return row?.count ?? 0;
}

const storedRows = (user: TestUser) =>
  getDb()`select * from sent_emails where account_id = ${user.accountId} order by created_at, batch_index, id`;

describe("the mailer is chosen by RESEND_API_KEY", () => {
  it("is Resend when the key is set and the embedded outbox otherwise", () => {
    expect(getMailer().provider).toBe("resend");
    setTestEnv({ RESEND_API_KEY: undefined });
    expect(getMailer().provider).toBe("outbox");
  });
});

describe("POST /api/v1/send through Resend", () => {
  it("passes every field, the rendered HTML and text, and the idempotency key to Resend's API", async () => {
    const user = await sender();
    resend.reply = { status: 200, body: { id: "4ef9a417-02e9-4d39-ad75-9611e0fcc33c" } };
    const attachment = Buffer.from("col1,col2\n1,2\n").toString("base64");
    const body = {
      template_id: user.welcomeId,
      from: `Acme <hello@${user.domain}>`,
      to: ["ann@example.com", "bob@example.com"],
      cc: "carol@example.com",
      bcc: ["dave@example.com"],
      reply_to: "support@acme.example",
      subject: "Welcome to Acme",
      variables: { userName: "Ann & Bob" },
      text: "Welcome, Ann & Bob.",
      headers: { "X-Entity-Ref-ID": "abc-123" },
      attachments: [
        { filename: "report.csv", content: attachment, content_type: "text/csv" },
        { filename: "terms.pdf", path: "https://cdn.acme.example/terms.pdf" },
      ],
      tags: [{ name: "category", value: "welcome" }],
    };
    const result = await post(user, body, { "idempotency-key": "welcome-ann-1" });

    expect(result.status).toBe(200);
    expect(result.body).toEqual({
      success: true,
      data: {
        id: "4ef9a417-02e9-4d39-ad75-9611e0fcc33c",
        from: `Acme <hello@${user.domain}>`,
        to: ["ann@example.com", "bob@example.com"],
        subject: "Welcome to Acme",
        locale: "en",
        sent_at: expect.stringMatching(/Z$/),
      },
      meta: {
        email_usage: {
          monthly_limit: 100,
          current_usage: 1,
          remaining: 99,
          plan_type: "free",
          is_overage: false,
          overage_emails: 0,
          billing_usage_reported: false,
        },
      },
    });

    const [row] = await storedRows(user);
    expect(row).toMatchObject({
      status: "sent",
      provider: "resend",
      provider_message_id: "4ef9a417-02e9-4d39-ad75-9611e0fcc33c",
      error: null,
    });
    expect(row.html).toContain("Ann &amp; Bob");

    expect(resend.received).toHaveLength(1);
    const [request] = resend.received;
    expect(request.method).toBe("POST");
    expect(request.url).toBe("/emails");
    expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request.headers["content-type"]).toBe("application/json");
    // The caller's key, namespaced by account (Resend keys are global to the operator's Resend account).
    const expectedKey = `lp-${createHash("sha256").update(`${user.accountId}\nwelcome-ann-1`).digest("hex")}`;
    expect(request.headers["idempotency-key"]).toBe(expectedKey);
    expect(request.body).toEqual({
      from: `Acme <hello@${user.domain}>`,
      to: ["ann@example.com", "bob@example.com"],
      cc: ["carol@example.com"],
      bcc: ["dave@example.com"],
      reply_to: ["support@acme.example"],
      subject: "Welcome to Acme",
      html: row.html,
      text: "Welcome, Ann & Bob.",
      headers: { "X-Entity-Ref-ID": "abc-123" },
      attachments: [
        { filename: "report.csv", content: attachment, content_type: "text/csv" },
        { filename: "terms.pdf", path: "https://cdn.acme.example/terms.pdf" },
      ],
      tags: [{ name: "category", value: "welcome" }],
    });

    // A replay does not reach Resend again.
    const again = await post(user, body, { "idempotency-key": "welcome-ann-1" });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(result.body);
    expect(resend.received).toHaveLength(1);
  });

  it("sends the minimal message with generated text, under a key made from the message's id when the caller gave none", async () => {
    const user = await sender();
    resend.reply = { status: 200, body: { id: "re_minimal" } };
    const result = await post(user, { template_id: user.welcomeId, to: "ann@example.com", subject: "Hi" });
    expect(result.status).toBe(200);
    expect(result.body.data.id).toBe("re_minimal");
    const [request] = resend.received;
    // A hand-off cut off by a crash is retried under the same key (recoverOrphanedEmails), so it is delivered once.
    const [row] = await storedRows(user);
    expect(request.headers["idempotency-key"]).toBe(`lp-email-${row.id}`);
    expect(Object.keys(request.body).sort()).toEqual(["from", "html", "subject", "text", "to"]);
    expect(request.body).toMatchObject({ from: `hello@${user.domain}`, to: ["ann@example.com"], subject: "Hi" });
    expect(request.body.text).toContain("WELCOME TO ACME, THERE!");
  });

  it("hands Resend one well-formed mailbox, and never a header-bound field with a control character", async () => {
    const user = await sender();
    resend.reply = { status: 200, body: { id: "re_safe" } };
    const attachment = Buffer.from("a,b\n").toString("base64");
    const body = {
      template_id: user.welcomeId,
      from: `Billing: Acme, Inc. <hello@${user.domain}>`,
      to: "ann@example.com",
      subject: "Your invoice",
      attachments: [{ filename: "invoice.csv", content: attachment, content_type: "text/csv; charset=utf-8" }],
      tags: [{ name: "category", value: "billing" }],
    };
    const result = await post(user, body);
    expect(result.status).toBe(200);
    expect(result.body.data.from).toBe(`"Billing: Acme, Inc." <hello@${user.domain}>`);
    const [row] = await storedRows(user);
    expect(resend.received.map((request) => request.body)).toEqual([
      {
        from: `"Billing: Acme, Inc." <hello@${user.domain}>`,
        to: ["ann@example.com"],
        subject: "Your invoice",
        html: row.html,
        text: row.text_body,
        attachments: [{ filename: "invoice.csv", content: attachment, content_type: "text/csv; charset=utf-8" }],
        tags: [{ name: "category", value: "billing" }],
      },
    ]);

    const refused = await post(user, {
      ...body,
      subject: "Your invoice\u2028Bcc: all@example.com",
      attachments: [
        {
          filename: "invoice.csv\r\nBcc: all@example.com",
          content: attachment,
          content_type: "text/csv\r\nBcc: all@example.com",
        },
      ],
      tags: [{ name: "category", value: "billing\nBcc: all@example.com" }],
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      error: "Invalid request body",
      code: "VALIDATION_ERROR",
      success: false,
      details: [
        { field: "subject", message: "subject must not contain line breaks" },
        { field: "attachments.0.filename", message: "filename must not contain line breaks" },
        {
          field: "attachments.0.content_type",
          message: 'content_type must be a MIME type such as "text/csv" or "text/plain; charset=utf-8"',
        },
        { field: "tags.0.value", message: "value must not contain line breaks" },
      ],
    });
    expect(resend.received).toHaveLength(1);
    expect(await storedRows(user)).toHaveLength(1);
  });

  it("passes scheduled_at to Resend and keeps the message as scheduled", async () => {
    const user = await sender();
    resend.reply = { status: 200, body: { id: "re_scheduled" } };
    const at = new Date(Date.now() + 24 * 3600 * 1000).toISOString();
    const result = await post(user, {
      template_id: user.welcomeId,
      to: "ann@example.com",
      subject: "Later",
      scheduled_at: at,
    });
    expect(result.status).toBe(200);
    expect(result.body.data).toMatchObject({ id: "re_scheduled", scheduled_at: at });
    const [row] = await storedRows(user);
    // Handed over at once: Resend holds it until its time, so delivery waits for no cron run of ours.
    expect(resend.received.map(({ method, url, body }) => ({ method, url, body }))).toEqual([
      {
        method: "POST",
        url: "/emails",
        body: {
          from: `hello@${user.domain}`,
          to: ["ann@example.com"],
          subject: "Later",
          html: row.html,
          text: row.text_body,
          scheduled_at: at,
        },
      },
    ]);
    expect(row).toMatchObject({
      status: "scheduled",
      provider: "resend",
      provider_message_id: "re_scheduled",
      sent_at: null,
    });

    // Past its time, the dispatcher and the recovery of interrupted hand-offs leave it to Resend.
    const later = new Date(Date.parse(at) + 3600_000);
    expect(await dispatchDueScheduledEmails({ now: later, accountId: user.accountId })).toBe(0);
    expect(await recoverOrphanedEmails({ now: later, accountId: user.accountId })).toEqual({ recovered: 0, failed: 0 });
    expect(resend.received).toHaveLength(1);
    expect(await storedRows(user)).toEqual([row]);
  });

  it("replays an idempotent request without calling Resend twice", async () => {
    const user = await sender();
    resend.reply = { status: 200, body: { id: "re_once" } };
    const body = { template_id: user.welcomeId, to: "ann@example.com", subject: "Once" };
    const results = await Promise.all(Array.from({ length: 5 }, () => post(user, body, { "idempotency-key": "once" })));
    expect(results.map((r) => [r.status, r.body.data.id])).toEqual(Array(5).fill([200, "re_once"]));
    expect(resend.received).toHaveLength(1);
    expect(await emailsCounted(user)).toBe(1);
  });

  const failures: [string, ResendReply | "closed port", RegExp][] = [
    [
      "422 validation error",
      { status: 422, body: { statusCode: 422, name: "validation_error", message: "Invalid `to` field." } },
      /HTTP 422: Invalid `to` field\./,
    ],
    [
      "429 rate limit",
      { status: 429, body: { statusCode: 429, name: "rate_limit_exceeded", message: "Too many requests." } },
      /HTTP 429: Too many requests\./,
    ],
    [
      "500 internal error",
      { status: 500, body: { statusCode: 500, name: "internal_server_error", message: "Unexpected failure." } },
      /HTTP 500: Unexpected failure\./,
    ],
    ["500 with a body that is not JSON", { status: 500, body: "<html>oops</html>" }, /HTTP 500/],
    ["network failure (closed port)", "closed port", /unreachable/],
  ];

  it.each(failures)(
    "%s: 502, the message kept as failed, and the email not counted",
    async (_name, failure, reason) => {
      const user = await sender();
      if (failure === "closed port") setTestEnv({ RESEND_BASE_URL: await closedPortUrl() });
      else resend.reply = failure;

      const result = await post(
        user,
        { template_id: user.welcomeId, to: "ann@example.com", subject: "Hi" },
        { "idempotency-key": "fails-once" },
      );
      expect(result.status).toBe(502);
      expect(result.body).toEqual({
        error: "Email provider error",
        code: "EMAIL_PROVIDER_ERROR",
        message: expect.stringMatching(reason),
        success: false,
      });

      const [row] = await storedRows(user);
      expect(row).toMatchObject({
        status: "failed",
        provider: "resend",
        provider_message_id: null,
        usage_period_start: null,
        is_overage: false,
      });
      expect(row.error).toMatch(reason);
      expect(row.html).toMatch(/^<!DOCTYPE html/);
      expect(await emailsCounted(user)).toBe(0);
      expect(await emailsToday(user)).toBe(0);

      // The key was released: a retry with it sends once Resend is back.
      await nextInstant();
      setTestEnv({ RESEND_BASE_URL: resend.url });
      resend.reply = { status: 200, body: { id: "re_retry" } };
      const retry = await post(
        user,
        { template_id: user.welcomeId, to: "ann@example.com", subject: "Hi" },
        { "idempotency-key": "fails-once" },
      );
      expect(retry.status).toBe(200);
      expect(retry.headers.get("idempotent-replayed")).toBeNull();
      expect(retry.body.data.id).toBe("re_retry");
      expect(retry.body.meta.email_usage.current_usage).toBe(1);
      expect((await storedRows(user)).map((r) => r.status)).toEqual(["failed", "sent"]);
    },
  );

  it("gives the count back at the free limit, so the 100th email can still be sent after a failure", async () => {
    const user = await sender("free");
    const { start } = billingPeriod();
    await getDb()`insert into usage_counters (account_id, metric, period_start, count) values (${user.accountId}, 'emails', ${start}, 99)`;
    resend.reply = { status: 500, body: { statusCode: 500, name: "internal_server_error", message: "down" } };
    expect((await post(user, { template_id: user.welcomeId, to: "a@example.com", subject: "Hi" })).status).toBe(502);
    expect(await emailsCounted(user)).toBe(99);
    resend.reply = { status: 200, body: { id: "re_100" } };
    const ok = await post(user, { template_id: user.welcomeId, to: "a@example.com", subject: "Hi" });
    expect(ok.status).toBe(200);
    expect(ok.body.meta.email_usage).toMatchObject({ current_usage: 100, remaining: 0 });
    const refused = await post(user, { template_id: user.welcomeId, to: "a@example.com", subject: "Hi" });
    expect(refused.status).toBe(429);
    expect(resend.received).toHaveLength(2);
  });

  it("takes a failed overage email off the billing ledger", async () => {
    const user = await sender("monthly");
    const { start } = billingPeriod();
    await getDb()`insert into usage_counters (account_id, metric, period_start, count) values (${user.accountId}, 'emails', ${start}, 10000)`;
    resend.reply = { status: 422, body: { statusCode: 422, name: "validation_error", message: "bad" } };
    expect((await post(user, { template_id: user.welcomeId, to: "a@example.com", subject: "Hi" })).status).toBe(502);
    expect(await emailsCounted(user)).toBe(10_000);
    expect(await getDb()`select 1 from email_overage_ledger where account_id = ${user.accountId}`).toHaveLength(0);

    resend.reply = { status: 200, body: { id: "re_overage" } };
    const ok = await post(user, { template_id: user.welcomeId, to: "a@example.com", subject: "Hi" });
    expect(ok.body.meta.email_usage).toMatchObject({
      current_usage: 10_001,
      is_overage: true,
      overage_emails: 1,
      billing_usage_reported: false,
    });
    const ledger = await getDb()`select email_id from email_overage_ledger where account_id = ${user.accountId}`;
    const sent = (await storedRows(user)).find((r) => r.status === "sent");
    expect(ledger).toEqual([{ email_id: sent?.id }]);
  });
});

/** A message as the send service hands it to the mailer. */
function outgoing(overrides: Partial<OutgoingEmail> = {}): OutgoingEmail {
  return {
    id: randomUUID(),
    from: "a@acme.example",
    to: ["b@example.com"],
    cc: [],
    bcc: [],
    replyTo: [],
    subject: "s",
    html: "<p>x</p>",
    text: "x",
    headers: {},
    attachments: [],
    tags: [],
    scheduledAt: null,
    ...overrides,
  };
}

/** What a mailer's call was rejected with (an AppError's code, and Resend's status and error name). */
async function failure(promise: Promise<unknown>) {
  const error = await promise.then(
    () => expect.fail("expected the call to fail"),
    (e: unknown) => e,
  );
  if (!(error instanceof AppError)) return error;
  return { code: error.code, message: error.message, provider: error.options.provider };
}

describe("POST /api/v1/send/batch and POST /api/v1/emails/{id}/cancel through Resend", () => {
  const postBatch = (user: TestUser, body: unknown, headers: Record<string, string> = {}) =>
    call(sendBatch, "/api/v1/send/batch", { method: "POST", headers: { ...auth(user), ...headers }, body });
  const cancel = (user: TestUser, id: string) =>
    call(cancelEmail, `/api/v1/emails/${id}/cancel`, { method: "POST", params: { id }, headers: auth(user) });

  it("hands the whole batch to Resend's batch endpoint in one call, under the batch's idempotency key", async () => {
    const user = await sender();
    resend.reply = { status: 200, body: { data: [{ id: "re_b1" }, { id: "re_b2" }] } };
    const result = await postBatch(
      user,
      {
        emails: [
          { template_id: user.welcomeId, to: "ann@example.com", subject: "One", tags: [{ name: "n", value: "1" }] },
          { template_id: user.welcomeId, to: ["bob@example.com"], cc: "cid@example.com", subject: "Two", text: "2" },
        ],
      },
      { "idempotency-key": "batch-7" },
    );
    expect([result.status, result.body.data]).toEqual([
      200,
      [
        {
          id: "re_b1",
          from: `hello@${user.domain}`,
          to: ["ann@example.com"],
          subject: "One",
          locale: "en",
          sent_at: expect.any(String),
        },
        {
          id: "re_b2",
          from: `hello@${user.domain}`,
          to: ["bob@example.com"],
          subject: "Two",
          locale: "en",
          sent_at: expect.any(String),
        },
      ],
    ]);
    const rows = await storedRows(user);
    expect(resend.received).toHaveLength(1);
    expect(resend.received[0]).toMatchObject({
      method: "POST",
      url: "/emails/batch",
      headers: { "idempotency-key": providerIdempotencyKey(user.accountId, "batch\nbatch-7") },
      body: [
        {
          from: `hello@${user.domain}`,
          to: ["ann@example.com"],
          subject: "One",
          html: rows[0].html,
          text: rows[0].text_body,
          tags: [{ name: "n", value: "1" }],
        },
        {
          from: `hello@${user.domain}`,
          to: ["bob@example.com"],
          cc: ["cid@example.com"],
          subject: "Two",
          html: rows[1].html,
          text: "2",
        },
      ],
    });
    expect(rows.map((row) => [row.status, row.delivery_status, row.provider_message_id])).toEqual([
      ["sent", "sent", "re_b1"],
      ["sent", "sent", "re_b2"],
    ]);
    expect(await emailsCounted(user)).toBe(2);
  });

  it("a batch whose hand-off was cut off is handed over again whole, in order, under its first key", async () => {
    const user = await sender();
    const message = (to: string) => ({
      templateId: user.welcomeId,
      templateVersion: "1",
      from: `hello@${user.domain}`,
      to: [to],
      cc: [],
      bcc: [],
      replyTo: [],
      subject: `To ${to}`,
      html: `<p>${to}</p>`,
      text: to,
      headers: {},
      tags: [],
    });
    const { start } = billingPeriod();
    for (const providerKey of [null, providerIdempotencyKey(user.accountId, "batch\ncut-off")]) {
      // As if the process died between recording the batch and Resend's answer.
      const counted = await recordCountedEmails(
        [message("ann@example.com"), message("bob@example.com"), message("cid@example.com")],
        { accountId: user.accountId, status: "pending", provider: "resend", providerIdempotencyKey: providerKey },
        { periodStart: start, limit: 100, overage: false },
      );
      if (!counted.allowed) throw new Error("not counted");
      const ids = counted.emails.map((email) => email.id);
      resend.received = [];
      resend.reply = { status: 200, body: { data: [{ id: "re_r1" }, { id: "re_r2" }, { id: "re_r3" }] } };

      const later = new Date(Date.now() + 3 * 60_000);
      expect(await recoverOrphanedEmails({ now: later, accountId: user.accountId })).toEqual({
        recovered: 3,
        failed: 0,
      });
      expect(
        resend.received.map(({ method, url, headers, body }) => [
          method,
          url,
          headers["idempotency-key"],
          body.map((m: { to: string[] }) => m.to[0]),
        ]),
      ).toEqual([
        [
          "POST",
          "/emails/batch",
          providerKey ?? `lp-batch-${ids[0]}`,
          ["ann@example.com", "bob@example.com", "cid@example.com"],
        ],
      ]);
      const rows = await getDb()<{ id: string; status: string; provider_message_id: string }[]>`
        select id, status, provider_message_id from sent_emails where id = any(${ids}::uuid[]) order by batch_index`;
      expect(rows).toEqual([
        { id: ids[0], status: "sent", provider_message_id: "re_r1" },
        { id: ids[1], status: "sent", provider_message_id: "re_r2" },
        { id: ids[2], status: "sent", provider_message_id: "re_r3" },
      ]);
    }
  });

  it("a batch Resend refuses is 502: every email kept as failed, none counted", async () => {
    const user = await sender();
    resend.reply = { status: 422, body: { statusCode: 422, name: "validation_error", message: "Invalid `to` field." } };
    const result = await postBatch(user, {
      emails: [
        { template_id: user.welcomeId, to: "ann@example.com", subject: "One" },
        { template_id: user.welcomeId, to: "bob@example.com", subject: "Two" },
      ],
    });
    expect([result.status, result.body]).toEqual([
      502,
      {
        error: "Email provider error",
        code: "EMAIL_PROVIDER_ERROR",
        success: false,
        message:
          "The email provider did not accept the batch (HTTP 422: Invalid `to` field.). Nothing was sent and nothing counts toward your quota; you can retry.",
      },
    ]);
    const rows = await storedRows(user);
    expect(rows.map((row) => [row.status, row.delivery_status, row.error])).toEqual([
      ["failed", "failed", "resend: HTTP 422: Invalid `to` field."],
      ["failed", "failed", "resend: HTTP 422: Invalid `to` field."],
    ]);
    expect([await emailsCounted(user), await emailsToday(user)]).toEqual([0, 0]);
  });

  it("cancels a scheduled email at Resend first, then here; a cancel Resend refuses changes nothing", async () => {
    const user = await sender();
    resend.reply = { status: 200, body: { id: "re_later" } };
    const scheduled = await post(user, {
      template_id: user.welcomeId,
      to: "ann@example.com",
      subject: "Later",
      scheduled_at: new Date(Date.now() + 24 * 3600_000).toISOString(),
    });
    expect(scheduled.body.data.id).toBe("re_later");
    expect(await emailsCounted(user)).toBe(1);

    resend.reply = { status: 500, body: { statusCode: 500, name: "internal_server_error", message: "Try again" } };
    const refused = await cancel(user, "re_later");
    expect([refused.status, refused.body]).toEqual([
      502,
      {
        error: "Email provider error",
        code: "EMAIL_PROVIDER_ERROR",
        success: false,
        message:
          "The email provider did not cancel the email (HTTP 500: Try again). It was not canceled; you can retry.",
      },
    ]);
    expect([(await storedRows(user))[0].delivery_status, await emailsCounted(user)]).toEqual(["scheduled", 1]);

    resend.reply = { status: 200, body: { object: "email", id: "re_later" } };
    const canceled = await cancel(user, "re_later");
    expect([canceled.status, canceled.body.email.status, canceled.body.email.id]).toEqual([
      200,
      "canceled",
      "re_later",
    ]);
    expect(resend.received.slice(1).map(({ method, url }) => ({ method, url }))).toEqual([
      { method: "POST", url: "/emails/re_later/cancel" },
      { method: "POST", url: "/emails/re_later/cancel" },
    ]);
    expect([(await storedRows(user))[0].status, await emailsCounted(user)]).toEqual(["canceled", 0]);
  });
});

describe("ResendMailer", () => {
  const mailer = () => new ResendMailer({ apiKey: API_KEY, baseUrl: resend.url });

  it("gives up after its timeout with an EMAIL_PROVIDER_ERROR", async () => {
    resend.holding = true;
    const slow = new ResendMailer({ apiKey: API_KEY, baseUrl: resend.url, timeoutMs: 300 });
    const started = Date.now();
    for (const attempt of [
      () => slow.send(outgoing()),
      () => slow.sendBatch([outgoing()]),
      () => slow.cancel("re_hangs"),
    ]) {
      const error = await attempt().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({
        code: "EMAIL_PROVIDER_ERROR",
        options: { provider: { status: null } },
        message: "no answer within 300 ms",
      });
    }
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("sends a batch in one request under its idempotency key, and answers the ids in the messages' order", async () => {
    resend.reply = { status: 200, body: { data: [{ id: "re_first" }, { id: "re_second" }] } };
    const result = await mailer().sendBatch(
      [
        outgoing({
          from: "Acme <hello@acme.example>",
          to: ["ann@example.com", "bob@example.com"],
          cc: ["carol@example.com"],
          bcc: ["dave@example.com"],
          replyTo: ["support@acme.example"],
          subject: "First",
          html: "<p>1</p>",
          text: "1",
          headers: { "X-Entity-Ref-ID": "abc-123" },
          tags: [{ name: "category", value: "welcome" }],
        }),
        outgoing({ to: ["erin@example.com"], subject: "Second", html: "<p>2</p>", text: null }),
      ],
      { idempotencyKey: "lp-batch-key" },
    );
    expect(result).toEqual({ ids: ["re_first", "re_second"] });
    expect(resend.received).toHaveLength(1);
    const [request] = resend.received;
    expect(request.method).toBe("POST");
    expect(request.url).toBe("/emails/batch");
    expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request.headers["idempotency-key"]).toBe("lp-batch-key");
    // Strict: one invalid message refuses the whole batch, so none is sent.
    expect(request.headers["x-batch-validation"]).toBe("strict");
    expect(request.body).toEqual([
      {
        from: "Acme <hello@acme.example>",
        to: ["ann@example.com", "bob@example.com"],
        cc: ["carol@example.com"],
        bcc: ["dave@example.com"],
        reply_to: ["support@acme.example"],
        subject: "First",
        html: "<p>1</p>",
        text: "1",
        headers: { "X-Entity-Ref-ID": "abc-123" },
        tags: [{ name: "category", value: "welcome" }],
      },
      { from: "a@acme.example", to: ["erin@example.com"], subject: "Second", html: "<p>2</p>" },
    ]);
  });

  it("refuses a batch Resend refuses, or whose answer does not hold one id per message, with an EMAIL_PROVIDER_ERROR", async () => {
    const batch = [outgoing(), outgoing()];
    resend.reply = { status: 422, body: { statusCode: 422, name: "validation_error", message: "Invalid `to` field." } };
    expect(await failure(mailer().sendBatch(batch))).toEqual({
      code: "EMAIL_PROVIDER_ERROR",
      message: "Invalid `to` field.",
      provider: { status: 422, code: "validation_error" },
    });
    resend.reply = {
      status: 429,
      body: { statusCode: 429, name: "rate_limit_exceeded", message: "Too many requests." },
    };
    expect(await failure(mailer().sendBatch(batch))).toEqual({
      code: "EMAIL_PROVIDER_ERROR",
      message: "Too many requests.",
      provider: { status: 429, code: "rate_limit_exceeded" },
    });
    const answers: [unknown, number][] = [
      [{ data: [{ id: "re_only" }] }, 1],
      [{ data: [{ id: "re_1" }, { id: "" }] }, 2],
      [{ data: [{ id: "re_1" }, { id: "re_2" }, { id: "re_3" }] }, 3],
      [{ id: "re_1" }, 0],
    ];
    for (const [body, count] of answers) {
      resend.reply = { status: 200, body };
      expect(await failure(mailer().sendBatch(batch))).toEqual({
        code: "EMAIL_PROVIDER_ERROR",
        message: `the answer carried ${count} message ids for 2 messages`,
        provider: { status: null, code: null },
      });
    }
    const unreachable = new ResendMailer({ apiKey: API_KEY, baseUrl: await closedPortUrl() });
    expect(await failure(unreachable.sendBatch(batch))).toMatchObject({
      code: "EMAIL_PROVIDER_ERROR",
      provider: { status: null },
    });
  });

  it("never drops what a batch cannot carry: a message with attachments or a scheduled time is not sent", async () => {
    const attached = outgoing({ attachments: [{ filename: "a.csv", content: "YSxi" }] });
    const scheduled = outgoing({ scheduledAt: new Date(Date.now() + 3600_000) });
    for (const message of [attached, scheduled]) {
      const error = await mailer()
        .sendBatch([outgoing(), message])
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(AppError);
    }
    expect(resend.received).toEqual([]);
  });

  it("cancels a scheduled message by its Resend id", async () => {
    resend.reply = { status: 200, body: { object: "email", id: "49a3999c-0ce1-4ea6-ab68-afcd6dc2e794" } };
    await expect(mailer().cancel("49a3999c-0ce1-4ea6-ab68-afcd6dc2e794")).resolves.toBeUndefined();
    expect(resend.received.map(({ method, url, body }) => ({ method, url, body }))).toEqual([
      { method: "POST", url: "/emails/49a3999c-0ce1-4ea6-ab68-afcd6dc2e794/cancel", body: undefined },
    ]);
    expect(resend.received[0].headers.authorization).toBe(`Bearer ${API_KEY}`);

    // The id stays one path segment, whatever it holds.
    resend.reply = { status: 200, body: { object: "email", id: "x" } };
    await mailer().cancel("../domains/x?y");
    expect(resend.received[1].url).toBe("/emails/..%2Fdomains%2Fx%3Fy/cancel");
  });

  it("refuses a cancel Resend refuses with an EMAIL_PROVIDER_ERROR carrying its status", async () => {
    resend.reply = { status: 404, body: { statusCode: 404, name: "not_found", message: "Email not found" } };
    expect(await failure(mailer().cancel("re_missing"))).toEqual({
      code: "EMAIL_PROVIDER_ERROR",
      message: "Email not found",
      provider: { status: 404, code: "not_found" },
    });
    resend.reply = {
      status: 422,
      body: { statusCode: 422, name: "validation_error", message: "Email cannot be canceled because it was sent" },
    };
    expect(await failure(mailer().cancel("re_sent"))).toEqual({
      code: "EMAIL_PROVIDER_ERROR",
      message: "Email cannot be canceled because it was sent",
      provider: { status: 422, code: "validation_error" },
    });
    resend.reply = { status: 500, body: "<html>oops</html>" };
    expect(await failure(mailer().cancel("re_down"))).toMatchObject({
      code: "EMAIL_PROVIDER_ERROR",
      provider: { status: 500 },
    });
    const unreachable = new ResendMailer({ apiKey: API_KEY, baseUrl: await closedPortUrl() });
    expect(await failure(unreachable.cancel("re_x"))).toMatchObject({
      code: "EMAIL_PROVIDER_ERROR",
      provider: { status: null },
    });
  });
});

describe("the embedded outbox as a mailer", () => {
  it("accepts a batch as it accepts one message, and leaves canceling to the database", async () => {
    const user = await sender("monthly");
    const templateId = await catalogueId("welcome");
    const ids: string[] = [];
    for (const subject of ["One", "Two"]) {
      const [row] = await getDb()<{ id: string }[]>`
        insert into sent_emails (account_id, template_id, status, provider, from_address, to_addresses, subject, html)
        values (${user.accountId}, ${templateId}, 'pending', 'outbox', ${`hello@${user.domain}`}, ${["ann@example.com"]},
                ${subject}, '<p>Hi</p>')
        returning id`;
      ids.push(row.id);
    }
    const [first, second] = ids;
    expect(await outboxMailer.sendBatch([outgoing({ id: first }), outgoing({ id: second })])).toEqual({ ids });
    // Inserted within a millisecond of each other, the rows may tie on created_at: compared in the ids' order.
    const rows = (await storedRows(user)).sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id));
    expect(rows.map((row) => [row.id, row.status, row.provider_message_id])).toEqual([
      [first, "sent", null],
      [second, "sent", null],
    ]);
    await expect(outboxMailer.cancel(first)).resolves.toBeUndefined();
    expect(resend.received).toEqual([]);
  });
});

async function closedPortUrl(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
