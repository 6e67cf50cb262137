import { describe, expect, it } from "vitest";
import { POST as cancel } from "@/app/api/v1/emails/[id]/cancel/route";
import { GET as getEmail } from "@/app/api/v1/emails/[id]/route";
import { GET as listEmails } from "@/app/api/v1/emails/route";
import { POST as sendBatch } from "@/app/api/v1/send/batch/route";
import { POST as send } from "@/app/api/v1/send/route";
import { GET as getUsage } from "@/app/api/v1/usage/route";
import { createApiKey } from "@/lib/api-keys/data";
import { getDb } from "@/lib/db/client";
import { recordCountedEmails } from "@/lib/sent-emails/data/records";
import { dispatchDueScheduledEmails } from "@/lib/sent-emails/data/scheduled";
import { getTestEmailsSentToday } from "@/lib/usage/data/counts";
import { outboxDeliveryEvent } from "@/lib/mail-transport/outbox-delivery";
import { billingPeriod, testSendDay, type PlanName } from "@/lib/core/plans";
import { ISO, call, counter, expectedEmailResponse, sender, setEmailsUsed, type Sender } from "../support/api";
import { useResendStandIn } from "../support/resend-stand-in";

// Test keys' sends with Resend configured, at a stand-in that records the requests about this file's accounts, so a test
// can say none reached it.

const resend = useResendStandIn();

const UUID = expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);

type Account = Sender & { testKey: string };

/** A user who can send through Resend (a verified domain, `welcome` in the library), with a test key too. */
async function account(plan: PlanName = "free"): Promise<Account> {
  const user = await sender(plan);
  resend.domains.add(user.domain);
  return { ...user, testKey: (await createApiKey(user.accountId, { name: "ci", kind: "test" })).key };
}

const message = (user: Account, extra: Record<string, unknown> = {}) => ({
  template_id: user.welcomeId,
  to: "ann@example.com",
  subject: "Welcome aboard",
  ...extra,
});

const post = (key: string, body: unknown, headers: Record<string, string> = {}) =>
  call(send, "/api/v1/send", { method: "POST", headers: { "x-api-key": key, ...headers }, body });

const postBatch = (key: string, body: unknown) =>
  call(sendBatch, "/api/v1/send/batch", { method: "POST", headers: { "x-api-key": key }, body });

const get = (key: string, id: string) =>
  call(getEmail, `/api/v1/emails/${id}`, { params: { id }, headers: { "x-api-key": key } });

const emailUsage = (plan: PlanName, used: number) => {
  const limit = { free: 100, monthly: 10_000, annual: 50_000 }[plan];
  const overage = plan !== "free" && used > limit;
  return {
    monthly_limit: limit,
    current_usage: used,
    remaining: Math.max(0, limit - used),
    plan_type: plan,
    is_overage: overage,
    overage_emails: overage ? used - limit : 0,
    billing_usage_reported: false,
  };
};

/** The email as GET /emails/{id} describes a test send of `message`. */
const described = (user: Account, id: string, status: string, events: unknown[], extra: object = {}) =>
  expectedEmailResponse(user, id, status, events, { test: true, ...extra });

const testEmailsToday = (user: Account) => getTestEmailsSentToday(user.accountId);

async function setTestEmailsToday(user: Account, count: number): Promise<void> {
  await getDb()`
    insert into usage_daily (account_id, metric, day, count)
    values (${user.accountId}, 'test_emails', (now() at time zone 'utc')::date, ${count})
    on conflict (account_id, metric, day) do update set count = excluded.count`;
}

/** The month's emails as counted, today's live emails, and the overage ledger's entries. */
async function liveCounts(user: Account) {
  const [row] = await getDb()<{ daily: number; ledger: number }[]>`
    select (select coalesce(sum(count), 0)::int from usage_daily
            where account_id = ${user.accountId} and metric = 'emails') as daily,
           (select count(*)::int from email_overage_ledger where account_id = ${user.accountId}) as ledger`;
  return { month: await counter(user, "emails"), ...row };
}

const storedEmails = (user: Account) =>
  getDb()<{ id: string; provider: string; provider_message_id: string | null; test: boolean; status: string }[]>`
    select id, provider, provider_message_id, test, status from sent_emails
    where account_id = ${user.accountId} order by created_at, batch_index, id`;

/** The 429 of the 101st test send of the day, and its Retry-After: the seconds until the next UTC midnight. */
function testLimitBody(detail = " and today's have all been sent") {
  return {
    error: "Email sending not allowed",
    message:
      `Test keys send at most 100 emails a day per account${detail}. Nothing was sent. Test sends resume at ` +
      `${testSendDay().reset.toISOString()}; live keys are not affected.`,
    is_overage: false,
  };
}

function expectRetryUntilMidnight(retryAfter: string | null) {
  const expected = Math.ceil((testSendDay().reset.getTime() - Date.now()) / 1000);
  expect(Number(retryAfter)).toBeGreaterThanOrEqual(expected - 5);
  expect(Number(retryAfter)).toBeLessThanOrEqual(expected + 1);
}

describe("a test key's send (Resend configured)", () => {
  it("reaches nothing: 200 with the outbox's id, test and delivered in GET /emails/{id}, not counted in the month", async () => {
    const user = await account("free");
    await setEmailsUsed(user, 7);
    const result = await post(user.testKey, message(user, { variables: { usrName: "Ann" } }));
    expect([result.status, result.body]).toEqual([
      200,
      {
        success: true,
        data: {
          id: UUID,
          from: `hello@${user.domain}`,
          to: ["ann@example.com"],
          subject: "Welcome aboard",
          locale: "en",
          sent_at: ISO,
          test: true,
        },
        meta: { email_usage: emailUsage("free", 7) },
        warnings: [
          {
            field: "variables.usrName",
            message: "not a variable of this template; did you mean userName?",
            kind: "variables",
          },
        ],
      },
    ]);
    const { id } = result.body.data;
    expect(resend.received).toEqual([]);
    expect(await storedEmails(user)).toEqual([
      { id, provider: "outbox", provider_message_id: null, test: true, status: "sent" },
    ]);

    const email = await get(user.testKey, id);
    expect([email.status, email.body]).toEqual([
      200,
      {
        success: true,
        email: described(user, id, "delivered", [
          { type: "sent", at: ISO },
          { type: "delivered", at: ISO },
        ]),
      },
    ]);
    // The live key lists it too, marked test.
    const listed = await call(listEmails, "/api/v1/emails", { headers: { "x-api-key": user.key } });
    const { events: _events, ...entry } = described(user, id, "delivered", []);
    expect([listed.status, listed.body]).toEqual([
      200,
      { success: true, emails: [entry], pagination: { limit: 50, offset: 0, total: 1 } },
    ]);

    expect(await liveCounts(user)).toEqual({ month: 7, daily: 0, ledger: 0 });
    expect(await testEmailsToday(user)).toBe(1);
    const usage = await call(getUsage, "/api/v1/usage", { headers: { "x-api-key": user.testKey } });
    expect([usage.status, usage.body]).toEqual([
      200,
      {
        success: true,
        usage: { limit: 500, remaining: expect.any(Number), reset: billingPeriod().reset.toISOString(), plan: "free" },
        emails: { monthly_limit: 100, current_usage: 7, remaining: 93, is_overage: false, overage_emails: 0 },
        test_emails: { daily_limit: 100, sent_today: 1, remaining: 99, reset: testSendDay().reset.toISOString() },
      },
    ]);
    expect(resend.received).toEqual([]);
  });

  it("is sent even when the free plan's month is used up, and is never overage on a paid plan", async () => {
    const free = await account("free");
    await setEmailsUsed(free, 100);
    const sent = await post(free.testKey, message(free));
    expect([sent.status, sent.body.meta]).toEqual([200, { email_usage: emailUsage("free", 100) }]);

    const paid = await account("monthly");
    await setEmailsUsed(paid, 10_005);
    const overage = await post(paid.testKey, message(paid));
    expect([overage.status, overage.body.meta]).toEqual([200, { email_usage: emailUsage("monthly", 10_005) }]);
    expect(await liveCounts(paid)).toEqual({ month: 10_005, daily: 0, ledger: 0 });
    const [row] = await getDb()<{ is_overage: boolean; usage_period_start: Date | null }[]>`
      select is_overage, usage_period_start from sent_emails where account_id = ${paid.accountId}`;
    expect(row).toEqual({ is_overage: false, usage_period_start: null });
    expect(resend.received).toEqual([]);
  });

  it("to bounce.test bounces and suppresses the address: the next send to it, test or live, is 422", async () => {
    const user = await account();
    const result = await post(user.testKey, message(user, { to: "x@bounce.test" }));
    expect(result.status).toBe(200);
    const email = await get(user.testKey, result.body.data.id);
    expect(email.body).toEqual({
      success: true,
      email: described(
        user,
        result.body.data.id,
        "bounced",
        [
          { type: "sent", at: ISO },
          {
            type: "bounced",
            at: ISO,
            detail: {
              bounce_type: "hard",
              recipient: "x@bounce.test",
              message: "x@bounce.test does not exist (a hard bounce: addresses @bounce.test always bounce)",
            },
          },
        ],
        { to: ["x@bounce.test"] },
      ),
    });
    const suppressed = {
      error: "Recipient suppressed",
      code: "RECIPIENT_SUPPRESSED",
      success: false,
      details: [
        {
          field: "to.0",
          message: `x@bounce.test is suppressed (DELETE /api/v1/suppressions/x%40bounce.test lets you send to it again): an email to it bounced on ${new Date().toISOString().slice(0, 10)}`,
        },
      ],
    };
    for (const key of [user.testKey, user.key]) {
      const again = await post(key, message(user, { to: "x@bounce.test" }));
      expect([again.status, again.body]).toEqual([422, suppressed]);
    }
    expect(await testEmailsToday(user)).toBe(1);
    expect(resend.received).toEqual([]);
  });

  it("the 101st test send of the day is 429 with the email limit's body, and nothing is sent or recorded", async () => {
    const user = await account();
    await setTestEmailsToday(user, 99);
    expect((await post(user.testKey, message(user))).status).toBe(200);
    expect(await testEmailsToday(user)).toBe(100);

    const refused = await post(user.testKey, message(user));
    expect([refused.status, refused.body]).toEqual([429, testLimitBody()]);
    expectRetryUntilMidnight(refused.headers.get("retry-after"));
    expect((await storedEmails(user)).length).toBe(1);
    expect(await testEmailsToday(user)).toBe(100);
    expect(await liveCounts(user)).toEqual({ month: 0, daily: 0, ledger: 0 });
    expect(resend.received).toEqual([]);
  });

  it("a live key's send on the same account still counts and reaches Resend", async () => {
    const user = await account();
    await setTestEmailsToday(user, 100);
    const result = await post(user.key, message(user));
    expect([result.status, result.body]).toEqual([
      200,
      {
        success: true,
        data: {
          id: "re_live_1",
          from: `hello@${user.domain}`,
          to: ["ann@example.com"],
          subject: "Welcome aboard",
          locale: "en",
          sent_at: ISO,
        },
        meta: { email_usage: emailUsage("free", 1) },
      },
    ]);
    expect(resend.received.map(({ method, url }) => ({ method, url }))).toEqual([{ method: "POST", url: "/emails" }]);
    expect(await liveCounts(user)).toEqual({ month: 1, daily: 1, ledger: 0 });
    expect(await testEmailsToday(user)).toBe(100);
    const [stored] = await storedEmails(user);
    expect(stored).toEqual({
      id: expect.any(String),
      provider: "resend",
      provider_message_id: "re_live_1",
      test: false,
      status: "sent",
    });
    expect((await get(user.key, "re_live_1")).body.email.test).toBe(false);
  });

  it("an Idempotency-Key replays the test send; the same key on a live key is a send of its own", async () => {
    const user = await account();
    const first = await post(user.testKey, message(user), { "idempotency-key": "ci-run-1" });
    const replay = await post(user.testKey, message(user), { "idempotency-key": "ci-run-1" });
    expect([first.status, replay.status, replay.headers.get("idempotent-replayed"), replay.body]).toEqual([
      200,
      200,
      "true",
      first.body,
    ]);
    expect(await testEmailsToday(user)).toBe(1);
    expect(resend.received).toEqual([]);

    // A live key's request is never answered with a test send's (nor a test one's with a live one's).
    const live = await post(user.key, message(user), { "idempotency-key": "ci-run-1" });
    expect([live.status, live.headers.get("idempotent-replayed"), live.body.data.id]).toEqual([200, null, "re_live_1"]);
    expect(resend.received.map(({ method, url }) => ({ method, url }))).toEqual([{ method: "POST", url: "/emails" }]);
    expect(await liveCounts(user)).toEqual({ month: 1, daily: 1, ledger: 0 });
    expect(await storedEmails(user)).toEqual([
      { id: first.body.data.id, provider: "outbox", provider_message_id: null, test: true, status: "sent" },
      { id: expect.any(String), provider: "resend", provider_message_id: "re_live_1", test: false, status: "sent" },
    ]);
  });

  it("scheduled: kept in the outbox and delivered by the dispatcher; canceled, it gives its test send back", async () => {
    const user = await account();
    const later = new Date(Date.now() + 3600_000).toISOString();
    const scheduled = await post(user.testKey, message(user, { scheduled_at: later }));
    expect([scheduled.status, scheduled.body.data]).toEqual([
      200,
      {
        id: UUID,
        from: `hello@${user.domain}`,
        to: ["ann@example.com"],
        subject: "Welcome aboard",
        locale: "en",
        sent_at: ISO,
        scheduled_at: later,
        test: true,
      },
    ]);
    const other = await post(user.testKey, message(user, { scheduled_at: later }));
    expect(await testEmailsToday(user)).toBe(2);

    const canceled = await call(cancel, `/api/v1/emails/${other.body.data.id}/cancel`, {
      method: "POST",
      params: { id: other.body.data.id },
      headers: { "x-api-key": user.testKey },
    });
    expect([canceled.status, canceled.body]).toEqual([
      200,
      {
        success: true,
        email: described(
          user,
          other.body.data.id,
          "canceled",
          [
            { type: "scheduled", at: ISO },
            { type: "canceled", at: ISO },
          ],
          { sent_at: null, scheduled_at: later },
        ),
      },
    ]);
    expect(await testEmailsToday(user)).toBe(1);

    await dispatchDueScheduledEmails({ accountId: user.accountId, now: new Date(Date.now() + 2 * 3600_000) });
    const delivered = await get(user.testKey, scheduled.body.data.id);
    expect(delivered.body).toEqual({
      success: true,
      email: described(
        user,
        scheduled.body.data.id,
        "delivered",
        [
          { type: "scheduled", at: ISO },
          { type: "sent", at: ISO },
          { type: "delivered", at: ISO },
        ],
        { scheduled_at: later },
      ),
    });
    expect(await liveCounts(user)).toEqual({ month: 0, daily: 0, ledger: 0 });
    expect(resend.received).toEqual([]);
  });
});

describe("a test key's batch", () => {
  it("counts one test send per email, reaches nothing, and is refused whole past the day's limit", async () => {
    const user = await account();
    const result = await postBatch(user.testKey, { emails: [message(user), message(user), message(user)] });
    const record = {
      id: UUID,
      from: `hello@${user.domain}`,
      to: ["ann@example.com"],
      subject: "Welcome aboard",
      locale: "en",
      sent_at: ISO,
      test: true,
    };
    expect([result.status, result.body]).toEqual([
      200,
      { success: true, data: [record, record, record], meta: { email_usage: emailUsage("free", 0) } },
    ]);
    expect(resend.received).toEqual([]);
    expect(await testEmailsToday(user)).toBe(3);
    expect(await liveCounts(user)).toEqual({ month: 0, daily: 0, ledger: 0 });
    expect((await storedEmails(user)).map((email) => [email.provider, email.test, email.status])).toEqual([
      ["outbox", true, "sent"],
      ["outbox", true, "sent"],
      ["outbox", true, "sent"],
    ]);
    for (const { id } of result.body.data) {
      expect((await get(user.testKey, id)).body.email.status).toBe("delivered");
    }

    await setTestEmailsToday(user, 98);
    const refused = await postBatch(user.testKey, { emails: [message(user), message(user), message(user)] });
    expect([refused.status, refused.body]).toEqual([429, testLimitBody("; 2 are left today and this batch holds 3")]);
    expectRetryUntilMidnight(refused.headers.get("retry-after"));
    expect(await testEmailsToday(user)).toBe(98);
    expect((await storedEmails(user)).length).toBe(3);
    expect(resend.received).toEqual([]);
  });

  it("is decided in the statement that records it: all or none", async () => {
    const user = await account();
    await setTestEmailsToday(user, 98);
    const { start } = billingPeriod();
    const items = ["a@example.com", "b@example.com", "c@example.com"].map((to) => ({
      templateId: user.welcomeId,
      templateVersion: "1",
      from: `hello@${user.domain}`,
      to: [to],
      cc: [],
      bcc: [],
      replyTo: [],
      subject: "Hi",
      html: "<p>Hi</p>",
      text: "Hi",
      headers: {},
      tags: [],
      deliveryEvent: outboxDeliveryEvent([to]),
    }));
    const batch = {
      accountId: user.accountId,
      status: "sent" as const,
      provider: "outbox",
      providerIdempotencyKey: null,
    };
    const quota = { periodStart: start, limit: 100, overage: false, testDailyLimit: 100 };
    expect(await recordCountedEmails(items, batch, quota)).toEqual({ allowed: false, used: 0, testUsed: 98 });
    expect([await testEmailsToday(user), (await storedEmails(user)).length]).toEqual([98, 0]);
    const fits = await recordCountedEmails(items.slice(0, 2), batch, quota);
    expect([fits.allowed, await testEmailsToday(user), (await storedEmails(user)).length]).toEqual([true, 100, 2]);
  });

  it("two concurrent batches racing for the last test sends grant no more than 100", async () => {
    const user = await account();
    await setTestEmailsToday(user, 95);
    const batch = { emails: Array.from({ length: 5 }, () => message(user)) };
    const results = await Promise.all([postBatch(user.testKey, batch), postBatch(user.testKey, batch)]);
    expect(results.map((result) => result.status).sort()).toEqual([200, 429]);
    expect(results.find((result) => result.status === 429)!.body).toEqual(
      testLimitBody("; 0 are left today and this batch holds 5"),
    );
    expect(await testEmailsToday(user)).toBe(100);
    expect((await storedEmails(user)).length).toBe(5);
    expect(resend.received).toEqual([]);
  });
});
