import "server-only";
import { getDb, jsonParameter } from "@/lib/db/client";

// Webhook deliveries: one row per event and endpoint, claimed for an attempt under a lease and finished with its
// outcome (supabase/sql-functions/claim_webhook_deliveries.sql, claim_webhook_delivery.sql, finish_webhook_attempt.sql).

/** A delivery claimed for one attempt: what to send, where, signed with which secrets, and the token to finish it. */
export type ClaimedDelivery = {
  deliveryId: string;
  claimToken: string;
  /** 1 for the first attempt; a claim again after a killed process's lease ran out keeps the number. */
  attempt: number;
  url: string;
  /** The endpoint's secrets valid now, the newest first. */
  secrets: string[];
  /** Every attempt's `webhook-id`. */
  eventId: string;
  /** The body, exactly as signed. */
  payload: string;
  createdAt: Date;
  accountId: string;
  endpointId: string;
};

/** What an attempt came to (wh-http's attemptWebhook answers this). */
export type AttemptOutcome = {
  status: number | null;
  durationMs: number;
  error?: string;
  excerpt: string;
  succeeded: boolean;
};

/** What finishing an attempt did; `recorded` false for a stale claim (nothing changed). */
export type FinishedAttempt = {
  recorded: boolean;
  status: "pending" | "succeeded" | "failed" | null;
  attempts: number | null;
  nextAttemptAt: Date | null;
  /** This attempt disabled the endpoint (every delivery failed for 5 days): tell the team's admins. */
  endpointDisabled: boolean;
  endpointId: string | null;
  endpointUrl: string | null;
};

const claimedColumns = () =>
  getDb()`delivery_id as "deliveryId", claim_token as "claimToken", attempt, url, secrets, event_id as "eventId",
          payload, created_at as "createdAt", account_id as "accountId", endpoint_id as "endpointId"`;

/** Claims due deliveries (at most `limit`, at most `perAccount` of an account in flight across processes). */
export async function claimDueDeliveries({
  now,
  limit,
  perAccount,
  leaseSeconds,
  accountId = null,
}: {
  now: Date;
  limit: number;
  perAccount: number;
  leaseSeconds: number;
  /** That account's deliveries alone; every account's by default. */
  accountId?: string | null;
}): Promise<ClaimedDelivery[]> {
  const db = getDb();
  return db<ClaimedDelivery[]>`
    select ${claimedColumns()} from claim_webhook_deliveries(${now}::timestamptz, ${limit}::integer,
                                                               ${perAccount}::integer, ${leaseSeconds}::integer,
                                                               ${accountId}::uuid)`;
}

/** Claims the account's delivery `deliveryId` for an attempt at once, due or not; undefined when it cannot be. */
export async function claimDelivery(
  accountId: string,
  deliveryId: string,
  { now, leaseSeconds }: { now: Date; leaseSeconds: number },
): Promise<ClaimedDelivery | undefined> {
  const db = getDb();
  const [row] = await db<ClaimedDelivery[]>`
    select ${claimedColumns()} from claim_webhook_delivery(${accountId}::uuid, ${deliveryId}::uuid, ${now}::timestamptz,
                                                             ${leaseSeconds}::integer)`;
  return row;
}

/** A claimed attempt's outcome to record: the claim, when it ended, and the retry delay's jitter within [-0.1, 0.1]. */
export type AttemptToFinish = {
  claim: Pick<ClaimedDelivery, "deliveryId" | "claimToken">;
  now: Date;
  outcome: AttemptOutcome;
  jitter: number;
};

/**
 * Records claimed attempts' outcomes and what follows each, in one statement (finish_webhook_attempts): what finishing
 * each did, in the order given.
 */
export async function finishAttempts(attempts: AttemptToFinish[]): Promise<FinishedAttempt[]> {
  const db = getDb();
  const rows = await db<(FinishedAttempt & { item: number })[]>`
    select item, recorded, status, attempts, next_attempt_at as "nextAttemptAt",
           endpoint_disabled as "endpointDisabled", endpoint_id as "endpointId", endpoint_url as "endpointUrl"
    from finish_webhook_attempts(${jsonParameter(
      db,
      attempts.map(({ claim, now, outcome, jitter }) => ({
        delivery_id: claim.deliveryId,
        claim_token: claim.claimToken,
        now: now.toISOString(),
        outcome: {
          status: outcome.status,
          duration_ms: Math.round(outcome.durationMs),
          error: outcome.error ?? null,
          excerpt: outcome.excerpt,
          succeeded: outcome.succeeded,
        },
        jitter,
      })),
    )}::jsonb)`;
  const byItem = new Map(rows.map(({ item, ...finished }) => [item, finished]));
  return attempts.map((_, i) => {
    const finished = byItem.get(i + 1);
    // The function answers one row per item: a missing one fails the statement (each is then recorded alone), rather
    // than passing as an attempt that finished with nothing.
    if (!finished)
      throw new Error(`finish_webhook_attempts answered no row for attempt ${i + 1} of ${attempts.length}`);
    return finished;
  });
}

/**
 * A new delivery of the event an account's delivery `deliveryId` (to endpoint `endpointId`) carried, to the same
 * endpoint, due at `now`: a replay, signed with the same `webhook-id`, with as many attempts as the original had (a
 * test event's one). Undefined when there is no such delivery.
 */
export async function replayDelivery(
  accountId: string,
  endpointId: string,
  deliveryId: string,
  now: Date,
): Promise<{ id: string; eventId: string } | undefined> {
  const db = getDb();
  const [row] = await db<{ id: string; eventId: string }[]>`
    insert into webhook_deliveries (account_id, endpoint_id, event_id, max_attempts, next_attempt_at, created_at)
    select d.account_id, d.endpoint_id, d.event_id, d.max_attempts, ${now}, ${now} from webhook_deliveries d
    where d.id = ${deliveryId} and d.account_id = ${accountId} and d.endpoint_id = ${endpointId}
    returning id, event_id as "eventId"`;
  return row;
}

/** Deletes webhook events (and their deliveries) older than 30 days at `now`, at most `limit`; how many went. */
export async function deleteExpiredWebhookRows(now: Date, limit: number): Promise<number> {
  const db = getDb();
  const [{ deleted }] = await db<{ deleted: number }[]>`
    select delete_expired_webhook_rows(${now}::timestamptz, ${limit}::integer) as deleted`;
  return deleted;
}
