import "server-only";
import type { ApiKeyGrant } from "@/lib/api-keys/service";
import { getDb } from "@/lib/db/client";
import { isUuid } from "@/lib/core/schemas";
import { API_CALL_LIMITS, type PlanName } from "@/lib/core/plans";
import type { Role } from "@/lib/teams/rights";

/**
 * An account credential is a dashboard page's team, whose signed-in person was checked already. A session credential
 * names a person; its sessionId is a local session's row, which must still exist (null when the
 * session was verified already: a Supabase JWT, or a dashboard page that loaded the signed-in person); teamId is the
 * team switcher's choice, honoured while the person is its member.
 */
export type Credential =
  | { kind: "api_key"; keyHash: string }
  | { kind: "session"; personId: string; sessionId: string | null; teamId: string | null }
  | { kind: "account"; accountId: string };

export type MeteredCaller = {
  /** The team. */
  accountId: string;
  plan: PlanName;
  /** Whether this call was counted (false for unmetered endpoints). */
  metered: boolean;
  /** False when the monthly API quota is exhausted: the call was refused and not counted. */
  allowed: boolean;
  /** API calls counted this period, this one included. */
  used: number;
  /** Monthly API call limit; null is unlimited. */
  quota: number | null;
  /** The API key's grant; null for a browser session. */
  apiKey: ApiKeyGrant | null;
  /** The API key's name (the audit log's actor); null for a browser session. */
  keyName: string | null;
  /** A browser session's person and their role in the team; null for an API key, whose scope is its rights. */
  personId: string | null;
  personEmail: string | null;
  role: Role | null;
  /** A sending_access key on a route that does not admit it: refused, and the call was not counted. */
  insufficientScope: boolean;
};

type CallerRow = Omit<MeteredCaller, "apiKey" | "keyName" | "insufficientScope"> & {
  key_id: string | null;
  key_kind: ApiKeyGrant["kind"] | null;
  key_scope: ApiKeyGrant["scope"] | null;
  key_domain: string | null;
  key_name: string | null;
  insufficient_scope: boolean | null;
};

/**
 * Resolves the credential and, for a metered endpoint, counts the call, decided atomically by `authenticate_and_meter`
 * so concurrent requests never exceed the quota. Null when the credential matches no account (or no live session, or
 * the key expired). `sendingAccess`: the route admits sending_access keys; a call it does not admit is not counted.
 */
export async function authenticateAndMeter(
  credential: Credential,
  { metered, sendingAccess }: { metered: boolean; sendingAccess: boolean },
  periodStart: Date,
): Promise<MeteredCaller | null> {
  if (
    (credential.kind === "session" &&
      (!isUuid(credential.personId) ||
        (credential.sessionId !== null && !isUuid(credential.sessionId)) ||
        (credential.teamId !== null && !isUuid(credential.teamId)))) ||
    (credential.kind === "account" && !isUuid(credential.accountId))
  ) {
    return null;
  }
  const db = getDb();
  const [row] = await db<CallerRow[]>`
    select account_id as "accountId", plan, metered, allowed, used, quota, key_id, key_kind, key_scope, key_domain,
           key_name, insufficient_scope, person_id as "personId", person_email as "personEmail", role
    from authenticate_and_meter(
      ${credential.kind === "api_key" ? credential.keyHash : null}::text,
      ${credential.kind === "session" ? credential.personId : null}::uuid,
      ${credential.kind === "session" ? credential.teamId : credential.kind === "account" ? credential.accountId : null}::uuid,
      ${metered ? "api_calls" : null}::text,
      ${periodStart}::timestamptz,
      ${db.json(API_CALL_LIMITS)},
      ${credential.kind === "session" ? credential.sessionId : null}::uuid,
      ${sendingAccess}::boolean)`;
  if (!row) return null;
  const {
    key_id: id,
    key_kind: kind,
    key_scope: scope,
    key_domain: domain,
    key_name: name,
    insufficient_scope: insufficientScope,
    ...caller
  } = row;
  return {
    ...caller,
    apiKey: id && kind && scope ? { id, kind, scope, domain } : null,
    keyName: name,
    insufficientScope: insufficientScope === true,
  };
}
