import { createServerClient } from "@supabase/ssr";
import { NextResponse, type NextRequest } from "next/server";
import WebSocket from "ws";
import { getConfig } from "@/lib/core/config";
import { hasSupabaseAuthCookie, verifiedSupabaseUser, type SupabaseUser } from "@/lib/auth/supabase-client/server";

/**
 * Supabase's session refresh for the proxy (its Next.js example's `updateSession`): verifies the access token with
 * getClaims(), refreshing it when it has expired, and writes the new cookies both to the request the rest of the app
 * sees and to the response the browser gets. Returns the response to continue with and the signed-in user, if any.
 */
export async function updateSupabaseSession(
  request: NextRequest,
): Promise<{ response: NextResponse; user: SupabaseUser | null }> {
  const supabase = getConfig().supabase;
  let response = NextResponse.next({ request });
  // Nothing to refresh (API-key calls, visitors): skip the client entirely.
  if (!supabase || !hasSupabaseAuthCookie(request.cookies.getAll())) return { response, user: null };
  const client = createServerClient(supabase.url, supabase.publishableKey, {
    cookies: {
      getAll: () => request.cookies.getAll(),
      setAll: (cookiesToSet, headers) => {
        for (const { name, value } of cookiesToSet) request.cookies.set(name, value);
        response = NextResponse.next({ request });
        for (const { name, value, options } of cookiesToSet) response.cookies.set(name, value, options);
        for (const [key, value] of Object.entries(headers ?? {})) response.headers.set(key, value);
      },
    },
    realtime: { transport: WebSocket as never },
  });
  // Nothing may run between creating the client and getClaims(): that call is what refreshes the session.
  const user = await verifiedSupabaseUser(client);
  return { response, user };
}
