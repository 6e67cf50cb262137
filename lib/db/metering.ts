import "server-only";
import { getDb } from "@/lib/db/client";
import { digestLiteral, isUuid, jsonLiteral, keywordLiteral, timestampLiteral, uuidLiteral } from "@/lib/db/literals";
import { API_CALL_LIMITS, type PlanName } from "@/lib/plans";

/**
 * A session credential's sessionId is a local session's row, which must still exist; null when the session was
 * verified already (a Supabase JWT, or a dashboard page that loaded the signed-in account).
 */
export type Credential =
  { kind: "api_key"; keyHash: string } | { kind: "session"; accountId: string; sessionId: string | null };

/** A route's first read, run in the authentication statement: SQL over `caller.account_id` and its result's type. */
export type Preload<P> = { sql: string; parse: (value: unknown) => P };

export type MeteredCaller = {
  accountId: string;
  email: string;
  plan: PlanName;
  /** Whether this call was counted (false for unmetered endpoints). */
  metered: boolean;
  /** False when the monthly API quota is exhausted: the call was refused and not counted. */
  allowed: boolean;
  /** API calls counted this period, this one included. */
  used: number;
  /** Monthly API call limit; null is unlimited. */
  quota: number | null;
  /** The value of the `preload` SQL, when given and the call was allowed; else null. */
  preloaded: unknown;
};

/**
 * Resolves the credential and, for a metered endpoint, counts the call — one database round trip (a simple-protocol
 * query, see lib/db/literals.ts), decided atomically by `authenticate_and_meter` so concurrent requests never exceed
 * the quota.
 *
 * `preload` is a SQL expression over `caller.account_id` (built only from checked literals) that the route would
 * otherwise run as its own query right after: it runs in the same statement, only for an allowed call, and saves
 * the route a round trip.
 */
export async function authenticateAndMeter(
  credential: Credential,
  metered: boolean,
  periodStart: Date,
  preload?: string,
): Promise<MeteredCaller | null> {
  if (
    credential.kind === "session" &&
    (!isUuid(credential.accountId) || (credential.sessionId !== null && !isUuid(credential.sessionId)))
  ) {
    return null;
  }
  // A CTE calling a volatile function is materialised: authenticate_and_meter runs once, before the preload reads.
  const [caller] = await getDb().unsafe<MeteredCaller[]>(`with caller as (
      select * from authenticate_and_meter(
        ${digestLiteral(credential.kind === "api_key" ? credential.keyHash : null)},
        ${uuidLiteral(credential.kind === "session" ? credential.accountId : null)},
        ${keywordLiteral(metered ? "api_calls" : null, ["api_calls"])},
        ${timestampLiteral(periodStart)},
        ${jsonLiteral(API_CALL_LIMITS)},
        ${uuidLiteral(credential.kind === "session" ? credential.sessionId : null)}
      )
    )
    select caller.account_id as "accountId", caller.email, caller.plan, caller.metered, caller.allowed, caller.used,
           caller.quota, ${preload ? `case when caller.allowed then (${preload}) end` : "null::json"} as preloaded
    from caller`);
  return caller ?? null;
}
