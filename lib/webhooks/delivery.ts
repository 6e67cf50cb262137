import "server-only";
import { logFailure, runInBackground } from "@/lib/core/background";
import { getConfig } from "@/lib/core/config";
import {
  WEBHOOK_ATTEMPTS_IN_FLIGHT,
  WEBHOOK_ATTEMPTS_PER_ACCOUNT,
  WEBHOOK_LEASE_SECONDS,
  WEBHOOK_RETENTION_BATCH,
} from "@/lib/core/limits";
import { sendSystemEmail } from "@/lib/mail-transport/system";
import { teamMembers } from "@/lib/teams/service";
import {
  claimDelivery,
  claimDueDeliveries,
  deleteExpiredWebhookRows,
  finishAttempts,
  type AttemptOutcome,
  type AttemptToFinish,
  type ClaimedDelivery,
  type FinishedAttempt,
} from "@/lib/webhooks/data/deliveries";
import { attemptWebhook } from "@/lib/webhooks/outbound";
import { signWebhook } from "@/lib/webhooks/signing";

// The runner: due webhook deliveries are claimed in PostgreSQL under a lease (so any number of processes make each
// attempt once, and one killed mid-attempt leaves it to be made again), attempted over the network, and finished with
// their outcome, which sets the next attempt by the retry schedule. It runs after a request that made an account's
// events, for that account (deliverWebhookSoon), every second under `npm start`/`npm run dev` (bin/serve.ts) and
// from the cron route on Vercel.

/**
 * Makes one attempt: POSTs `body` with `headers` to `url`, on a connection of `accountId`'s (attemptWebhook by
 * default; tests give their own).
 */
export type WebhookSend = (request: {
  url: string;
  headers: Record<string, string>;
  body: string;
  accountId: string;
}) => Promise<AttemptOutcome>;

/** What a run did: attempts made, and of them the succeeded, the retried, the failed for good; endpoints disabled. */
export type DeliveryRun = { attempted: number; succeeded: number; retrying: number; failed: number; disabled: number };

type RunOptions = {
  /** The clock: claims are made at it, each attempt finished at it plus the attempt's duration. */
  now?: Date;
  send?: WebhookSend;
  /** At most this many attempts in this run (and never more than this process's bound in all). */
  limit?: number;
  /** The retry delay's jitter, within [-0.1, 0.1]; random by default. */
  jitter?: () => number;
  /** That account's due deliveries alone; every account's by default. */
  accountId?: string;
};

// This process's attempts in flight, over all its runs: WEBHOOK_ATTEMPTS_IN_FLIGHT bounds them. And by account, so
// that a run for an account of which this process already makes WEBHOOK_ATTEMPTS_PER_ACCOUNT attempts (a burst of
// its sends, each asking for a run) skips a claim that could take nothing (the bound itself is the claim's, in SQL),
// and holds no room another account's run could use.
let inFlight = 0;
const inFlightByAccount = new Map<string, number>();

/** Counts `n` more (or, negative, fewer) of this process's attempts in flight, `accountId`'s among them if given. */
function holdRoom(n: number, accountId?: string): void {
  inFlight += n;
  if (accountId === undefined) return;
  const held = (inFlightByAccount.get(accountId) ?? 0) + n;
  if (held > 0) inFlightByAccount.set(accountId, held);
  else inFlightByAccount.delete(accountId);
}

/** Claims due deliveries and makes their attempts, all at once within the bounds, recording each as it ends. */
export async function deliverDueWebhooks({
  now,
  send = attemptWebhook,
  limit = WEBHOOK_ATTEMPTS_IN_FLIGHT,
  jitter = randomJitter,
  accountId,
}: RunOptions = {}): Promise<DeliveryRun> {
  // A run for one account holds no more room than that account can have: runs for others still find theirs.
  const accountRoom =
    accountId === undefined ? Infinity : WEBHOOK_ATTEMPTS_PER_ACCOUNT - (inFlightByAccount.get(accountId) ?? 0);
  const room = Math.min(limit, WEBHOOK_ATTEMPTS_IN_FLIGHT - inFlight, accountRoom);
  const run: DeliveryRun = { attempted: 0, succeeded: 0, retrying: 0, failed: 0, disabled: 0 };
  if (room <= 0) return run;
  // The room is held while claiming, so runs started together claim no more than it between them, and the runs a
  // burst of one account's sends asks for meanwhile make no claim its attempts in flight leave nothing for.
  holdRoom(room, accountId);
  let claims: ClaimedDelivery[];
  try {
    claims = await claimDueDeliveries({
      now: now ?? new Date(),
      limit: room,
      perAccount: WEBHOOK_ATTEMPTS_PER_ACCOUNT,
      leaseSeconds: WEBHOOK_LEASE_SECONDS,
      accountId,
    });
  } finally {
    holdRoom(-room, accountId);
  }
  for (const claim of claims) holdRoom(1, claim.accountId);
  const settled = await Promise.allSettled(
    claims.map((claim) => attemptClaimed(claim, { now, send, jitter }).finally(() => holdRoom(-1, claim.accountId))),
  );
  for (const attempt of settled) if (attempt.status === "fulfilled") count(run, attempt.value);
  // An attempt not recorded (the database failed) is made again after its lease: the run says it failed.
  const failure = settled.find((attempt) => attempt.status === "rejected");
  if (failure) throw failure.reason;
  return run;
}

/**
 * The account's delivery `deliveryId` attempted at once, due or not (a test event, a replay): what finishing it did,
 * or undefined when it cannot be claimed (no such pending delivery, or an attempt of it in flight).
 */
export async function deliverWebhookNow(
  accountId: string,
  deliveryId: string,
  { now, send = attemptWebhook, jitter = randomJitter }: Omit<RunOptions, "limit"> = {},
): Promise<FinishedAttempt | undefined> {
  const claim = await claimDelivery(accountId, deliveryId, {
    now: now ?? new Date(),
    leaseSeconds: WEBHOOK_LEASE_SECONDS,
  });
  return claim && attemptClaimed(claim, { now, send, jitter });
}

/**
 * For request paths that made the account's events: one run of that account's due deliveries once the response is
 * sent (Next's after()), failures logged. Every account's are claimed by the dispatch step's catch-up
 * (lib/sending/dispatch.ts), the cron route and the long-running loop: no team's request does another's deliveries,
 * nor pays for a claim over another's backlog. null: every account's (Resend's webhook, which is no team's request).
 */
export function deliverWebhookSoon(accountId: string | null): void {
  // Runs on while they attempt anything: a burst's events beyond the account's attempts at once.
  runInBackground("delivering webhooks", () => deliverWhileDue(accountId === null ? {} : { accountId }, SOON_RUN_MS));
}

/** Runs, one after another, until one attempts nothing or `budgetMs` has passed; what they did, added up. */
async function deliverWhileDue(options: RunOptions, budgetMs: number): Promise<DeliveryRun> {
  const total: DeliveryRun = { attempted: 0, succeeded: 0, retrying: 0, failed: 0, disabled: 0 };
  const started = Date.now();
  for (;;) {
    const run = await deliverDueWebhooks(options);
    for (const key of Object.keys(total) as (keyof DeliveryRun)[]) total[key] += run[key];
    if (run.attempted === 0 || Date.now() - started >= budgetMs) return total;
  }
}

/** How long a request's run goes on after its answer (Next's after() keeps the function alive for it). */
const SOON_RUN_MS = 10_000;

/** How long the cron route goes on claiming due attempts (a function's time is bounded; the next call goes on). */
const CRON_RUN_MS = 30_000;

/**
 * The cron route's work: runs while there are due attempts (within CRON_RUN_MS), then the retention duty. Counts
 * what every run did.
 */
export async function deliverWebhooksDue(): Promise<DeliveryRun & { expiredEvents: number }> {
  const total = await deliverWhileDue({}, CRON_RUN_MS);
  return { ...total, expiredEvents: await deleteExpiredWebhooks() };
}

/** How often a long-running server looks for due webhook attempts, and deletes expired events. */
export const WEBHOOK_RUN_INTERVAL_MS = 1000;
const RETENTION_INTERVAL_MS = 10 * 60_000;

/**
 * What the cron route does on Vercel, every `intervalMs` in a long-running server (bin/serve.ts: npm start, npm run
 * dev): a run of due attempts each time, not waiting for the last run's attempts (a hanging endpoint holds only its
 * own, within this process's bound), and the retention duty every 10 minutes. As the cron route's loop does, a run
 * that attempted anything is followed at once by another, so a backlog (a burst of sends) drains at the pace of its
 * attempts rather than a claim a tick. The stop returned resolves once the runs in flight have finished, so the
 * database can close after them.
 */
export function deliverWebhooksContinually(
  intervalMs = WEBHOOK_RUN_INTERVAL_MS,
  send: WebhookSend = attemptWebhook,
): () => Promise<void> {
  const inFlight = new Set<Promise<void>>();
  const track = (description: string, task: Promise<unknown>) => {
    const tracked = task.then(
      () => {},
      (error: unknown) => logFailure(`${description} failed`, error),
    );
    inFlight.add(tracked);
    void tracked.finally(() => inFlight.delete(tracked));
  };
  let stopped = false;
  const runOn = async (): Promise<void> => {
    const run = await deliverDueWebhooks({ send });
    if (run.attempted > 0 && !stopped) track("delivering webhooks", runOn());
  };
  let lastRetention = Number.NEGATIVE_INFINITY;
  const tick = () => {
    track("delivering webhooks", runOn());
    if (Date.now() - lastRetention >= RETENTION_INTERVAL_MS) {
      lastRetention = Date.now();
      track("deleting expired webhook events", deleteExpiredWebhooks());
    }
  };
  tick();
  const timer = setInterval(tick, intervalMs);
  return async () => {
    stopped = true;
    clearInterval(timer);
    await Promise.all(inFlight);
  };
}

/** Webhook events past their 30 days deleted, with their deliveries (a duty: cron route, bin/serve.ts). */
export async function deleteExpiredWebhooks(now: Date = new Date()): Promise<number> {
  return deleteExpiredWebhookRows(now, WEBHOOK_RETENTION_BATCH);
}

async function attemptClaimed(
  claim: ClaimedDelivery,
  { now, send, jitter }: { now?: Date; send: WebhookSend; jitter: () => number },
): Promise<FinishedAttempt> {
  const started = Date.now();
  const startedAt = now ?? new Date(started);
  let outcome: AttemptOutcome;
  try {
    const headers = signWebhook({
      id: claim.eventId,
      timestamp: startedAt,
      body: claim.payload,
      secrets: claim.secrets,
    });
    outcome = await send({ url: claim.url, headers, body: claim.payload, accountId: claim.accountId });
  } catch (error) {
    // The sender answers every failure of the request itself; anything thrown is ours, and fails this attempt only.
    outcome = {
      status: null,
      durationMs: Date.now() - started,
      error: error instanceof Error ? error.message : String(error),
      excerpt: "",
      succeeded: false,
    };
  }
  const finished = await finishWithOthers(claim.accountId, {
    claim,
    now: new Date(startedAt.getTime() + Math.max(0, Math.round(outcome.durationMs))),
    outcome,
    jitter: jitter(),
  });
  if (finished.endpointDisabled) await tellEndpointDisabled(claim.accountId, finished.endpointUrl);
  return finished;
}

// An account's attempts that end while a statement recording its attempts is in flight, or in the same turn of the
// event loop, are recorded together by its next one (finish_webhook_attempts): one statement and transaction for a
// burst's attempts instead of one each; should it fail, each is recorded alone. By account, so that one account's
// attempts never share a statement (nor its failure) with another's.
type QueuedFinish = AttemptToFinish & {
  resolve: (finished: FinishedAttempt) => void;
  reject: (error: unknown) => void;
};
const finishQueues = new Map<string, QueuedFinish[]>();

/** Most attempts one statement records (this process's bound of attempts in flight, and as many test events). */
const MOST_FINISHED_AT_ONCE = 2 * WEBHOOK_ATTEMPTS_IN_FLIGHT;

/** Records `attempt` of `accountId`'s with the account's others that end meanwhile: what finishing it did. */
function finishWithOthers(accountId: string, attempt: AttemptToFinish): Promise<FinishedAttempt> {
  return new Promise((resolve, reject) => {
    const queue = finishQueues.get(accountId);
    if (queue) {
      queue.push({ ...attempt, resolve, reject });
      return;
    }
    finishQueues.set(accountId, [{ ...attempt, resolve, reject }]);
    setImmediate(() => void recordQueuedFinishes(accountId));
  });
}

/** One statement for the account's queued attempts; then the next, for those queued meanwhile, until none are. */
async function recordQueuedFinishes(accountId: string): Promise<void> {
  const queue = finishQueues.get(accountId)!;
  const batch = queue.splice(0, MOST_FINISHED_AT_ONCE);
  try {
    const finished = await finishAttempts(batch);
    batch.forEach((queued, i) => queued.resolve(finished[i]));
  } catch (error) {
    if (batch.length === 1) batch[0].reject(error);
    // Each alone, so that what failed the statement fails its own attempt only.
    else
      await Promise.all(
        batch.map((queued) => finishAttempts([queued]).then(([finished]) => queued.resolve(finished), queued.reject)),
      );
  }
  if (queue.length > 0) setImmediate(() => void recordQueuedFinishes(accountId));
  else finishQueues.delete(accountId);
}

/** Mails every admin of the team, one email each, so that no admin's address is shown to another. */
async function tellEndpointDisabled(accountId: string, endpointUrl: string | null): Promise<void> {
  // The endpoint stays disabled and the page says why; a lost notice must not fail the run, nor stop the others.
  let admins;
  try {
    admins = (await teamMembers(accountId)).filter((member) => member.role === "admin");
  } catch (error) {
    logFailure("telling an account its webhook endpoint was disabled failed", error);
    return;
  }
  for (const admin of admins) {
    try {
      await sendSystemEmail({
        to: admin.email,
        subject: "A webhook endpoint of yours was disabled",
        paragraphs: [
          `Every delivery to ${endpointUrl} failed for 5 days, so Letterpress disabled the endpoint: it is sent nothing more.`,
          "Once it answers again, enable it on the Webhooks page; failed deliveries of the last 30 days can be replayed there.",
        ],
        link: { label: "Webhooks", url: `${getConfig().siteUrl}/dashboard/webhooks` },
      });
    } catch (error) {
      logFailure("telling an account its webhook endpoint was disabled failed", error);
    }
  }
}

function count(run: DeliveryRun, attempt: FinishedAttempt): void {
  if (!attempt.recorded) return;
  run.attempted += 1;
  if (attempt.status === "succeeded") run.succeeded += 1;
  else if (attempt.status === "failed") run.failed += 1;
  else run.retrying += 1;
  if (attempt.endpointDisabled) run.disabled += 1;
}

function randomJitter(): number {
  return Math.random() * 0.2 - 0.1;
}
