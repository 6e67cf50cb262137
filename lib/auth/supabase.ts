import "server-only";
import type { NextRequest } from "next/server";
import type { SessionIdentity } from "@/lib/auth/session";
import { getOrCreateAccountForAuthUser } from "@/lib/db/accounts";
import { createSupabaseClientForRequest, type CookieToSet } from "@/lib/supabase/server";

/** The account of the Supabase user whose verified access token is in the request's cookies, or null. */
export async function readSupabaseSession(request: NextRequest): Promise<SessionIdentity | null> {
  const hasAuthCookie = request.cookies.getAll().some((cookie) => /^sb-.+-auth-token(\.\d+)?$/.test(cookie.name));
  if (!hasAuthCookie) return null;
  const refreshedCookies: CookieToSet[] = [];
  const supabase = createSupabaseClientForRequest(request, refreshedCookies);
  // getClaims() verifies the JWT (against the project's JWKS for asymmetric keys), refreshing an expired session
  // first; never trust getSession()'s user.
  const { data, error } = await supabase.auth.getClaims();
  if (error || !data?.claims?.sub) return null;
  const email = typeof data.claims.email === "string" ? data.claims.email : `${data.claims.sub}@users.supabase`;
  const account = await getOrCreateAccountForAuthUser(data.claims.sub, email);
  return account ? { accountId: account.id, sessionId: null, refreshedCookies } : null;
}
