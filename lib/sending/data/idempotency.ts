import "server-only";
import { getDb } from "@/lib/db/client";

/** How long a key's response is replayed. */
export const IDEMPOTENCY_TTL_HOURS = 24;
/** An in-flight claim older than this belongs to a request that died; the key may be claimed again. */
export const IDEMPOTENCY_STALE_SECONDS = 120;

/** A key as the request holding it names it: `token` is that request's claim. */
export type HeldIdempotencyKey = { accountId: string; scope: string; key: string; token: string };

export type IdempotencyClaim =
  | { claimed: true }
  | {
      claimed: false;
      requestHash: string;
      status: "in_flight" | "completed";
      responseStatus: number | null;
      responseBody: Record<string, unknown> | null;
    };

/**
 * Claims `key` for this request (the primary key decides between racing requests), or returns the record of the
 * request holding it. One round trip (`claim_idempotency_key`).
 */
export async function claimIdempotencyKey(
  input: HeldIdempotencyKey & { requestHash: string },
): Promise<IdempotencyClaim> {
  const [row] = await getDb()<
    {
      claimed: boolean;
      request_hash: string;
      status: "in_flight" | "completed";
      response_status: number | null;
      response_body: Record<string, unknown> | null;
    }[]
  >`select * from claim_idempotency_key(
      ${input.accountId}::uuid, ${input.scope}::text, ${input.key}::text, ${input.requestHash}::text, ${input.token}::uuid,
      ${`${IDEMPOTENCY_TTL_HOURS} hours`}::interval, ${`${IDEMPOTENCY_STALE_SECONDS} seconds`}::interval)`;
  if (row.claimed) return { claimed: true };
  return {
    claimed: false,
    requestHash: row.request_hash,
    status: row.status,
    responseStatus: row.response_status,
    responseBody: row.response_body,
  };
}

/**
 * Stores the response the claim's request answered with; later requests with the key replay it. The email recorded
 * under `providerKey` (sent or scheduled) lets go of that key in the same statement: from now on the record replays
 * the answer, and once it expires the key starts a new email.
 */
export async function completeIdempotencyKey(
  input: HeldIdempotencyKey,
  response: { status: number; body: Record<string, unknown> },
  providerKey: string,
): Promise<void> {
  const db = getDb();
  // Sent as text and cast, so the JSON keeps its exact bytes (a json parameter would be serialised again).
  await db`
    with completed as (
      update idempotency_keys set status = 'completed', response_status = ${response.status},
             response_body = ${JSON.stringify(response.body)}::text::json, completed_at = now()
      where account_id = ${input.accountId} and scope = ${input.scope} and key = ${input.key} and token = ${input.token}
      returning key
    )
    ${releaseProviderKeySql(input.accountId, providerKey)}`;
}

/**
 * The dispatcher handed over an email whose request died, under `providerKey`: if that request's claim is still the
 * one it left (in flight, stale at `now`, not taken over by a retry), it is completed with `response` and the email
 * lets go of the key, so a retry replays the answer. Keys are matched through `isProviderKeyOf` (how the provider key
 * is derived from the caller's key belongs to the send path); only the account's stale claims are read.
 */
export async function completeStaleIdempotencyKey(
  input: {
    accountId: string;
    scope: string;
    providerKey: string;
    isProviderKeyOf: (key: string) => boolean;
    now: Date;
  },
  response: { status: number; body: Record<string, unknown> },
): Promise<boolean> {
  const db = getDb();
  const staleBefore = new Date(input.now.getTime() - IDEMPOTENCY_STALE_SECONDS * 1000);
  const stale = await db<{ key: string }[]>`
    select key from idempotency_keys
    where account_id = ${input.accountId} and scope = ${input.scope} and status = 'in_flight' and created_at <= ${staleBefore}`;
  const key = stale.map((row) => row.key).find(input.isProviderKeyOf);
  if (key === undefined) return false;
  // The conditions are checked again under the row's lock: a retry that took the claim over in between keeps it.
  const rows = await db<{ key: string }[]>`
    with completed as (
      update idempotency_keys set status = 'completed', response_status = ${response.status},
             response_body = ${JSON.stringify(response.body)}::text::json, completed_at = now()
      where account_id = ${input.accountId} and scope = ${input.scope} and key = ${key} and status = 'in_flight'
        and created_at <= ${staleBefore}
      returning key
    ), released as (
      ${releaseProviderKeySql(input.accountId, input.providerKey)}
    )
    select key from completed`;
  return rows.length > 0;
}

/** The statement (after `with completed as (…)`) by which a sent or scheduled email lets go of its provider key. */
function releaseProviderKeySql(accountId: string, providerKey: string) {
  return getDb()`
    update sent_emails set provider_idempotency_key = null
    where exists (select 1 from completed) and account_id = ${accountId}
      and provider_idempotency_key = ${providerKey} and status in ('sent', 'scheduled')`;
}

/** Gives the key up (the request failed without effect), so a retry with the same key runs afresh. */
export async function releaseIdempotencyKey(input: HeldIdempotencyKey): Promise<void> {
  await getDb()`
    delete from idempotency_keys
    where account_id = ${input.accountId} and scope = ${input.scope} and key = ${input.key} and token = ${input.token}`;
}

/** Housekeeping: drops records past their replay window. */
export async function deleteExpiredIdempotencyKeys(limit = 5000): Promise<number> {
  const rows = await getDb()<{ key: string }[]>`
    delete from idempotency_keys where (account_id, scope, key) in (
      select account_id, scope, key from idempotency_keys
      where created_at < now() - ${`${IDEMPOTENCY_TTL_HOURS} hours`}::interval
      limit ${limit}
    )
    returning key`;
  return rows.length;
}
