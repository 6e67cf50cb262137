import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getCurrentSession } from "@/lib/auth/current";
import { findLocalPasswordReset } from "@/lib/auth/local-recovery";
import { getConfig } from "@/lib/core/config";
import { ResetPasswordForm } from "../../password-forms";

// The URL holds a live token until the form is posted: no other site is told it.
export const metadata: Metadata = { title: "Choose a new password", referrer: "no-referrer" };

// GET /auth/reset-password?token=… – where a local password reset's link lands. Opening it changes nothing (a mail
// scanner that follows links uses up no token): the password is set by this page's form, a same-origin Server Action.
// With Supabase, its reset link signs the browser in through /auth/callback, which continues here with no token.
export default async function ResetPasswordPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { token: given } = await searchParams;
  const token = typeof given === "string" ? given : "";
  const reset = getConfig().supabase
    ? await getCurrentSession().then((session) => (session ? { email: session.person.email } : null))
    : await findLocalPasswordReset(token);
  if (!reset) redirect("/forgot-password?error=reset_link");
  return (
    <>
      <h1>Choose a new password</h1>
      <p className="subtitle">
        For <strong>{reset.email}</strong>. Every browser signed in to the account is signed out.
      </p>
      <ResetPasswordForm token={token} email={reset.email} />
    </>
  );
}
