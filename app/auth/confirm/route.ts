import { NextResponse, type NextRequest } from "next/server";
import { confirmLocalSignUp } from "@/lib/auth/local";
import { setLocalSession } from "@/lib/auth/provider";
import { getConfig } from "@/lib/config";

// GET /auth/confirm?token=… – where a local sign-up's link lands: creates the account, signs it in, and opens the
// dashboard. Supabase sends its own links to /auth/callback, so with Supabase configured no token here is valid.
export async function GET(request: NextRequest) {
  const { searchParams } = request.nextUrl;
  // The app's public origin, as the emailed link is: behind `next start`, request.nextUrl names the host Next listens
  // on (localhost), which would carry the session cookie to another host than the one the browser has it for.
  const to = (path: string) => NextResponse.redirect(new URL(path, getConfig().siteUrl));
  if (getConfig().supabase) return to("/signin?error=sign_up_link");
  const confirmation = await confirmLocalSignUp(searchParams.get("token") ?? "");
  if (confirmation.status === "invalid") return to("/signin?error=sign_up_link");
  if (confirmation.status === "address_taken") return to("/signin?error=signed_up");
  await setLocalSession(confirmation.account.id);
  return to("/dashboard");
}
