import "server-only";
import { getDb } from "@/lib/db/client";
import { isUuid } from "@/lib/schemas/common";
import { API_CALL_LIMITS, type PlanName } from "@/lib/plans";

/**
 * A session credential's sessionId is a local session's row, which must still exist; null when the session was
 * verified already (a Supabase JWT, or a dashboard page that loaded the signed-in account).
 */
export type Credential =
  { kind: "api_key"; keyHash: string } | { kind: "session"; accountId: string; sessionId: string | null };

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
};

/**
 * Resolves the credential and, for a metered endpoint, counts the call, decided atomically by `authenticate_and_meter`
 * so concurrent requests never exceed the quota. Null when the credential matches no account (or no live session).
 */
export async function authenticateAndMeter(
  credential: Credential,
  metered: boolean,
  periodStart: Date,
): Promise<MeteredCaller | null> {
  if (
    credential.kind === "session" &&
    (!isUuid(credential.accountId) || (credential.sessionId !== null && !isUuid(credential.sessionId)))
  ) {
    return null;
  }
  const db = getDb();
  const [caller] = await db<MeteredCaller[]>`
    select account_id as "accountId", email, plan, metered, allowed, used, quota
    from authenticate_and_meter(
      ${credential.kind === "api_key" ? credential.keyHash : null}::text,
      ${credential.kind === "session" ? credential.accountId : null}::uuid,
      ${metered ? "api_calls" : null}::text,
      ${periodStart}::timestamptz,
      ${db.json(API_CALL_LIMITS)},
      ${credential.kind === "session" ? credential.sessionId : null}::uuid)`;
  return caller ?? null;
}
