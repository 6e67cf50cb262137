import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";
import type { NextRequest } from "next/server";
import { getConfig } from "@/lib/config";

// Browser sessions. With Supabase configured, identity comes from Supabase Auth (lib/auth/supabase.ts); otherwise
// from local accounts, whose session is this signed cookie: `<base64url payload>.<base64url HMAC-SHA256>`.

export const LOCAL_SESSION_COOKIE = "lp-auth-token";
export const SESSION_MAX_AGE_SECONDS = 60 * 60 * 24 * 14;

type SessionPayload = { sub: string; exp: number };

function secret(): string {
  const value = getConfig().sessionSecret;
  if (!value) throw new Error("SESSION_SECRET is not set (the start scripts generate one for local development).");
  return value;
}

function sign(data: string): string {
  return createHmac("sha256", secret()).update(data).digest("base64url");
}

export function createLocalSessionToken(accountId: string, now = Date.now()): string {
  const payload: SessionPayload = { sub: accountId, exp: Math.floor(now / 1000) + SESSION_MAX_AGE_SECONDS };
  const data = Buffer.from(JSON.stringify(payload)).toString("base64url");
  return `${data}.${sign(data)}`;
}

export function verifyLocalSessionToken(token: string, now = Date.now()): string | null {
  const [data, signature, extra] = token.split(".");
  if (!data || !signature || extra !== undefined) return null;
  const expected = Buffer.from(sign(data));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const payload = JSON.parse(Buffer.from(data, "base64url").toString("utf8")) as SessionPayload;
    if (typeof payload.sub !== "string" || typeof payload.exp !== "number") return null;
    if (payload.exp * 1000 <= now) return null;
    return payload.sub;
  } catch {
    return null;
  }
}

export type SessionIdentity = {
  accountId: string;
  /** Cookies of a session refreshed while reading it (Supabase), to be set on the response. */
  refreshedCookies: { name: string; value: string; options: Record<string, unknown> }[];
};

/** The account behind the request's session cookie, or null. */
export async function readSession(request: NextRequest): Promise<SessionIdentity | null> {
  if (getConfig().supabase) {
    const { readSupabaseSession } = await import("@/lib/auth/supabase");
    return readSupabaseSession(request);
  }
  const token = request.cookies.get(LOCAL_SESSION_COOKIE)?.value;
  const accountId = token ? verifyLocalSessionToken(token) : null;
  return accountId ? { accountId, refreshedCookies: [] } : null;
}
