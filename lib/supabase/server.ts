import "server-only";
import { createServerClient } from "@supabase/ssr";
import type { NextRequest } from "next/server";
import WebSocket from "ws";
import { getConfig } from "@/lib/config";

// A fresh client per request, reading the request's cookies (Supabase's Next.js pattern). Route handlers never write
// cookies here: the session-refresh proxy (proxy.ts) does that before the request reaches them.
export function createSupabaseClientForRequest(request: NextRequest) {
  const supabase = getConfig().supabase;
  if (!supabase) throw new Error("Supabase is not configured");
  return createServerClient(supabase.url, supabase.publishableKey, {
    cookies: {
      getAll: () => request.cookies.getAll(),
      setAll: () => {},
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
