import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import postgres from "postgres";
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, inject, it, vi } from "vitest";
import { getDb } from "@/lib/db/client";
import { WEBHOOK_ATTEMPTS_IN_FLIGHT, WEBHOOK_ATTEMPTS_PER_ACCOUNT, WEBHOOK_LEASE_SECONDS } from "@/lib/core/limits";
import {
  claimDueDeliveries,
  finishAttempts,
  replayDelivery,
  type AttemptOutcome,
  type AttemptToFinish,
} from "@/lib/webhooks/data/deliveries";
import { createTestEvent, enqueueWebhookEvent } from "@/lib/webhooks/data/events";
import {
  deleteExpiredWebhooks,
  deliverDueWebhooks,
  deliverWebhookNow,
  deliverWebhooksContinually,
  type WebhookSend,
} from "@/lib/webhooks/delivery";
import { GET as getUsage } from "@/app/api/v1/usage/route";
import { auth, call, createUser } from "../support/api";
import { withEnv } from "../support/env";
import { addMember, createTeam } from "../support/teams";
import { addEndpoint, attemptRows, deliveryRow, newSecret } from "../support/webhooks";

// The runner on a database of its own (vitest.config.ts, OWN_DATABASE): it claims every due delivery, whoever made it.
// Time is the test's: claims and finishes are made at the `now` each call is given, never by waiting.

const T = new Date("2031-03-01T10:00:00.000Z");
const at = (ms: number) => new Date(T.getTime() + ms);
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

afterEach(async () => {
  const db = getDb();
  await db`delete from webhook_events`;
  await db`delete from webhook_endpoints`;
});

const failing =
  (status = 500): WebhookSend =>
  async () => ({
    status,
    durationMs: 0,
    excerpt: "down",
    succeeded: false,
  });
/** One attempt recorded alone (finish_webhook_attempts of one item). */
async function finishAttempt(claim: AttemptToFinish["claim"], attempt: Omit<AttemptToFinish, "claim">) {
  const [finished] = await finishAttempts([{ claim, ...attempt }]);
  return finished;
}

/** A sender whose `n` attempts all answer once the last has started: they end in one turn of the event loop. */
function endingTogether(n: number): WebhookSend {
  let release!: () => void;
  const together = new Promise<void>((resolve) => (release = resolve));
  let started = 0;
  return async () => {
    if (++started === n) release();
    await together;
    return { status: 204, durationMs: 0, excerpt: "", succeeded: true };
  };
}

const answering: WebhookSend = async () => ({ status: 204, durationMs: 0, excerpt: "", succeeded: true });

/** An event of `accountId` at `now`, heard by its endpoints of email.delivered; its deliveries' ids, endpoint order. */
async function delivered(accountId: string, now: Date, data: Record<string, unknown> = { email_id: "e1" }) {
  const eventId = await enqueueWebhookEvent(accountId, "email.delivered", { data, now });
  const rows = await getDb()<{ id: string }[]>`
    select d.id from webhook_deliveries d join webhook_endpoints w on w.id = d.endpoint_id
    where d.event_id = ${eventId} order by w.created_at, w.id`;
  return { eventId: eventId!, deliveryIds: rows.map((row) => row.id) };
}

describe("claiming due deliveries", () => {
  it("claims a due delivery once under a lease, again only after the lease runs out, and a stale claim changes nothing", async () => {
    const user = await createUser();
    const previous = newSecret();
    const endpoint = await addEndpoint(user.accountId, {
      url: "https://hooks.example/a",
      events: ["email.delivered"],
      previousSecret: previous,
      previousSecretExpiresAt: at(HOUR),
    });
    const { eventId, deliveryIds } = await delivered(user.accountId, T, { email_id: "re_1" });
    const claim = (now: Date) =>
      claimDueDeliveries({ now, limit: 10, perAccount: 4, leaseSeconds: WEBHOOK_LEASE_SECONDS });

    expect(await claim(at(-1))).toEqual([]);
    const [first, ...others] = await claim(T);
    expect(others).toEqual([]);
    expect(first).toEqual({
      deliveryId: deliveryIds[0],
      claimToken: expect.any(String),
      attempt: 1,
      url: "https://hooks.example/a",
      secrets: [endpoint.secret, previous],
      eventId,
      payload: expect.any(String),
      createdAt: T,
      accountId: user.accountId,
      endpointId: endpoint.id,
    });
    expect(JSON.parse(first.payload)).toEqual({
      type: "email.delivered",
      created_at: "2031-03-01T10:00:00.000Z",
      data: { email_id: "re_1" },
    });
    expect(await deliveryRow(first.deliveryId)).toMatchObject({
      status: "pending",
      attempts: 0,
      claimed_until: at(WEBHOOK_LEASE_SECONDS * SECOND),
      claim_token: first.claimToken,
    });

    // While the lease runs, nobody claims it; past it (the process died), it is claimed again, as the same attempt.
    expect(await claim(at(WEBHOOK_LEASE_SECONDS * SECOND - 1))).toEqual([]);
    const [again] = await claim(at(2 * HOUR));
    expect(again).toMatchObject({ deliveryId: first.deliveryId, attempt: 1, secrets: [endpoint.secret] });
    expect(again.claimToken).not.toBe(first.claimToken);

    const outcome: AttemptOutcome = { status: 200, durationMs: 30, excerpt: "ok", succeeded: true };
    expect(await finishAttempt(first, { now: at(2 * HOUR), outcome, jitter: 0 })).toEqual({
      recorded: false,
      status: null,
      attempts: null,
      nextAttemptAt: null,
      endpointDisabled: false,
      endpointId: null,
      endpointUrl: null,
    });
    expect(await attemptRows(first.deliveryId)).toEqual([]);
    expect(await deliveryRow(first.deliveryId)).toMatchObject({ status: "pending", attempts: 0 });

    expect(await finishAttempt(again, { now: at(2 * HOUR + 30), outcome, jitter: 0 })).toMatchObject({
      recorded: true,
      status: "succeeded",
      attempts: 1,
      nextAttemptAt: null,
    });
    expect(await deliveryRow(first.deliveryId)).toEqual({
      status: "succeeded",
      attempts: 1,
      max_attempts: 8,
      next_attempt_at: null,
      claimed_until: null,
      claim_token: null,
      finished_at: at(2 * HOUR + 30),
    });
    expect(await attemptRows(first.deliveryId)).toEqual([
      {
        attempt: 1,
        started_at: at(2 * HOUR),
        duration_ms: 30,
        response_status: 200,
        error: null,
        response_excerpt: "ok",
      },
    ]);
    // Finished, it is nobody's to finish again.
    expect(await finishAttempt(again, { now: at(3 * HOUR), outcome, jitter: 0 })).toMatchObject({ recorded: false });
  });

  it("a claim reads its account's due deliveries and their endpoints and events by key, however much the tables grew since its plan", async () => {
    const [busy, user] = [await createUser(), await createUser()];
    const db = await getDb().reserve();
    try {
      await addEndpoint(user.accountId, { url: "https://hooks.example/a", events: ["email.delivered"] });
      for (let i = 0; i < 3; i++) await delivered(user.accountId, T);
      // Each call a minute after the last one's lease ran out, so each claims a delivery (and reads its event).
      let calls = 0;
      const blocksOfAClaim = async () => {
        const now = at(calls++ * 2 * MINUTE);
        const [row] = await db<{ "QUERY PLAN": [{ Plan: Record<string, number> }] }[]>`
          explain (analyze, buffers, format json)
          select * from claim_webhook_deliveries(${now}::timestamptz, 1, 4, 60, ${user.accountId}::uuid)`;
        const plan = row["QUERY PLAN"][0].Plan;
        expect(plan["Actual Rows"]).toBe(1);
        return plan["Shared Hit Blocks"] + plan["Shared Read Blocks"];
      };
      // Planned while the tables are small, past the 5 calls after which PostgreSQL may keep a generic plan.
      for (let call = 0; call < 8; call++) await blocksOfAClaim();
      // Then another account's 5,000 events and deliveries.
      const [{ id: busyEndpoint }] = await db<{ id: string }[]>`
        insert into webhook_endpoints (account_id, url, events, secret)
        values (${busy.accountId}, 'https://hooks.example/busy', '{email.delivered}', ${newSecret()}) returning id`;
      await db`
        with events as (
          insert into webhook_events (account_id, type, payload, created_at)
          select ${busy.accountId}, 'email.delivered', jsonb_build_object('data', jsonb_build_object('pad', repeat('x', 400))), ${T}
          from generate_series(1, 5000) returning id)
        insert into webhook_deliveries (account_id, endpoint_id, event_id, status, attempts, next_attempt_at, finished_at, created_at)
        select ${busy.accountId}, ${busyEndpoint}, id, 'succeeded', 1, null, ${T}, ${T} from events`;
      // A scan of the events alone would read some 300 blocks; by key, a claim reads a few dozen.
      const blocks = await blocksOfAClaim();
      expect(blocks).toBeLessThan(60);
    } finally {
      db.release();
    }
  });

  it("a run for one account (a request's, after its answer) attempts that account's deliveries alone", async () => {
    const [mine, theirs] = await Promise.all([createUser(), createUser()]);
    for (const user of [mine, theirs]) await addEndpoint(user.accountId, { events: ["email.delivered"] });
    const [{ deliveryIds: myIds }, { deliveryIds: theirIds }] = [
      await delivered(mine.accountId, T),
      await delivered(theirs.accountId, T),
    ];
    const attempted: string[] = [];
    const noting: WebhookSend = async (request) => {
      attempted.push(JSON.parse(request.body).data.email_id);
      return answering(request);
    };
    expect(await deliverDueWebhooks({ now: at(MINUTE), send: noting, accountId: mine.accountId })).toEqual({
      attempted: 1,
      succeeded: 1,
      retrying: 0,
      failed: 0,
      disabled: 0,
    });
    expect(await deliveryRow(myIds[0])).toMatchObject({ status: "succeeded", attempts: 1 });
    expect(await deliveryRow(theirIds[0])).toMatchObject({ status: "pending", attempts: 0, claimed_until: null });
    // Nothing more of mine; every account's run (the loop's, the cron route's) takes theirs.
    expect(await deliverDueWebhooks({ now: at(MINUTE), send: noting, accountId: mine.accountId })).toMatchObject({
      attempted: 0,
    });
    expect(await deliverDueWebhooks({ now: at(MINUTE), send: noting })).toMatchObject({ attempted: 1, succeeded: 1 });
    expect(await deliveryRow(theirIds[0])).toMatchObject({ status: "succeeded", attempts: 1 });
    expect(attempted).toEqual(["e1", "e1"]);
  });

  it("runs for two accounts started together each claim their own: one account's run holds only that account's room", async () => {
    const [first, second] = await Promise.all([createUser(), createUser()]);
    for (const user of [first, second]) {
      await addEndpoint(user.accountId, { events: ["email.delivered"] });
      await delivered(user.accountId, T);
    }
    const runs = await Promise.all(
      [first, second].map((user) =>
        deliverDueWebhooks({ now: at(MINUTE), send: answering, accountId: user.accountId }),
      ),
    );
    expect(runs).toEqual([
      { attempted: 1, succeeded: 1, retrying: 0, failed: 0, disabled: 0 },
      { attempted: 1, succeeded: 1, retrying: 0, failed: 0, disabled: 0 },
    ]);
  });

  it("a long-running server's loop drains an account's backlog at once, past the bound of attempts in flight", async () => {
    const user = await createUser();
    await addEndpoint(user.accountId, { events: ["email.delivered"] });
    const due = WEBHOOK_ATTEMPTS_PER_ACCOUNT * 2 + 2;
    const now = new Date(Date.now() - MINUTE);
    for (let i = 0; i < due; i++) await delivered(user.accountId, now, { email_id: `e${i}` });
    const attempted: string[] = [];
    const noting: WebhookSend = async (request) => {
      attempted.push(JSON.parse(request.body).data.email_id);
      return answering(request);
    };
    // One tick an hour: every delivery after the first run's is a following run's.
    const stop = deliverWebhooksContinually(HOUR, noting);
    const succeeded = async () => {
      const [{ n }] = await getDb()<{ n: number }[]>`
        select count(*)::int as n from webhook_deliveries where account_id = ${user.accountId} and status = 'succeeded'`;
      return n;
    };
    await vi.waitFor(async () => expect(await succeeded()).toBe(due), { timeout: 10_000, interval: 50 });
    await stop();
    expect(attempted.toSorted()).toEqual(Array.from({ length: due }, (_, i) => `e${i}`).toSorted());
  });

  it("skips endpoints that are disabled, and events no enabled endpoint hears are not made", async () => {
    const user = await createUser();
    await addEndpoint(user.accountId, { events: ["email.delivered"], enabled: false });
    await addEndpoint(user.accountId, { events: ["email.bounced"] });
    expect(await enqueueWebhookEvent(user.accountId, "email.delivered", { data: {}, now: T })).toBeNull();
    expect(await getDb()`select 1 from webhook_events where account_id = ${user.accountId}`).toHaveLength(0);

    const heard = await addEndpoint(user.accountId, { events: ["email.delivered"] });
    const { deliveryIds } = await delivered(user.accountId, T);
    expect(deliveryIds).toHaveLength(1);
    await getDb()`update webhook_endpoints set enabled = false where id = ${heard.id}`;
    expect(await deliverDueWebhooks({ now: at(MINUTE), send: answering })).toEqual({
      attempted: 0,
      succeeded: 0,
      retrying: 0,
      failed: 0,
      disabled: 0,
    });
    expect(await deliveryRow(deliveryIds[0])).toMatchObject({ status: "pending", attempts: 0, claimed_until: null });
  });

  it("has at most 4 attempts of one account in flight: another account's delivery is made beside a hanging endpoint", async () => {
    const slow = await createUser();
    const quick = await createUser();
    await addEndpoint(slow.accountId, { url: "https://slow.example/hook", events: ["email.delivered"] });
    await addEndpoint(quick.accountId, { url: "https://quick.example/hook", events: ["email.delivered"] });
    for (let i = 0; i < 6; i++) await delivered(slow.accountId, at(i));
    const { deliveryIds: quickIds } = await delivered(quick.accountId, at(10));

    const hanging: (() => void)[] = [];
    const send: WebhookSend = ({ url, accountId }) =>
      url.startsWith("https://slow.example")
        ? new Promise<AttemptOutcome>((resolve) =>
            hanging.push(() =>
              resolve({ status: null, durationMs: 15_000, error: "timed out", excerpt: "", succeeded: false }),
            ),
          )
        : answering({ url, headers: {}, body: "", accountId });
    const slowRun = deliverDueWebhooks({ now: at(MINUTE), send, jitter: () => 0 });
    await expect.poll(() => hanging.length).toBe(WEBHOOK_ATTEMPTS_PER_ACCOUNT);
    await expect.poll(async () => (await deliveryRow(quickIds[0])).status).toBe("succeeded");

    // Another process's run, meanwhile: the slow account has its 4 in flight, so none of its 2 left is claimed.
    expect(await deliverDueWebhooks({ now: at(MINUTE + 1), send })).toMatchObject({ attempted: 0 });
    expect(hanging).toHaveLength(WEBHOOK_ATTEMPTS_PER_ACCOUNT);

    for (const release of hanging) release();
    expect(await slowRun).toEqual({ attempted: 5, succeeded: 1, retrying: 4, failed: 0, disabled: 0 });
    expect(await deliverDueWebhooks({ now: at(MINUTE + 2), send: failing() })).toMatchObject({ attempted: 2 });
  });
  it("an endpoint that never answers holds up no API request: another account's GET /usage answers while its attempts hang", async () => {
    const hooks = await receiver(() => {});
    try {
      const slow = await createUser();
      const other = await createUser();
      await addEndpoint(slow.accountId, { url: `${hooks.url}/hang`, events: ["email.delivered"] });
      for (let i = 0; i < WEBHOOK_ATTEMPTS_PER_ACCOUNT; i++) await delivered(slow.accountId, new Date());
      await withEnv({ WEBHOOKS_ALLOW_PRIVATE_URLS: "1" }, async () => {
        let settled = false;
        const run = deliverDueWebhooks().finally(() => (settled = true));
        await expect.poll(() => hooks.received.length).toBe(WEBHOOK_ATTEMPTS_PER_ACCOUNT);
        const usage = await call(getUsage, "/api/v1/usage", { headers: auth(other) });
        expect([usage.status, usage.body.success, settled]).toEqual([200, true, false]);
        // The endpoint's connections end: its attempts fail now, instead of at their 15 s deadline.
        await hooks.close();
        expect(await run).toMatchObject({
          attempted: WEBHOOK_ATTEMPTS_PER_ACCOUNT,
          retrying: WEBHOOK_ATTEMPTS_PER_ACCOUNT,
        });
      });
    } finally {
      await hooks.close();
    }
  });

  it("accounts whose attempts are all in flight take no room from another account's due delivery", async () => {
    // Two accounts with hanging endpoints and a backlog older than anyone's: another process holds 4 of each.
    const hanging = await Promise.all([1, 2].map(() => createUser()));
    for (const user of hanging) {
      await addEndpoint(user.accountId, { url: "https://slow.example/hook", events: ["email.delivered"] });
      for (let i = 0; i < 6; i++) await delivered(user.accountId, at(i));
    }
    const held = await claimDueDeliveries({ now: at(MINUTE), limit: 8, perAccount: 4, leaseSeconds: 60 });
    expect(held).toHaveLength(8);
    const quick = await createUser();
    await addEndpoint(quick.accountId, { url: "https://quick.example/hook", events: ["email.delivered"] });
    const { deliveryIds } = await delivered(quick.accountId, at(10));

    // This process has room for 2: the two held accounts, oldest due, come first and can take none of it.
    const claimed = await claimDueDeliveries({ now: at(MINUTE + 1), limit: 2, perAccount: 4, leaseSeconds: 60 });
    expect(claimed.map((claim) => claim.deliveryId)).toEqual(deliveryIds);
  });
  it("gives a process's last room to an account with nothing in flight before one whose endpoint holds 3 attempts", async () => {
    const slow = await createUser();
    await addEndpoint(slow.accountId, { url: "https://slow.example/hook", events: ["email.delivered"] });
    for (let i = 0; i < 6; i++) await delivered(slow.accountId, at(i));
    expect(await claimDueDeliveries({ now: at(MINUTE), limit: 3, perAccount: 4, leaseSeconds: 60 })).toHaveLength(3);
    const quick = await createUser();
    await addEndpoint(quick.accountId, { url: "https://quick.example/hook", events: ["email.delivered"] });
    const { deliveryIds } = await delivered(quick.accountId, at(10));

    const [claim, ...others] = await claimDueDeliveries({
      now: at(MINUTE + 1),
      limit: 1,
      perAccount: 4,
      leaseSeconds: 60,
    });
    expect([claim.deliveryId, others]).toEqual([deliveryIds[0], []]);
  });
});

describe("attempts recorded together", () => {
  it("records each of one statement's attempts as it would alone, in the order given, a stale claim among them changing nothing", async () => {
    const user = await createUser();
    for (const path of ["a", "b", "c"]) {
      await addEndpoint(user.accountId, { url: `https://hooks.example/${path}`, events: ["email.delivered"] });
    }
    const { deliveryIds } = await delivered(user.accountId, T);
    const claims = await claimDueDeliveries({ now: T, limit: 3, perAccount: 4, leaseSeconds: WEBHOOK_LEASE_SECONDS });
    expect(claims.map((claim) => claim.deliveryId).sort()).toEqual([...deliveryIds].sort());
    const [first, second, third] = ["a", "b", "c"].map((path) =>
      claims.find((claim) => claim.url === `https://hooks.example/${path}`)!,
    );
    const stale = { ...second, claimToken: "00000000-0000-4000-8000-000000000000" };
    const succeeded: AttemptOutcome = { status: 204, durationMs: 10, excerpt: "", succeeded: true };
    const failed: AttemptOutcome = { status: 503, durationMs: 20, excerpt: "busy", succeeded: false };

    // Given in an order that is neither the order they ended in (the order they are recorded in) nor, but by chance,
    // their ids': each answer is its own item's.
    expect(
      await finishAttempts([
        { claim: first, now: at(2 * SECOND), outcome: succeeded, jitter: 0 },
        { claim: third, now: at(SECOND), outcome: failed, jitter: 0.1 },
        { claim: stale, now: at(1.5 * SECOND), outcome: succeeded, jitter: 0 },
      ]),
    ).toEqual([
      {
        recorded: true,
        status: "succeeded",
        attempts: 1,
        nextAttemptAt: null,
        endpointDisabled: false,
        endpointId: first.endpointId,
        endpointUrl: null,
      },
      {
        recorded: true,
        status: "pending",
        attempts: 1,
        nextAttemptAt: at(SECOND + 5.5 * SECOND),
        endpointDisabled: false,
        endpointId: third.endpointId,
        endpointUrl: "https://hooks.example/c",
      },
      {
        recorded: false,
        status: null,
        attempts: null,
        nextAttemptAt: null,
        endpointDisabled: false,
        endpointId: null,
        endpointUrl: null,
      },
    ]);
    expect(await deliveryRow(first.deliveryId)).toMatchObject({ status: "succeeded", finished_at: at(2 * SECOND) });
    expect(await deliveryRow(second.deliveryId)).toMatchObject({
      status: "pending",
      attempts: 0,
      claim_token: second.claimToken,
    });
    expect(await attemptRows(second.deliveryId)).toEqual([]);
    expect(await attemptRows(third.deliveryId)).toEqual([
      {
        attempt: 1,
        started_at: at(SECOND - 20),
        duration_ms: 20,
        response_status: 503,
        error: null,
        response_excerpt: "busy",
      },
    ]);
  });

  // Real PostgreSQL's row locks: the embedded database runs one transaction at a time.
  it.runIf(inject("databaseKind") === "postgresql")(
    "one account's attempts never share a statement with another's: a statement waiting on one account's endpoint holds up no other's",
    async () => {
      const [mine, theirs] = [await createUser(), await createUser()];
      const myEndpoint = await addEndpoint(mine.accountId, {
        url: "https://hooks.example/x",
        events: ["email.delivered"],
      });
      await addEndpoint(theirs.accountId, { url: "https://hooks.example/y", events: ["email.delivered"] });
      const [
        {
          deliveryIds: [myDelivery],
        },
        {
          deliveryIds: [theirDelivery],
        },
      ] = [await delivered(mine.accountId, T), await delivered(theirs.accountId, T)];
      const holding = postgres(inject("databaseUrl"), { max: 1, prepare: false, onnotice: () => {} });
      try {
        let release!: () => void;
        const released = new Promise<void>((resolve) => (release = resolve));
        let locked!: () => void;
        const isLocked = new Promise<void>((resolve) => (locked = resolve));
        // My endpoint's row held by another transaction: recording my attempt waits for it.
        const held = holding.begin(async (tx) => {
          await tx`select 1 from webhook_endpoints where id = ${myEndpoint.id} for update`;
          locked();
          await released;
        });
        await isLocked;
        const run = deliverDueWebhooks({ now: at(MINUTE), send: endingTogether(2) });
        // Theirs, which ended with mine, is recorded meanwhile.
        for (let tries = 0; (await deliveryRow(theirDelivery)).status !== "succeeded"; tries++) {
          expect(tries).toBeLessThan(100);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        expect(await deliveryRow(myDelivery)).toMatchObject({ status: "pending", attempts: 0 });
        release();
        await held;
        expect(await run).toMatchObject({ attempted: 2, succeeded: 2 });
        expect(await deliveryRow(myDelivery)).toMatchObject({ status: "succeeded", attempts: 1 });
      } finally {
        await holding.end();
      }
    },
  );

  it("an attempt the statement refuses fails alone: the account's attempts that ended with it are recorded", async () => {
    const user = await createUser();
    for (const path of ["a", "b"]) {
      await addEndpoint(user.accountId, { url: `https://hooks.example/${path}`, events: ["email.delivered"] });
    }
    await delivered(user.accountId, T);
    // The first of the two to be finished is given a jitter the statement refuses.
    let jitters = 0;
    await expect(
      deliverDueWebhooks({ now: at(MINUTE), send: endingTogether(2), jitter: () => (jitters++ === 0 ? 0.5 : 0) }),
    ).rejects.toThrow(/jitter must be within \[-0\.1, 0\.1\]/);
    const outcomes = await getDb()<{ status: string; attempts: number }[]>`
      select status, attempts from webhook_deliveries where account_id = ${user.accountId} order by status`;
    expect(outcomes).toEqual([
      { status: "pending", attempts: 0 },
      { status: "succeeded", attempts: 1 },
    ]);
  });

  // Real PostgreSQL's row locks: the embedded database runs one transaction at a time.
  it.runIf(inject("databaseKind") === "postgresql")(
    "statements recording the same endpoints' attempts in opposite orders at once never deadlock",
    async () => {
      const user = await createUser();
      await addEndpoint(user.accountId, { url: "https://hooks.example/1", events: ["email.delivered"] });
      await addEndpoint(user.accountId, { url: "https://hooks.example/2", events: ["email.delivered"] });
      const outcome: AttemptOutcome = { status: 500, durationMs: 1, excerpt: "", succeeded: false };
      const other = postgres(inject("databaseUrl"), { max: 1, prepare: false, onnotice: () => {} });
      try {
        for (let round = 0; round < 20; round++) {
          await delivered(user.accountId, at(round * HOUR));
          await delivered(user.accountId, at(round * HOUR));
          const claims = await claimDueDeliveries({
            now: at(round * HOUR),
            limit: 4,
            perAccount: 4,
            leaseSeconds: WEBHOOK_LEASE_SECONDS,
          });
          expect(claims).toHaveLength(4);
          const items = (some: typeof claims) =>
            some.map((claim) => ({
              delivery_id: claim.deliveryId,
              claim_token: claim.claimToken,
              now: at(round * HOUR + SECOND).toISOString(),
              outcome: { status: 500, duration_ms: 1, error: null, excerpt: "", succeeded: false },
              jitter: 0,
            }));
          // Each statement holds an attempt of each endpoint, the two listing them in opposite orders.
          const byEndpoint = [...claims].sort((a, b) => a.endpointId.localeCompare(b.endpointId));
          const [ours, theirs] = [
            [byEndpoint[0], byEndpoint[3]],
            [byEndpoint[2], byEndpoint[1]],
          ];
          const [recorded] = await Promise.all([
            finishAttempts(ours.map((claim) => ({ claim, now: at(round * HOUR + SECOND), outcome, jitter: 0 }))),
            other`select recorded from finish_webhook_attempts(${other.json(items(theirs))})`,
          ]);
          expect(recorded.map((finished) => finished.recorded)).toEqual([true, true]);
        }
        const [{ attempts }] = await getDb()<{ attempts: number }[]>`
          select count(*)::int as attempts from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id
          where d.account_id = ${user.accountId}`;
        expect(attempts).toBe(80);
      } finally {
        await other.end();
      }
    },
  );
});

describe("an endpoint deleted while its attempt finishes", () => {
  // Real PostgreSQL's row locks: the embedded database runs one transaction at a time, so the two cannot interleave.
  it.runIf(inject("databaseKind") === "postgresql")(
    "both end without a deadlock: the deletion takes the endpoint, and the attempt of a delivery gone is not recorded",
    async () => {
      const user = await createUser();
      const endpoint = await addEndpoint(user.accountId, {
        url: "https://hooks.example/d",
        events: ["email.delivered"],
      });
      await delivered(user.accountId, T);
      const [claim] = await claimDueDeliveries({
        now: T,
        limit: 1,
        perAccount: 4,
        leaseSeconds: WEBHOOK_LEASE_SECONDS,
      });
      const deleting = postgres(inject("databaseUrl"), { max: 1, prepare: false, onnotice: () => {} });
      try {
        let finishing: ReturnType<typeof finishAttempt> | undefined;
        await deleting.begin(async (tx) => {
          // The row a DELETE of the endpoint locks first, before its cascade to the deliveries.
          await tx`select 1 from webhook_endpoints where id = ${endpoint.id} for update`;
          finishing = finishAttempt(claim!, {
            now: at(SECOND),
            outcome: { status: 500, durationMs: 20, excerpt: "down", succeeded: false },
            jitter: 0,
          });
          // Until the attempt's finish waits for a lock this transaction holds.
          for (let waiting = 0; waiting === 0;) {
            [{ waiting }] = await getDb()<{ waiting: number }[]>`
              select count(*)::int as waiting from pg_stat_activity
              where datname = current_database() and wait_event_type = 'Lock'`;
          }
          await tx`delete from webhook_endpoints where id = ${endpoint.id}`;
        });
        expect(await finishing).toEqual({
          recorded: false,
          status: null,
          attempts: null,
          nextAttemptAt: null,
          endpointDisabled: false,
          endpointId: null,
          endpointUrl: null,
        });
        const left = await getDb()`select 1 from webhook_deliveries where endpoint_id = ${endpoint.id}`;
        expect(left).toHaveLength(0);
      } finally {
        await deleting.end();
      }
    },
  );
});

describe("the retry schedule", () => {
  it("retries after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, each delay times (1 + jitter); after 8 attempts the delivery failed", async () => {
    const user = await createUser();
    await addEndpoint(user.accountId, { events: ["email.delivered"] });
    const { deliveryIds } = await delivered(user.accountId, T);
    const jitters = [0.1, -0.1, 0, 0.05, -0.05, 0.1, -0.1, 0];
    const delays = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR];

    let now = T;
    const seen: { attempt: number; status: string; next: number | null }[] = [];
    for (let attempt = 1; attempt <= 8; attempt++) {
      // Not a millisecond early.
      expect(await deliverDueWebhooks({ now: new Date(now.getTime() - 1), send: failing(503) })).toMatchObject({
        attempted: 0,
      });
      const run = await deliverDueWebhooks({ now, send: failing(503), jitter: () => jitters[attempt - 1] });
      expect(run.attempted).toBe(1);
      const row = await deliveryRow(deliveryIds[0]);
      seen.push({
        attempt: row.attempts,
        status: row.status,
        next: row.next_attempt_at && row.next_attempt_at.getTime() - now.getTime(),
      });
      if (row.next_attempt_at) now = row.next_attempt_at;
    }
    expect(seen).toEqual([
      ...delays.map((delay, i) => ({ attempt: i + 1, status: "pending", next: Math.round(delay * (1 + jitters[i])) })),
      { attempt: 8, status: "failed", next: null },
    ]);
    const attempts = await attemptRows(deliveryIds[0]);
    expect(attempts.map((row) => [row.attempt, row.response_status, row.response_excerpt])).toEqual(
      [1, 2, 3, 4, 5, 6, 7, 8].map((n) => [n, 503, "down"]),
    );
    expect(await deliveryRow(deliveryIds[0])).toMatchObject({
      status: "failed",
      finished_at: now,
      claimed_until: null,
    });
    expect(await deliverDueWebhooks({ now: at(30 * DAY), send: answering })).toMatchObject({ attempted: 0 });
  });

  it("refuses a jitter outside [-0.1, 0.1], changing nothing; a test event's one attempt fails it for good", async () => {
    const user = await createUser();
    await addEndpoint(user.accountId, { events: ["email.delivered"] });
    const { deliveryIds } = await delivered(user.accountId, T);
    const [claim] = await claimDueDeliveries({ now: T, limit: 1, perAccount: 4, leaseSeconds: 60 });
    for (const jitter of [0.11, -0.2, Number.NaN]) {
      await expect(
        finishAttempt(claim, {
          now: T,
          outcome: { status: 500, durationMs: 1, excerpt: "", succeeded: false },
          jitter,
        }),
      ).rejects.toMatchObject({ code: "22023" });
    }
    expect(await deliveryRow(deliveryIds[0])).toMatchObject({
      status: "pending",
      attempts: 0,
      claim_token: claim.claimToken,
    });
    expect(await attemptRows(deliveryIds[0])).toEqual([]);

    await getDb()`update webhook_deliveries set max_attempts = 1 where id = ${deliveryIds[0]}`;
    expect(
      await finishAttempt(claim, {
        now: T,
        outcome: { status: null, durationMs: 5, error: "connection refused", excerpt: "", succeeded: false },
        jitter: 0.1,
      }),
    ).toMatchObject({ recorded: true, status: "failed", attempts: 1, nextAttemptAt: null });
  });
});

describe("an endpoint that fails for 5 days", () => {
  it("is disabled at the first failure 5 days after the first failure since its last success, once, and the account is told by email", async () => {
    const user = await createUser();
    const endpoint = await addEndpoint(user.accountId, {
      url: "https://down.example/hook",
      events: ["email.delivered"],
    });
    const failingSince = async () =>
      (
        await getDb()<{ failing_since: Date | null; enabled: boolean; disabled_reason: string | null }[]>`
        select failing_since, enabled, disabled_reason from webhook_endpoints where id = ${endpoint.id}`
      )[0];
    const info = vi.spyOn(console, "info").mockImplementation(() => {});
    try {
      await delivered(user.accountId, T);
      await deliverDueWebhooks({ now: T, send: failing() });
      expect(await failingSince()).toEqual({ failing_since: T, enabled: true, disabled_reason: null });

      // A success clears it: the 5 days count from the first failure after it.
      await delivered(user.accountId, at(4 * DAY));
      await deliverDueWebhooks({ now: at(4 * DAY), send: answering });
      expect((await failingSince()).failing_since).toBeNull();
      await delivered(user.accountId, at(4 * DAY + HOUR));
      expect(await deliverDueWebhooks({ now: at(4 * DAY + HOUR), send: failing() })).toMatchObject({ disabled: 0 });
      expect((await failingSince()).failing_since).toEqual(at(4 * DAY + HOUR));

      await delivered(user.accountId, at(9 * DAY + HOUR - 1));
      expect(await deliverDueWebhooks({ now: at(9 * DAY + HOUR - 1), send: failing() })).toMatchObject({ disabled: 0 });
      expect(info).not.toHaveBeenCalled();

      const last = await delivered(user.accountId, at(9 * DAY + HOUR));
      expect(await deliverDueWebhooks({ now: at(9 * DAY + HOUR), send: failing() })).toEqual({
        attempted: 1,
        succeeded: 0,
        retrying: 0,
        failed: 1,
        disabled: 1,
      });
      expect(await failingSince()).toEqual({
        failing_since: at(4 * DAY + HOUR),
        enabled: false,
        disabled_reason: "Every delivery failed for 5 days (since 2031-03-05T11:00:00Z): disabled.",
      });
      const told = info.mock.calls.map(([line]) => String(line)).filter((line) => line.startsWith("{"));
      expect(told.map((line) => JSON.parse(line))).toEqual([
        {
          level: "info",
          message: "sign-up email (no email provider configured)",
          to: user.email,
          subject: "A webhook endpoint of yours was disabled",
          text: expect.stringContaining("Every delivery to https://down.example/hook failed for 5 days"),
        },
      ]);

      // Its deliveries waiting for a retry failed with it (replay makes them again): this one, and the 2 before it.
      const states = await getDb()<{ status: string; next_attempt_at: Date | null; finished_at: Date | null }[]>`
        select status, next_attempt_at, finished_at from webhook_deliveries
        where endpoint_id = ${endpoint.id} and created_at >= ${at(4 * DAY + HOUR)} order by created_at`;
      expect(states).toEqual(
        [0, 1, 2].map(() => ({ status: "failed", next_attempt_at: null, finished_at: at(9 * DAY + HOUR) })),
      );
      expect(await deliveryRow(last.deliveryIds[0])).toMatchObject({ status: "failed", attempts: 1 });
      // Disabled: nothing of it is claimed any more, and no new event is made for it.
      await getDb()`update webhook_deliveries set status = 'pending', next_attempt_at = ${at(DAY)}
                    where id = ${last.deliveryIds[0]}`;
      expect(await deliverDueWebhooks({ now: at(20 * DAY), send: answering })).toMatchObject({ attempted: 0 });
      expect(await enqueueWebhookEvent(user.accountId, "email.delivered", { data: {}, now: at(20 * DAY) })).toBeNull();
    } finally {
      info.mockRestore();
    }
  });
});

describe("the notice of a disabled endpoint", () => {
  it("goes to every admin of the team, one email each, and to no member", async () => {
    const team = await createTeam();
    const second = await addMember(team, "admin");
    await addMember(team, "member");
    const endpoint = await addEndpoint(team.accountId, {
      url: "https://gone.example/hook",
      events: ["email.delivered"],
    });
    await getDb()`update webhook_endpoints set failing_since = ${at(-5 * DAY)} where id = ${endpoint.id}`;
    const info = vi.spyOn(console, "info").mockImplementation(() => {});
    try {
      await delivered(team.accountId, T);
      expect(await deliverDueWebhooks({ now: T, send: failing() })).toEqual({
        attempted: 1,
        succeeded: 0,
        retrying: 0,
        failed: 1,
        disabled: 1,
      });
      const notice = (to: string) => ({
        level: "info",
        message: "sign-up email (no email provider configured)",
        to,
        subject: "A webhook endpoint of yours was disabled",
        text:
          "Every delivery to https://gone.example/hook failed for 5 days, so Letterpress disabled the endpoint: it is sent nothing more.\n\n" +
          "Once it answers again, enable it on the Webhooks page; failed deliveries of the last 30 days can be replayed there.\n\n" +
          "Webhooks: http://localhost:3000/dashboard/webhooks",
      });
      const told = info.mock.calls.map(([line]) => String(line)).filter((line) => line.startsWith("{"));
      expect(told.map((line) => JSON.parse(line))).toEqual([notice(team.email), notice(second.person.email)]);
    } finally {
      info.mockRestore();
    }
  });
});

describe("a test event and a replay, attempted at once", () => {
  it("sends webhook.test once to the endpoint alone; a replay is a new delivery of the same event, same webhook-id", async () => {
    const user = await createUser();
    const other = await createUser();
    const endpoint = await addEndpoint(user.accountId, { url: "https://hooks.example/t", events: ["email.sent"] });
    const made = (accountId: string) =>
      createTestEvent(accountId, endpoint.id, { now: T, perAccount: 4, leaseSeconds: WEBHOOK_LEASE_SECONDS });
    expect(await made(other.accountId)).toBeUndefined();

    const sent: { url: string; headers: Record<string, string>; body: string }[] = [];
    const recording =
      (outcome: WebhookSend): WebhookSend =>
      async (request) => {
        sent.push(request);
        return outcome(request);
      };
    const test = (await made(user.accountId)) as { eventId: string; deliveryId: string };
    expect(await deliverWebhookNow(other.accountId, test.deliveryId, { now: T, send: answering })).toBeUndefined();
    expect(await deliverWebhookNow(user.accountId, test.deliveryId, { now: T, send: recording(failing(502)) })).toEqual(
      {
        recorded: true,
        status: "failed",
        attempts: 1,
        nextAttemptAt: null,
        endpointDisabled: false,
        endpointId: endpoint.id,
        endpointUrl: "https://hooks.example/t",
      },
    );
    expect(sent.map(({ url, headers, body }) => ({ url, id: headers["webhook-id"], body: JSON.parse(body) }))).toEqual([
      {
        url: "https://hooks.example/t",
        id: test.eventId,
        body: { type: "webhook.test", created_at: T.toISOString(), data: { webhook_id: endpoint.id } },
      },
    ]);
    expect(sent[0].headers["webhook-timestamp"]).toBe(String(T.getTime() / 1000));
    expect(sent[0].headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
    // One attempt only: finished, it is not claimed again.
    expect(await deliverWebhookNow(user.accountId, test.deliveryId, { now: T, send: answering })).toBeUndefined();

    const replay = (await replayDelivery(user.accountId, endpoint.id, test.deliveryId, at(MINUTE)))!;
    expect(replay).toEqual({ id: expect.any(String), eventId: test.eventId });
    expect(await replayDelivery(other.accountId, endpoint.id, test.deliveryId, at(MINUTE))).toBeUndefined();
    expect(
      await deliverWebhookNow(user.accountId, replay.id, { now: at(MINUTE), send: recording(answering) }),
    ).toMatchObject({
      recorded: true,
      status: "succeeded",
      attempts: 1,
    });
    expect(sent.map(({ headers, body }) => [headers["webhook-id"], body])).toEqual([
      [test.eventId, sent[0].body],
      [test.eventId, sent[0].body],
    ]);
    expect(await deliveryRow(test.deliveryId)).toMatchObject({ status: "failed", attempts: 1, max_attempts: 1 });
    // A test event replayed is attempted once too, not retried for a day and a half.
    expect(await deliveryRow(replay.id)).toMatchObject({ status: "succeeded", attempts: 1, max_attempts: 1 });
  });
});

describe("retention", () => {
  it("deletes events older than 30 days with their deliveries and attempts, and keeps the others", async () => {
    const user = await createUser();
    await addEndpoint(user.accountId, { events: ["email.delivered"] });
    const old = await delivered(user.accountId, at(-30 * DAY - 1));
    const kept = await delivered(user.accountId, at(-30 * DAY + 1));
    await deliverDueWebhooks({ now: at(-29 * DAY), send: answering });
    expect(await attemptRows(old.deliveryIds[0])).toHaveLength(1);

    expect(await deleteExpiredWebhooks(T)).toBe(1);
    const db = getDb();
    expect(await db`select id from webhook_events where account_id = ${user.accountId}`).toEqual([
      { id: kept.eventId },
    ]);
    expect(await db`select id from webhook_deliveries where account_id = ${user.accountId}`).toEqual([
      { id: kept.deliveryIds[0] },
    ]);
    expect(await attemptRows(old.deliveryIds[0])).toEqual([]);
    expect(await deleteExpiredWebhooks(T)).toBe(0);
  });

  it("keeps an old event while a delivery of it is younger than 30 days or in flight: a replay is kept as long as the log says", async () => {
    const user = await createUser();
    const endpoint = await addEndpoint(user.accountId, { events: ["email.delivered"] });
    const replayed = await delivered(user.accountId, at(-30 * DAY - HOUR));
    const inFlight = await delivered(user.accountId, at(-30 * DAY - HOUR));
    await deliverDueWebhooks({ now: at(-30 * DAY), send: failing() });
    await getDb()`update webhook_deliveries set status = 'failed', next_attempt_at = null
                  where id = ${replayed.deliveryIds[0]}`;
    // Replayed a minute ago; the other one's retry is being attempted now.
    const replay = (await replayDelivery(user.accountId, endpoint.id, replayed.deliveryIds[0], at(-MINUTE)))!;
    await getDb()`update webhook_deliveries set next_attempt_at = ${at(-MINUTE)} where id = ${inFlight.deliveryIds[0]}`;
    const claims = await claimDueDeliveries({ now: at(-SECOND), limit: 10, perAccount: 4, leaseSeconds: 60 });
    expect(claims.map((claim) => claim.deliveryId).sort()).toEqual([replay.id, inFlight.deliveryIds[0]].sort());
    await finishAttempt(
      claims.find((claim) => claim.deliveryId === replay.id)!,
      {
        now: T,
        outcome: { status: 200, durationMs: 1, excerpt: "ok", succeeded: true },
        jitter: 0,
      },
    );

    expect(await deleteExpiredWebhooks(T)).toBe(0);
    expect(await deliveryRow(replay.id)).toMatchObject({ status: "succeeded", attempts: 1 });
    expect(await deliveryRow(inFlight.deliveryIds[0])).toMatchObject({ status: "pending", attempts: 1 });
    // Once the replay is 30 days old too, and nothing is in flight, the event goes with all its deliveries.
    await getDb()`update webhook_deliveries set claimed_until = null, claim_token = null
                  where id = ${inFlight.deliveryIds[0]}`;
    expect(await deleteExpiredWebhooks(at(30 * DAY))).toBe(2);
    expect(await getDb()`select id from webhook_deliveries where account_id = ${user.accountId}`).toEqual([]);
  });
});

/** A receiver on 127.0.0.1: each request is recorded and answered by `answer` (which may never answer). */
async function receiver(answer: (response: http.ServerResponse) => void) {
  const received: { path: string; headers: http.IncomingHttpHeaders; body: string }[] = [];
  const inFlight = new Map<string, number>();
  const mostInFlight = new Map<string, number>();
  const server = http.createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      const path = request.url ?? "";
      received.push({ path, headers: request.headers, body });
      inFlight.set(path, (inFlight.get(path) ?? 0) + 1);
      mostInFlight.set(path, Math.max(mostInFlight.get(path) ?? 0, inFlight.get(path)!));
      response.on("close", () => inFlight.set(path, inFlight.get(path)! - 1));
      answer(response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    mostInFlight,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function runner(env: Record<string, string>): {
  child: ChildProcessWithoutNullStreams;
  output: () => string;
  exited: Promise<NodeJS.Signals | number | null>;
} {
  const child = spawn(
    "node_modules/.bin/tsx",
    ["--import", "./bin/server-only-hook.mjs", "tests/support/webhook-child.ts"],
    {
      env: { ...process.env, DATABASE_URL: inject("databaseUrl"), WEBHOOKS_ALLOW_PRIVATE_URLS: "1", ...env },
      stdio: ["pipe", "pipe", "pipe"],
    },
  );
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.once("exit", (code, signal) => resolve(signal ?? code)),
  );
  return { child, output: () => output, exited };
}

describe("server processes", () => {
  it(
    "two processes on one database make each attempt once, at most 4 of an account at once between them",
    { timeout: 120_000 },
    async () => {
      // More accounts than one process may hold attempts for (WEBHOOK_ATTEMPTS_IN_FLIGHT), so both must take part:
      // the receiver holds every answer until each account has its 4 attempts in flight, then answers in 40 ms.
      const accounts = WEBHOOK_ATTEMPTS_IN_FLIGHT / WEBHOOK_ATTEMPTS_PER_ACCOUNT + 2;
      const eventsEach = 6;
      const slots = accounts * WEBHOOK_ATTEMPTS_PER_ACCOUNT;
      const held: http.ServerResponse[] = [];
      const hooks = await receiver((response) => {
        if (held.length === slots) return void setTimeout(() => response.writeHead(200).end("ok"), 40);
        held.push(response);
        if (held.length === slots) for (const waiting of held) waiting.writeHead(200).end("ok");
      });
      try {
        const users = await Promise.all(Array.from({ length: accounts }, () => createUser()));
        const deliveries: string[] = [];
        for (const user of users) {
          await addEndpoint(user.accountId, { url: `${hooks.url}/${user.accountId}`, events: ["email.delivered"] });
          for (let i = 0; i < eventsEach; i++)
            deliveries.push(
              ...(await delivered(user.accountId, new Date(), { email_id: `${user.accountId}-${i}` })).deliveryIds,
            );
        }
        const runners = [runner({ RUNS_EMPTY: "10" }), runner({ RUNS_EMPTY: "10" })];
        await Promise.all(runners.map(({ output }) => expect.poll(output, { timeout: 60_000 }).toContain("ready")));
        for (const { child } of runners) child.stdin.write("go\n");
        expect(await Promise.all(runners.map(({ exited }) => exited))).toEqual([0, 0]);

        const counts = runners.map(({ output }) => JSON.parse(output().split("\n").filter(Boolean).at(-1)!).attempted);
        expect(counts[0] + counts[1]).toBe(accounts * eventsEach);
        expect(counts.every((n: number) => n > 0)).toBe(true);
        // Each event reached its endpoint once.
        const ids = hooks.received.map((request) => request.headers["webhook-id"]);
        expect(new Set(ids).size).toBe(accounts * eventsEach);
        expect(ids).toHaveLength(accounts * eventsEach);
        for (const user of users)
          expect(hooks.mostInFlight.get(`/${user.accountId}`)).toBe(WEBHOOK_ATTEMPTS_PER_ACCOUNT);
        const rows = await getDb()<{ status: string; attempts: number; recorded: number }[]>`
        select d.status, d.attempts, (select count(*)::int from webhook_attempts a where a.delivery_id = d.id) as recorded
        from webhook_deliveries d where d.id = any(${deliveries}::uuid[])`;
        expect(rows).toEqual(deliveries.map(() => ({ status: "succeeded", attempts: 1, recorded: 1 })));
      } finally {
        await hooks.close();
      }
    },
  );

  it("the default sender POSTs the event signed as Standard Webhooks with the endpoint's secrets, and its answer is recorded", async () => {
    const hooks = await receiver((response) => response.writeHead(202).end("thanks"));
    try {
      const user = await createUser();
      const previous = newSecret();
      const endpoint = await addEndpoint(user.accountId, {
        url: `${hooks.url}/in`,
        events: ["email.delivered"],
        previousSecret: previous,
        previousSecretExpiresAt: new Date(Date.now() + HOUR),
      });
      const { eventId, deliveryIds } = await delivered(user.accountId, new Date(), { email_id: "re_signed" });
      const run = await withEnv({ WEBHOOKS_ALLOW_PRIVATE_URLS: "1" }, () => deliverDueWebhooks());
      expect(run).toEqual({ attempted: 1, succeeded: 1, retrying: 0, failed: 0, disabled: 0 });
      const [request] = hooks.received;
      expect(request.headers).toMatchObject({ "content-type": "application/json", "webhook-id": eventId });
      for (const secret of [endpoint.secret, previous]) {
        expect(new Webhook(secret).verify(request.body, request.headers as Record<string, string>)).toEqual({
          type: "email.delivered",
          created_at: expect.any(String),
          data: { email_id: "re_signed" },
        });
      }
      expect(await attemptRows(deliveryIds[0])).toMatchObject([
        { attempt: 1, response_status: 202, error: null, response_excerpt: "thanks" },
      ]);
    } finally {
      await hooks.close();
    }
  });

  it(
    "a process killed (SIGKILL) in the middle of an attempt loses nothing: the attempt is made again after its lease",
    { timeout: 120_000 },
    async () => {
      // The endpoint takes the request and never answers, as a slow receiver would, while the process is killed.
      const hooks = await receiver(() => {});
      try {
        const user = await createUser();
        await addEndpoint(user.accountId, { url: `${hooks.url}/hook`, events: ["email.delivered"] });
        const { eventId, deliveryIds } = await delivered(user.accountId, T);
        const killed = runner({ WEBHOOK_NOW: T.toISOString() });
        try {
          await expect.poll(() => hooks.received.length, { timeout: 60_000, interval: 100 }).toBe(1);
        } catch (error) {
          killed.child.kill("SIGKILL");
          throw new Error(`the runner never reached the endpoint: ${killed.output()}`, { cause: error });
        }
        killed.child.kill("SIGKILL");
        expect(await killed.exited).toBe("SIGKILL");
        expect(killed.output()).toBe("");
        expect(hooks.received[0].headers["webhook-id"]).toBe(eventId);

        expect(await deliveryRow(deliveryIds[0])).toMatchObject({
          status: "pending",
          attempts: 0,
          claimed_until: at(WEBHOOK_LEASE_SECONDS * SECOND),
        });
        expect(await attemptRows(deliveryIds[0])).toEqual([]);

        // Restarted: while the dead process's lease runs, the attempt is not made twice at once; then it is made again.
        expect(
          await deliverDueWebhooks({ now: at(WEBHOOK_LEASE_SECONDS * SECOND - 1), send: answering }),
        ).toMatchObject({
          attempted: 0,
        });
        const sent: { headers: Record<string, string>; body: string }[] = [];
        const run = await deliverDueWebhooks({
          now: at(WEBHOOK_LEASE_SECONDS * SECOND),
          send: async (request) => {
            sent.push(request);
            return answering(request);
          },
        });
        expect(run).toEqual({ attempted: 1, succeeded: 1, retrying: 0, failed: 0, disabled: 0 });
        expect(sent.map((request) => request.headers["webhook-id"])).toEqual([eventId]);
        expect(sent[0].body).toBe(hooks.received[0].body);
        expect(await attemptRows(deliveryIds[0])).toMatchObject([{ attempt: 1, response_status: 204 }]);
      } finally {
        await hooks.close();
      }
    },
  );
});
