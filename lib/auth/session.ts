import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";
import type { NextRequest } from "next/server";
import { getConfig } from "@/lib/core/config";
import { findPersonTeam } from "@/lib/auth/data/accounts";
import { isUuid } from "@/lib/core/schemas";
import type { CookieToSet } from "@/lib/auth/supabase-client/server";

// Browser sessions. With Supabase configured, identity comes from Supabase Auth (lib/auth/supabase.ts); otherwise
// from local accounts, whose session is this signed cookie: `<base64url payload>.<base64url HMAC-SHA256>`. The
// payload names a row of the sessions table (lib/auth/data/sessions.ts), which signing out deletes: the signature alone
// only proves the cookie was ours, so every place that accepts a local session also checks its row.

export const LOCAL_SESSION_COOKIE = "lp-auth-token";
export const SESSION_MAX_AGE_SECONDS = 60 * 60 * 24 * 14;
/** The team switcher's choice: a team id, resolved against the person's memberships on every request. */
export const TEAM_COOKIE = "lp-team";

type SessionPayload = { sub: string; sid: string; exp: number };

/** What a validly signed, unexpired local session cookie claims; its row still has to exist. */
export type LocalSessionClaims = { personId: string; sessionId: string };

function secret(): string {
  const value = getConfig().sessionSecret;
  if (!value) throw new Error("SESSION_SECRET is not set (the start scripts generate one for local development).");
  return value;
}

function sign(data: string): string {
  return createHmac("sha256", secret()).update(data).digest("base64url");
}

export function createLocalSessionToken(session: { personId: string; sessionId: string; expiresAt: Date }): string {
  const payload: SessionPayload = {
    sub: session.personId,
    sid: session.sessionId,
    exp: Math.floor(session.expiresAt.getTime() / 1000),
  };
  const data = Buffer.from(JSON.stringify(payload)).toString("base64url");
  return `${data}.${sign(data)}`;
}

export function verifyLocalSessionToken(token: string, now = Date.now()): LocalSessionClaims | null {
  const [data, signature, extra] = token.split(".");
  if (!data || !signature || extra !== undefined) return null;
  const expected = Buffer.from(sign(data));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const payload = JSON.parse(Buffer.from(data, "base64url").toString("utf8")) as SessionPayload;
    if (!isUuid(payload.sub) || !isUuid(payload.sid) || typeof payload.exp !== "number") return null;
    if (payload.exp * 1000 <= now) return null;
    return { personId: payload.sub, sessionId: payload.sid };
  } catch {
    return null;
  }
}

/** The claims of the local session cookie among `cookies` (a request's, or next/headers'), if validly signed. */
export function readLocalSessionClaims(cookies: {
  get(name: string): { value: string } | undefined;
}): LocalSessionClaims | null {
  const token = cookies.get(LOCAL_SESSION_COOKIE)?.value;
  return token ? verifyLocalSessionToken(token) : null;
}

/** Whether a local session's claims still hold: its row lasts (signing out deletes it). */
export async function isLocalSessionLive(claims: LocalSessionClaims): Promise<boolean> {
  return (await findPersonTeam(claims.personId, claims.sessionId, null)) !== null;
}

/** The team the switcher chose, among `cookies`, when it is a well-formed id; whether it is the person's is checked later. */
export function readTeamChoice(cookies: { get(name: string): { value: string } | undefined }): string | null {
  const value = cookies.get(TEAM_COOKIE)?.value;
  return value && isUuid(value) ? value : null;
}

export type SessionIdentity = {
  personId: string;
  /** The local session's id, which the credential check looks up; null for Supabase, whose JWT was verified. */
  sessionId: string | null;
  /** Cookies of a session refreshed while reading it (Supabase), to be set on the response. */
  refreshedCookies: CookieToSet[];
};

/**
 * Whether the request carries a session cookie at all (valid or not): a refused one is told to sign in again, a
 * request with none that it has no credentials.
 */
export async function hasSessionCookie(request: NextRequest): Promise<boolean> {
  if (!getConfig().supabase) return request.cookies.has(LOCAL_SESSION_COOKIE);
  const { hasSupabaseAuthCookie } = await import("@/lib/auth/supabase-client/server");
  return hasSupabaseAuthCookie(request.cookies.getAll());
}

/** The person behind the request's session cookie, or null; a local session's row is checked by the caller's query. */
export async function readSession(request: NextRequest): Promise<SessionIdentity | null> {
  if (getConfig().supabase) {
    const { readSupabaseSession } = await import("@/lib/auth/supabase");
    const session = await readSupabaseSession(request);
    return session
      ? { personId: session.person.id, sessionId: null, refreshedCookies: session.refreshedCookies }
      : null;
  }
  const claims = readLocalSessionClaims(request.cookies);
  return claims ? { ...claims, refreshedCookies: [] } : null;
}
