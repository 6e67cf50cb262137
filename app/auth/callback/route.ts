import type { EmailOtpType } from "@supabase/supabase-js";
import { NextResponse, type NextRequest } from "next/server";
import { safeNextPath } from "@/lib/auth/next-path";
import { getConfig } from "@/lib/core/config";

// GET /auth/callback – where Supabase's confirmation emails land (PKCE `code`, or `token_hash` + `type`). Exchanges
// the link for a session cookie, creates the user's account (or brings its email up to date), and continues to `next`.
export async function GET(request: NextRequest) {
  const { searchParams, origin } = request.nextUrl;
  const next = safeNextPath(searchParams.get("next"), origin);
  const failed = NextResponse.redirect(new URL("/signin?error=confirmation", origin));
  if (!getConfig().supabase) return failed;

  const { createSupabaseServerClient } = await import("@/lib/auth/supabase-client/server");
  const { personForSupabaseUser } = await import("@/lib/auth/supabase");
  const supabase = await createSupabaseServerClient();
  const code = searchParams.get("code");
  const tokenHash = searchParams.get("token_hash");
  const type = searchParams.get("type") as EmailOtpType | null;
  const { data, error } = code
    ? await supabase.auth.exchangeCodeForSession(code)
    : tokenHash && type
      ? await supabase.auth.verifyOtp({ type, token_hash: tokenHash })
      : { data: { user: null }, error: new Error("missing code") };
  if (error || !data.user) return failed;
  // The user Supabase has just answered with: its email (a confirmed change of email's new one) is as of now.
  const person = await personForSupabaseUser(data.user, new Date());
  if (!person) return failed;
  return NextResponse.redirect(new URL(next, origin));
}
