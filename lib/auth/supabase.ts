import "server-only";
import type { SupabaseClient } from "@supabase/supabase-js";
import type { NextRequest } from "next/server";
import { getOrCreateAccountForAuthUser, type Account } from "@/lib/auth/data/accounts";
import {
  createSupabaseClientForRequest,
  createSupabaseServerClient,
  hasSupabaseAuthCookie,
  verifiedSupabaseUser,
  type CookieToSet,
} from "@/lib/auth/supabase-client/server";

// Supabase Auth users as our accounts. The API, dashboard pages and actions, the email callback and the proxy all
// turn a Supabase user into an account here.

/**
 * The user's account, created (or linked by email) on first sight; null when its email is another sign-in's account.
 * Its email follows the user's, as Supabase told it at `asOf`: now for the user Supabase has just answered with, the
 * issue time of a session's access token (whose email is as of then).
 */
export function accountForSupabaseUser(
  user: { id: string; email?: string | null },
  asOf: Date | null,
): Promise<Account | null> {
  return getOrCreateAccountForAuthUser(user.id, user.email ?? null, asOf);
}

/** The account of the Supabase session that the client's cookies hold, or null. */
async function supabaseSessionAccount(client: SupabaseClient): Promise<Account | null> {
  const user = await verifiedSupabaseUser(client);
  return user ? accountForSupabaseUser(user, user.issuedAt) : null;
}

/** For Server Components, Server Actions and Route Handlers: the account of the session in next/headers' cookies. */
export async function currentSupabaseAccount(): Promise<Account | null> {
  const { cookies } = await import("next/headers");
  if (!hasSupabaseAuthCookie((await cookies()).getAll())) return null;
  return supabaseSessionAccount(await createSupabaseServerClient());
}

/** For the API: the account of the session in the request's cookies, and the cookies of a session refreshed meanwhile. */
export async function readSupabaseSession(
  request: NextRequest,
): Promise<{ account: Account; refreshedCookies: CookieToSet[] } | null> {
  if (!hasSupabaseAuthCookie(request.cookies.getAll())) return null;
  const refreshedCookies: CookieToSet[] = [];
  const account = await supabaseSessionAccount(createSupabaseClientForRequest(request, refreshedCookies));
  return account ? { account, refreshedCookies } : null;
}
