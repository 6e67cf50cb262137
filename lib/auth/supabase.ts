import "server-only";
import type { NextRequest } from "next/server";
import { getOrCreateAccountForAuthUser } from "@/lib/db/accounts";
import { createSupabaseClientForRequest } from "@/lib/supabase/server";

/** The account of the Supabase user whose verified access token is in the request's cookies, or null. */
export async function readSupabaseAccountId(request: NextRequest): Promise<string | null> {
  const hasAuthCookie = request.cookies.getAll().some((cookie) => /^sb-.+-auth-token(\.\d+)?$/.test(cookie.name));
  if (!hasAuthCookie) return null;
  const supabase = createSupabaseClientForRequest(request);
  // getClaims() verifies the JWT (against the project's JWKS for asymmetric keys); never trust getSession()'s user.
  const { data, error } = await supabase.auth.getClaims();
  if (error || !data?.claims?.sub) return null;
  const email = typeof data.claims.email === "string" ? data.claims.email : `${data.claims.sub}@users.supabase`;
  const account = await getOrCreateAccountForAuthUser(data.claims.sub, email);
  return account.id;
}
