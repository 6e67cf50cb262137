import "server-only";
import type { SupabaseClient } from "@supabase/supabase-js";
import type { NextRequest } from "next/server";
import { getOrCreatePersonForAuthUser, type Person } from "@/lib/auth/data/accounts";
import {
  createSupabaseClientForRequest,
  createSupabaseServerClient,
  hasSupabaseAuthCookie,
  verifiedSupabaseUser,
  type CookieToSet,
} from "@/lib/auth/supabase-client/server";

// Supabase Auth users as our people. The API, dashboard pages and actions, the email callback and the proxy all
// turn a Supabase user into a person here.

/**
 * The user's person, created with their own team (or linked by email) on first sight; null when its email is another
 * sign-in's. Its email follows the user's, as Supabase told it at `asOf`: now for the user Supabase has just answered with, the
 * issue time of a session's access token (whose email is as of then).
 */
export function personForSupabaseUser(
  user: { id: string; email?: string | null },
  asOf: Date | null,
): Promise<Person | null> {
  return getOrCreatePersonForAuthUser(user.id, user.email ?? null, asOf);
}

/** The person of the Supabase session that the client's cookies hold, or null. */
async function supabaseSessionPerson(client: SupabaseClient): Promise<Person | null> {
  const user = await verifiedSupabaseUser(client);
  return user ? personForSupabaseUser(user, user.issuedAt) : null;
}

/** For Server Components, Server Actions and Route Handlers: the person of the session in next/headers' cookies. */
export async function currentSupabasePerson(): Promise<Person | null> {
  const { cookies } = await import("next/headers");
  if (!hasSupabaseAuthCookie((await cookies()).getAll())) return null;
  return supabaseSessionPerson(await createSupabaseServerClient());
}

/** For the API: the person of the session in the request's cookies, and the cookies of a session refreshed meanwhile. */
export async function readSupabaseSession(
  request: NextRequest,
): Promise<{ person: Person; refreshedCookies: CookieToSet[] } | null> {
  if (!hasSupabaseAuthCookie(request.cookies.getAll())) return null;
  const refreshedCookies: CookieToSet[] = [];
  const person = await supabaseSessionPerson(createSupabaseClientForRequest(request, refreshedCookies));
  return person ? { person, refreshedCookies } : null;
}
