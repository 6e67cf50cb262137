"use client";
import { createBrowserClient } from "@supabase/ssr";

// The browser client (Supabase's `utils/supabase/client.ts`). NEXT_PUBLIC_* values are inlined at build time; the
// dashboard signs in through Server Actions, so this is for client components that need Supabase directly.
export function createSupabaseBrowserClient() {
  const url = process.env.NEXT_PUBLIC_SUPABASE_URL;
  const key = process.env.NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY ?? process.env.NEXT_PUBLIC_SUPABASE_ANON_KEY;
  if (!url || !key) throw new Error("Supabase is not configured (NEXT_PUBLIC_SUPABASE_URL and its publishable key)");
  return createBrowserClient(url, key);
}
