import { spawn } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import { beforeEach, describe, expect, inject, it } from "vitest";
import { GET as dispatchCron } from "@/app/api/cron/dispatch-scheduled/route";
import { POST as send } from "@/app/api/v1/send/route";
import { getDb } from "@/lib/db/client";
import { addSendingDomain } from "@/lib/sending-domains/data";
import { recordCountedEmail } from "@/lib/sent-emails/data/records";
import { billingPeriod, PLANS } from "@/lib/core/plans";
import { recoverOrphanedEmails } from "@/lib/sending/recovery";
import { addToLibrary, auth, call, catalogueId, createUser, type TestUser } from "../support/api";
import { envForSuite } from "../support/env";
import { useResendStandIn } from "../support/resend-stand-in";

// The fault: the server dies (SIGKILL) after an email was counted and recorded, while Resend holds the hand-off. A
// child process runs the real POST /api/v1/send against a stand-in for Resend on 127.0.0.1 that accepts the request
// and never answers; the test kills the child there. Then, as a restarted server, the dispatcher must either hand the
// email over again under the same Idempotency-Key (Resend delivers it once) or mark it failed with its count given back.

const resend = useResendStandIn();
const CRON_SECRET = "cron-secret-for-crash-tests-0123456789";
envForSuite({ CRON_SECRET });

// Resend holds each hand-off (the connection stays open, no answer) until the test has it answer: its acceptance
// unless the test sets a failure.
beforeEach(() => {
  resend.holding = true;
  resend.reply = { status: 200, body: { id: "re_recovered" } };
});

async function sender(): Promise<TestUser & { welcomeId: string; domain: string }> {
  const user = await createUser("free");
  const domain = `crash-${randomUUID().slice(0, 8)}.example`;
  resend.domains.add(domain);
  await addSendingDomain(user.accountId, { domain, verified: true });
  await getDb()`update sending_domains set provider_status = 'verified' where account_id = ${user.accountId}`;
  await addToLibrary(user, "welcome");
  return { ...user, welcomeId: await catalogueId("welcome"), domain };
}

const CRASH_BODY = { to: "ann@example.com", subject: "Crash test" };

/** Runs POST /send in a child process and SIGKILLs it once Resend holds the hand-off. */
async function sendAndKill(user: TestUser & { welcomeId: string }, idempotencyKey: string | null): Promise<void> {
  const child = spawn(
    "node_modules/.bin/tsx",
    ["--import", "./bin/server-only-hook.mjs", "tests/support/send-child.ts"],
    {
      env: {
        ...process.env,
        DATABASE_URL: inject("databaseUrl"),
        LETTERPRESS_API_KEY: user.key,
        SEND_BODY: JSON.stringify({ template_id: user.welcomeId, ...CRASH_BODY }),
        ...(idempotencyKey ? { SEND_IDEMPOTENCY_KEY: idempotencyKey } : {}),
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.once("exit", (_code, signal) => resolve(signal)),
  );
  try {
    await expect.poll(() => resend.received.length, { timeout: 60_000, interval: 100 }).toBe(1);
  } catch (error) {
    child.kill("SIGKILL");
    throw new Error(`the child never reached Resend: ${output}`, { cause: error });
  }
  child.kill("SIGKILL");
  expect(await exited).toBe("SIGKILL");
  expect(output).toBe(""); // it never answered
  resend.forgetHeld(); // the killed child's hand-off: nobody waits for its answer
}

async function emailsCounted(user: TestUser) {
  const { start } = billingPeriod();
  const [monthly] = await getDb()<{ count: number }[]>`
    select count from usage_counters where account_id = ${user.accountId} and metric = 'emails' and period_start = ${start}`;
  const [daily] = await getDb()<{ count: number }[]>`
    select sum(count)::int as count from usage_daily where account_id = ${user.accountId} and metric = 'emails'`;
  return { monthly: monthly?.count ?? 0, daily: daily?.count ?? 0 };
}

async function emailRows(user: TestUser) {
  return getDb()<
    {
      id: string;
      status: string;
      provider_message_id: string | null;
      error: string | null;
      handoff_attempts: number;
      usage_period_start: Date | null;
    }[]
  >`
    select id, status, provider_message_id, error, handoff_attempts, usage_period_start from sent_emails where account_id = ${user.accountId}`;
}

const runDispatcher = () =>
  call(dispatchCron, "/api/cron/dispatch-scheduled", { headers: { authorization: `Bearer ${CRON_SECRET}` } });

describe("a server killed between counting an email and handing it to Resend", () => {
  it.each([
    ["the caller's Idempotency-Key", "crash-order-1"],
    ["no Idempotency-Key", null],
  ])(
    "with %s: after the restart the dispatcher hands it over again under the same key, and it is delivered and counted once",
    { timeout: 120_000 },
    async (_name, callerKey) => {
      const user = await sender();
      await sendAndKill(user, callerKey);

      const [orphan] = await emailRows(user);
      expect(orphan).toMatchObject({ status: "pending", provider_message_id: null, handoff_attempts: 0 });
      expect(await emailsCounted(user)).toEqual({ monthly: 1, daily: 1 });
      const key = callerKey
        ? `lp-${createHash("sha256").update(`${user.accountId}\n${callerKey}`).digest("hex")}`
        : `lp-email-${orphan.id}`;
      expect(resend.received[0].headers["idempotency-key"]).toBe(key);

      // Restarted, the dispatcher runs before the grace period: a hand-off may still be running, nothing is retried yet.
      resend.holding = false;
      const early = await runDispatcher();
      expect(early.status).toBe(200);
      expect(early.body).toEqual({
        success: true,
        dispatched: expect.any(Number),
        recovered_emails: expect.any(Number),
        failed_emails: expect.any(Number),
        expired_idempotency_keys: expect.any(Number),
        held_events_applied: expect.any(Number),
        folded_metric_events: expect.any(Number),
      });
      expect(resend.received).toHaveLength(1);

      // Past the grace period (2 minutes); only this account's emails, as other test files send in the same database.
      expect(
        await recoverOrphanedEmails({ now: new Date(Date.now() + 3 * 60_000), accountId: user.accountId }),
      ).toEqual({ recovered: 1, failed: 0 });
      const retries = resend.received.slice(1);
      expect(retries.map((r) => `${r.method} ${r.url} ${r.headers["idempotency-key"]}`)).toEqual([
        `POST /emails ${key}`,
      ]);
      expect(retries[0].body).toEqual(resend.received[0].body);

      expect(await emailRows(user)).toEqual([
        {
          id: orphan.id,
          status: "sent",
          provider_message_id: "re_recovered",
          error: null,
          handoff_attempts: 1,
          usage_period_start: billingPeriod().start,
        },
      ]);
      expect(await emailsCounted(user)).toEqual({ monthly: 1, daily: 1 });

      // Delivered: later runs leave it alone.
      expect(
        await recoverOrphanedEmails({ now: new Date(Date.now() + 10 * 60_000), accountId: user.accountId }),
      ).toEqual({ recovered: 0, failed: 0 });
      expect(resend.received).toHaveLength(2);
    },
  );

  it(
    "past Resend's 24-hour idempotency window, the email is marked failed and its count given back, without a retry",
    { timeout: 120_000 },
    async () => {
      const user = await sender();
      await sendAndKill(user, null);
      const [orphan] = await emailRows(user);
      expect(await emailsCounted(user)).toEqual({ monthly: 1, daily: 1 });

      resend.holding = false;
      // A day later (only this account's emails: other test files' sends may be in flight in the same database).
      const result = await recoverOrphanedEmails({
        now: new Date(Date.now() + 24 * 3600_000),
        accountId: user.accountId,
      });
      expect(result).toEqual({ recovered: 0, failed: 1 });
      expect(resend.received).toHaveLength(1); // no retry: Resend might no longer recognise the key
      expect(await emailRows(user)).toEqual([
        {
          id: orphan.id,
          status: "failed",
          provider_message_id: null,
          error: "the hand-off to the provider was interrupted and could not be retried in time",
          handoff_attempts: 0,
          usage_period_start: null,
        },
      ]);
      expect(await emailsCounted(user)).toEqual({ monthly: 0, daily: 0 });
    },
  );
});

// The caller retries under the same Idempotency-Key once its first request's claim went stale (two minutes, also the
// dispatcher's grace period): the retry must not record and count the email again, whether the dispatcher's recovery
// ran before it or is running while it arrives. Resend dedupes the hand-offs, so one email is delivered: one counted.
describe("a caller's retry of a request killed between counting and handing off", () => {
  const retry = (user: TestUser & { welcomeId: string }, key: string) =>
    call(send, "/api/v1/send", {
      method: "POST",
      headers: { ...auth(user), "idempotency-key": key },
      body: { template_id: user.welcomeId, ...CRASH_BODY },
    });

  /** Two minutes and more pass: the killed request's claim of the key is stale, its email past the grace period. */
  async function threeMinutesLater(user: TestUser): Promise<void> {
    await getDb()`update idempotency_keys set created_at = created_at - interval '3 minutes' where account_id = ${user.accountId}`;
    await getDb()`update sent_emails set created_at = created_at - interval '3 minutes' where account_id = ${user.accountId}`;
  }

  /** The answer to the killed request, which its retry replays: the email Resend accepted from the dispatcher. */
  async function responseFor(user: TestUser & { domain: string }) {
    const [email] = await getDb()<
      { created_at: Date }[]
    >`select created_at from sent_emails where account_id = ${user.accountId}`;
    const limit = PLANS.free.emailsPerMonth;
    return {
      success: true,
      data: {
        id: "re_recovered",
        from: `hello@${user.domain}`,
        to: ["ann@example.com"],
        subject: "Crash test",
        sent_at: email.created_at.toISOString(),
      },
      meta: {
        email_usage: {
          monthly_limit: limit,
          current_usage: 1,
          remaining: limit - 1,
          is_overage: false,
          overage_emails: 0,
          plan_type: "free",
          billing_usage_reported: false,
        },
      },
    };
  }

  const handoffs = () => resend.received.map((r) => `${r.method} ${r.url} ${r.headers["idempotency-key"]}`);

  it(
    "after the dispatcher handed the email over, the retry replays its answer: nothing sent or counted again",
    { timeout: 120_000 },
    async () => {
      const user = await sender();
      await sendAndKill(user, "crash-then-retry");
      const key = `lp-${createHash("sha256").update(`${user.accountId}\ncrash-then-retry`).digest("hex")}`;
      await threeMinutesLater(user);

      resend.holding = false;
      expect(await recoverOrphanedEmails({ accountId: user.accountId })).toEqual({ recovered: 1, failed: 0 });
      const answer = await responseFor(user);

      for (let attempt = 0; attempt < 2; attempt += 1) {
        const result = await retry(user, "crash-then-retry");
        expect([result.status, result.headers.get("idempotent-replayed")]).toEqual([200, "true"]);
        expect(result.body).toEqual(answer);
      }
      expect(handoffs()).toEqual([`POST /emails ${key}`, `POST /emails ${key}`]);
      expect(await emailRows(user)).toMatchObject([
        { status: "sent", provider_message_id: "re_recovered", handoff_attempts: 1 },
      ]);
      expect(await emailsCounted(user)).toEqual({ monthly: 1, daily: 1 });
    },
  );

  it(
    "while the dispatcher is handing the email over, the retry answers 409 IDEMPOTENCY_IN_PROGRESS, then replays its answer",
    { timeout: 120_000 },
    async () => {
      const user = await sender();
      await sendAndKill(user, "retry-during-recovery");
      const key = `lp-${createHash("sha256").update(`${user.accountId}\nretry-during-recovery`).digest("hex")}`;
      await threeMinutesLater(user);

      // The dispatcher's hand-off is held by Resend while the retry arrives.
      const recovery = recoverOrphanedEmails({ accountId: user.accountId });
      await expect.poll(() => resend.received.length, { timeout: 10_000, interval: 20 }).toBe(2);
      let retried: Awaited<ReturnType<typeof retry>> | undefined;
      const during = retry(user, "retry-during-recovery").then((result) => (retried = result));
      await expect
        .poll(() => retried !== undefined || resend.received.length > 2, { timeout: 10_000, interval: 20 })
        .toBe(true);
      expect(handoffs()).toEqual([`POST /emails ${key}`, `POST /emails ${key}`]);
      await during;
      expect(retried?.status).toBe(409);
      expect(retried?.headers.get("retry-after")).toBe("1");
      expect(retried?.body).toEqual({
        error: "A request with this idempotency key is still in progress",
        code: "IDEMPOTENCY_IN_PROGRESS",
        success: false,
        message: "Retry shortly with the same key to receive its response.",
      });
      expect(await emailsCounted(user)).toEqual({ monthly: 1, daily: 1 });

      resend.release();
      expect(await recovery).toEqual({ recovered: 1, failed: 0 });
      const answer = await responseFor(user);
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const result = await retry(user, "retry-during-recovery");
        expect([result.status, result.headers.get("idempotent-replayed")]).toEqual([200, "true"]);
        expect(result.body).toEqual(answer);
      }
      expect(handoffs()).toEqual([`POST /emails ${key}`, `POST /emails ${key}`]);
      expect(await emailRows(user)).toMatchObject([
        { status: "sent", provider_message_id: "re_recovered", handoff_attempts: 1 },
      ]);
      expect(await emailsCounted(user)).toEqual({ monthly: 1, daily: 1 });
    },
  );
});

describe("the dispatcher's rules for interrupted hand-offs", () => {
  const minutes = (n: number) => new Date(Date.now() + n * 60_000);

  /** A counted email left pending, as a killed server leaves it (recorded the way POST /send records it). */
  async function orphan(
    user: TestUser & { domain: string },
    providerIdempotencyKey: string | null = null,
  ): Promise<string> {
    const counted = await recordCountedEmail(
      {
        accountId: user.accountId,
        templateId: await catalogueId("welcome"),
        templateVersion: "1",
        status: "pending",
        provider: "resend",
        from: `hello@${user.domain}`,
        to: ["ann@example.com"],
        cc: [],
        bcc: [],
        replyTo: [],
        subject: "Interrupted",
        html: "<p>Hi</p>",
        text: "Hi",
        headers: {},
        attachments: [],
        tags: [],
        scheduledAt: null,
        providerIdempotencyKey,
      },
      { periodStart: billingPeriod().start, limit: 100, overage: false },
    );
    if (!counted.allowed) throw new Error("not counted");
    return counted.id;
  }

  it("a refusal by Resend (422) fails the email and gives its count back at once", async () => {
    const user = await sender();
    const id = await orphan(user);
    resend.holding = false;
    resend.reply = { status: 422, body: { statusCode: 422, name: "validation_error", message: "Invalid `to` field." } };
    expect(await recoverOrphanedEmails({ now: minutes(3), accountId: user.accountId })).toEqual({
      recovered: 0,
      failed: 1,
    });
    expect(resend.received.map((r) => r.headers["idempotency-key"])).toEqual([`lp-email-${id}`]);
    expect(await emailRows(user)).toEqual([
      {
        id,
        status: "failed",
        provider_message_id: null,
        error: "resend: HTTP 422: Invalid `to` field.",
        handoff_attempts: 1,
        usage_period_start: null,
      },
    ]);
    expect(await emailsCounted(user)).toEqual({ monthly: 0, daily: 0 });
  });

  it("an unanswered retry (500) is tried again once per grace period, at most 5 times, then failed and given back", async () => {
    const user = await sender();
    const id = await orphan(user);
    resend.holding = false;
    resend.reply = { status: 500, body: { statusCode: 500, name: "application_error", message: "Down." } };
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      await recoverOrphanedEmails({ now: minutes(3 * attempt), accountId: user.accountId });
      // Another run inside the claim's grace period: not retried twice.
      await recoverOrphanedEmails({ now: minutes(3 * attempt + 1), accountId: user.accountId });
      expect(resend.received).toHaveLength(attempt);
      expect(await emailRows(user)).toMatchObject([{ status: "pending", handoff_attempts: attempt }]);
    }
    expect(new Set(resend.received.map((r) => r.headers["idempotency-key"]))).toEqual(new Set([`lp-email-${id}`]));
    expect(await recoverOrphanedEmails({ now: minutes(18), accountId: user.accountId })).toEqual({
      recovered: 0,
      failed: 1,
    });
    expect(resend.received).toHaveLength(5);
    expect(await emailRows(user)).toEqual([
      {
        id,
        status: "failed",
        provider_message_id: null,
        error: "the hand-off to the provider was interrupted and every retry failed",
        handoff_attempts: 5,
        usage_period_start: null,
      },
    ]);
    expect(await emailsCounted(user)).toEqual({ monthly: 0, daily: 0 });
  });

  it("an email holds its key for 24 hours at most: a later request with the key is a new email, counted", async () => {
    const user = await sender();
    const key = `lp-${createHash("sha256").update(`${user.accountId}\nday-old`).digest("hex")}`;
    const dayOld = await orphan(user, key);
    // Handed over, but its request's answer was never stored (so it still holds the key), a day and more ago.
    await getDb()`update sent_emails set status = 'sent', created_at = now() - interval '25 hours' where id = ${dayOld}`;
    const next = await orphan(user, key);
    expect(next).not.toBe(dayOld);
    expect(
      await getDb()`select id, provider_idempotency_key from sent_emails where account_id = ${user.accountId} order by created_at`,
    ).toEqual([
      { id: dayOld, provider_idempotency_key: null },
      { id: next, provider_idempotency_key: key },
    ]);
    expect(await emailsCounted(user)).toEqual({ monthly: 2, daily: 2 });
  });

  it("a retry recorded under the interrupted email's key finds that email: nothing recorded or counted, and one email is handed over", async () => {
    const user = await sender();
    const key = `lp-${createHash("sha256").update(`${user.accountId}\nretried`).digest("hex")}`;
    const interrupted = await orphan(user, key);
    expect(await orphan(user, key)).toBe(interrupted);
    expect(await emailRows(user)).toMatchObject([{ id: interrupted, status: "pending" }]);
    expect(await emailsCounted(user)).toEqual({ monthly: 1, daily: 1 });

    resend.holding = false;
    expect(await recoverOrphanedEmails({ now: minutes(3), accountId: user.accountId })).toEqual({
      recovered: 1,
      failed: 0,
    });
    expect(resend.received.map((r) => r.headers["idempotency-key"])).toEqual([key]);
    expect(await emailRows(user)).toEqual([
      {
        id: interrupted,
        status: "sent",
        provider_message_id: "re_recovered",
        error: null,
        handoff_attempts: 1,
        usage_period_start: billingPeriod().start,
      },
    ]);
    expect(await emailsCounted(user)).toEqual({ monthly: 1, daily: 1 });
  });
});
