import "server-only";
import { getDb } from "@/lib/db/client";
import {
  sendContextFromJson,
  templateForAccountFromJson,
  type LibraryPage,
  type SendContext,
  type TemplateForAccount,
} from "@/lib/db/templates";
import { API_CALL_LIMITS, type PlanName } from "@/lib/plans";
import { isUuid } from "@/lib/schemas/common";

/**
 * A session credential's sessionId is a local session's row, which must still exist; null when the session was
 * verified already (a Supabase JWT, or a dashboard page that loaded the signed-in account).
 */
export type Credential = { kind: "api_key"; keyHash: string } | { kind: "session"; accountId: string; sessionId: string | null };

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
 * A route's first read, named so that the authentication statement makes it too (for an allowed call) and the route
 * saves a statement: a page of the caller's library, a template with whether it is in the caller's library, or what
 * POST /send reads before rendering. Ids must be uuids.
 */
export type Preload =
  | { kind: "library"; limit: number; offset: number }
  | { kind: "template"; templateId: string }
  | { kind: "send_context"; templateId: string };

/** What each preload reads; nothing (undefined) for no preload. */
export type Preloaded<P> = P extends { kind: "library" }
  ? LibraryPage
  : P extends { kind: "template" }
    ? TemplateForAccount | null
    : P extends { kind: "send_context" }
      ? SendContext & { templateId: string }
      : undefined;

type CallerRow = {
  account_id: string;
  email: string;
  plan: PlanName;
  metered: boolean;
  allowed: boolean;
  used: number;
  quota: number | null;
  context: unknown;
};

/**
 * Resolves the credential and, for a metered endpoint, counts the call, decided atomically by `authenticate_and_meter`
 * so concurrent requests never exceed the quota; with a preload, an allowed call's first read comes back in the same
 * statement (the SQL functions `authenticate_and_read_*`). Null for an unknown credential.
 */
export async function authenticateAndMeter<P extends Preload | undefined = undefined>(
  credential: Credential,
  metered: boolean,
  periodStart: Date,
  preload?: P,
): Promise<(MeteredCaller & { preloaded: Preloaded<P> | undefined }) | null> {
  if (credential.kind === "session" && (!isUuid(credential.accountId) || (credential.sessionId !== null && !isUuid(credential.sessionId)))) {
    return null;
  }
  const db = getDb();
  const auth = db`
    ${credential.kind === "api_key" ? credential.keyHash : null}::text,
    ${credential.kind === "session" ? credential.accountId : null}::uuid,
    ${metered ? "api_calls" : null}::text,
    ${periodStart}::timestamptz,
    ${db.json(API_CALL_LIMITS)}::jsonb,
    ${credential.kind === "session" ? credential.sessionId : null}::uuid`;
  const read = preload as Preload | undefined;
  const [row] = await (read === undefined
    ? db<CallerRow[]>`select *, null as context from authenticate_and_meter(${auth})`
    : read.kind === "library"
      ? db<CallerRow[]>`select * from authenticate_and_read_library(${auth}, ${read.limit}::int, ${read.offset}::int)`
      : read.kind === "template"
        ? db<CallerRow[]>`select * from authenticate_and_read_template(${auth}, ${read.templateId}::uuid)`
        : db<CallerRow[]>`select * from authenticate_and_read_send_context(${auth}, ${read.templateId}::uuid)`);
  if (!row) return null;
  const { account_id: accountId, context, ...caller } = row;
  const preloaded = read !== undefined && caller.allowed ? parsePreloaded(read, context) : undefined;
  return { accountId, ...caller, preloaded: preloaded as Preloaded<P> | undefined };
}

function parsePreloaded(preload: Preload, json: unknown): Preloaded<Preload> {
  switch (preload.kind) {
    case "library":
      return json as LibraryPage;
    case "template":
      return templateForAccountFromJson(json);
    case "send_context":
      return { templateId: preload.templateId, ...sendContextFromJson(json) };
  }
}
