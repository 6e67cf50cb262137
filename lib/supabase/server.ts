import "server-only";
import { createServerClient } from "@supabase/ssr";
import type { NextRequest } from "next/server";
import WebSocket from "ws";
import { getConfig } from "@/lib/config";

export type CookieToSet = { name: string; value: string; options: Record<string, unknown> };

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
        refreshed.push(...cookiesToSet.map(({ name, value, options }) => ({ name, value, options: options as Record<string, unknown> })));
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
