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
