import { spawn } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { GET as dispatchCron } from "@/app/api/cron/dispatch-scheduled/route";
import { resetConfig } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { addSendingDomain } from "@/lib/db/domains";
import { billingPeriod } from "@/lib/plans";
import { recoverOrphanedEmails } from "@/lib/send";
import { addToLibrary, call, catalogueId, createUser, type TestUser } from "./support/api";

// The fault: the server dies (SIGKILL) after an email was counted and recorded, while Resend holds the hand-off. A
// child process runs the real POST /api/v1/send against a stand-in for Resend on 127.0.0.1 that accepts the request
// and never answers; the test kills the child there. Then, as a restarted server, the dispatcher must either hand the
// email over again under the same Idempotency-Key (Resend delivers it once) or mark it failed with its count given back.

type Received = { method: string; url: string; headers: IncomingHttpHeaders; body: any };

let server: Server;
let baseUrl: string;
let received: Received[] = [];
let answering = false;
const CRON_SECRET = "cron-secret-for-crash-tests-0123456789";
const saved = { key: process.env.RESEND_API_KEY, url: process.env.RESEND_BASE_URL, cron: process.env.CRON_SECRET };

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      received.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: text ? JSON.parse(text) : undefined });
      if (!answering) return; // holds the hand-off: the connection stays open, no answer
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ id: "re_recovered" }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  for (const [name, value] of [["RESEND_API_KEY", saved.key], ["RESEND_BASE_URL", saved.url], ["CRON_SECRET", saved.cron]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetConfig();
});

beforeEach(() => {
  received = [];
  answering = false;
  process.env.RESEND_API_KEY = "re_test_crash_0123456789";
  process.env.RESEND_BASE_URL = baseUrl;
  process.env.CRON_SECRET = CRON_SECRET;
  resetConfig();
});

async function sender(): Promise<TestUser & { welcomeId: string; domain: string }> {
  const user = await createUser("free");
  const domain = `crash-${randomUUID().slice(0, 8)}.example`;
  await addSendingDomain(user.accountId, { domain, verified: true });
  await getDb()`update sending_domains set provider_status = 'verified' where account_id = ${user.accountId}`;
  await addToLibrary(user, "welcome");
  return { ...user, welcomeId: await catalogueId("welcome"), domain };
}

/** Runs POST /send in a child process and SIGKILLs it once Resend holds the hand-off. */
async function sendAndKill(user: TestUser & { welcomeId: string }, idempotencyKey: string | null): Promise<void> {
  const child = spawn("node_modules/.bin/tsx", ["--import", "./scripts/server-only-hook.mjs", "tests/support/send-child.ts"], {
    env: {
      ...process.env,
      DATABASE_URL: inject("databaseUrl"),
      LETTERPRESS_API_KEY: user.key,
      SEND_BODY: JSON.stringify({ template_id: user.welcomeId, to: "ann@example.com", subject: "Crash test" }),
      ...(idempotencyKey ? { SEND_IDEMPOTENCY_KEY: idempotencyKey } : {}),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once("exit", (_code, signal) => resolve(signal)));
  try {
    await expect.poll(() => received.length, { timeout: 60_000, interval: 100 }).toBe(1);
  } catch (error) {
    child.kill("SIGKILL");
    throw new Error(`the child never reached Resend: ${output}`, { cause: error });
  }
  child.kill("SIGKILL");
  expect(await exited).toBe("SIGKILL");
  expect(output).toBe(""); // it never answered
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
  return getDb()<{ id: string; status: string; provider_message_id: string | null; error: string | null; handoff_attempts: number; usage_period_start: Date | null }[]>`
    select id, status, provider_message_id, error, handoff_attempts, usage_period_start from sent_emails where account_id = ${user.accountId}`;
}

const runDispatcher = () => call(dispatchCron, "/api/cron/dispatch-scheduled", { headers: { authorization: `Bearer ${CRON_SECRET}` } });

describe("a server killed between counting an email and handing it to Resend", () => {
  it.each([
    ["the caller's Idempotency-Key", "crash-order-1"],
    ["no Idempotency-Key", null],
  ])("with %s: after the restart the dispatcher hands it over again under the same key, and it is delivered and counted once", { timeout: 120_000 }, async (_name, callerKey) => {
    const user = await sender();
    await sendAndKill(user, callerKey);

    const [orphan] = await emailRows(user);
    expect(orphan).toMatchObject({ status: "pending", provider_message_id: null, handoff_attempts: 0 });
    expect(await emailsCounted(user)).toEqual({ monthly: 1, daily: 1 });
    const key = callerKey ? `lp-${createHash("sha256").update(`${user.accountId}\n${callerKey}`).digest("hex")}` : `lp-email-${orphan.id}`;
    expect(received[0].headers["idempotency-key"]).toBe(key);

    // Restarted, before the grace period: a hand-off may still be running elsewhere, so nothing is retried yet.
    answering = true;
    expect((await runDispatcher()).status).toBe(200);
    expect(received).toHaveLength(1);

    // Past the grace period (2 minutes).
    await getDb()`update sent_emails set created_at = created_at - interval '3 minutes' where id = ${orphan.id}`;
    const run = await runDispatcher();
    expect(run.status).toBe(200);
    expect(run.body.recovered_emails).toBeGreaterThanOrEqual(1);
    const retries = received.slice(1);
    expect(retries.map((r) => `${r.method} ${r.url} ${r.headers["idempotency-key"]}`)).toEqual([`POST /emails ${key}`]);
    expect(retries[0].body).toEqual(received[0].body);

    expect(await emailRows(user)).toEqual([
      { id: orphan.id, status: "sent", provider_message_id: "re_recovered", error: null, handoff_attempts: 1, usage_period_start: billingPeriod().start },
    ]);
    expect(await emailsCounted(user)).toEqual({ monthly: 1, daily: 1 });

    // Delivered: later runs leave it alone.
    expect((await runDispatcher()).status).toBe(200);
    expect(received).toHaveLength(2);
  });

  it("past Resend's 24-hour idempotency window, the email is marked failed and its count given back, without a retry", { timeout: 120_000 }, async () => {
    const user = await sender();
    await sendAndKill(user, null);
    const [orphan] = await emailRows(user);
    expect(await emailsCounted(user)).toEqual({ monthly: 1, daily: 1 });

    answering = true;
    const result = await recoverOrphanedEmails({ now: new Date(Date.now() + 24 * 3600_000) });
    expect(result.failed).toBeGreaterThanOrEqual(1);
    expect(received).toHaveLength(1); // no retry: Resend might no longer recognise the key
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
  });
});
