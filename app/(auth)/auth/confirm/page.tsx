import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getCurrentSession } from "@/lib/auth/current";
import { findLocalSignUp } from "@/lib/auth/local";
import { safeNextPath } from "@/lib/auth/next-path";
import { getConfig } from "@/lib/core/config";
import { ConfirmSignUpForm } from "./confirm-form";

// The URL holds a live token until the button is pressed: no other site is told it.
export const metadata: Metadata = { title: "Finish signing up", referrer: "no-referrer" };

// GET /auth/confirm?token=… – where a local sign-up's link lands. Opening it changes nothing: another site can send a
// browser here, so the account is created (and the browser signed in) only by this page's button, a Server Action
// that the proxy and the action itself refuse from any other origin.
export default async function ConfirmSignUpPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { token: given, next } = await searchParams;
  const token = typeof given === "string" ? given : "";
  // Supabase mails its own links to /auth/callback: with it configured, no token here is valid.
  const pending = getConfig().supabase ? null : await findLocalSignUp(token);
  if (!pending) redirect("/signin?error=sign_up_link");
  const signedIn = await getCurrentSession();
  return (
    <>
      <h1>Finish signing up</h1>
      <p className="subtitle">
        Create the Letterpress account for <strong>{pending.email}</strong>.
      </p>
      <ConfirmSignUpForm
        token={token}
        email={pending.email}
        signedInAs={signedIn?.person.email ?? null}
        next={safeNextPath(next, getConfig().siteUrl)}
      />
    </>
  );
}
