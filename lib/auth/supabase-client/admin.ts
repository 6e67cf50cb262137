import "server-only";
import { createClient } from "@supabase/supabase-js";
import WebSocket from "ws";
import { getConfig } from "@/lib/core/config";

/**
 * A client of the Auth admin API, with the project's secret key: no session, no cookies. Only for what a person
 * cannot do with their own session (deleting their Auth user); never reaches a browser.
 */
export function createSupabaseAdminClient(secretKey: string) {
  const supabase = getConfig().supabase;
  if (!supabase) throw new Error("Supabase is not configured");
  return createClient(supabase.url, secretKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    // supabase-js on Node 20 has no native WebSocket; realtime is unused, but the client refuses to start without one.
    realtime: { transport: WebSocket as never },
  });
}
