import "server-only";
import { createServerClient } from "@supabase/ssr";
import type { SupabaseClient } from "@supabase/supabase-js";
import type { NextRequest } from "next/server";
import WebSocket from "ws";
import { getConfig } from "@/lib/core/config";

export type CookieToSet = { name: string; value: string; options: Record<string, unknown> };

// @supabase/ssr keeps the session in `sb-<project ref>-auth-token`, split into `.0`, `.1`, … when it is large.
const AUTH_COOKIE = /^sb-.+-auth-token(\.\d+)?$/;

/** Whether the cookies hold a Supabase session; without one there is nothing to verify or refresh, so no client. */
export function hasSupabaseAuthCookie(cookies: { name: string }[]): boolean {
  return cookies.some((cookie) => AUTH_COOKIE.test(cookie.name));
}

/** `issuedAt`: when the access token was issued, so what its email is as of. */
export type SupabaseUser = { id: string; email: string | undefined; issuedAt: Date | null };

/**
 * The user whose session the client's cookies hold, or null. getClaims() verifies the access token (against the
 * project's JWKS for asymmetric keys), refreshing an expired session first; never trust getSession()'s user.
 */
export async function verifiedSupabaseUser(client: SupabaseClient): Promise<SupabaseUser | null> {
  const { data, error } = await client.auth.getClaims();
  if (error || !data?.claims?.sub) return null;
  const { sub, email, iat } = data.claims;
  return {
    id: sub,
    email: typeof email === "string" ? email : undefined,
    issuedAt: typeof iat === "number" ? new Date(iat * 1000) : null,
  };
}

// A fresh client per request, reading the request's cookies (Supabase's Next.js pattern). The API routes stay out of
// the session-refresh proxy (it costs every API-key call), so a refreshed session is collected in `refreshed` for
// the caller to put on its response.
export function createSupabaseClientForRequest(request: NextRequest, refreshed: CookieToSet[]) {
  const supabase = getConfig().supabase;
  if (!supabase) throw new Error("Supabase is not configured");
  return createServerClient(supabase.url, supabase.publishableKey, {
    cookies: {
      getAll: () => request.cookies.getAll(),
      setAll: (cookiesToSet) => {
        refreshed.push(
          ...cookiesToSet.map(({ name, value, options }) => ({
            name,
            value,
            options: options as Record<string, unknown>,
          })),
        );
      },
    },
    // supabase-js on Node 20 has no native WebSocket; realtime is unused, but the client refuses to start without one.
    realtime: { transport: WebSocket as never },
  });
}

/**
 * The client for Server Components, Server Actions and Route Handlers (Supabase's `utils/supabase/server.ts`): reads
 * and writes the auth cookies through next/headers. Server Components cannot write cookies; the proxy refreshes the
 * session before they run, so a failed write there is safe to ignore.
 */
export async function createSupabaseServerClient() {
  const supabase = getConfig().supabase;
  if (!supabase) throw new Error("Supabase is not configured");
  const { cookies } = await import("next/headers");
  const cookieStore = await cookies();
  return createServerClient(supabase.url, supabase.publishableKey, {
    cookies: {
      getAll: () => cookieStore.getAll(),
      setAll: (cookiesToSet) => {
        try {
          for (const { name, value, options } of cookiesToSet) cookieStore.set(name, value, options);
        } catch {
          // Called from a Server Component: the proxy keeps the session fresh instead.
        }
      },
    },
    realtime: { transport: WebSocket as never },
  });
}
