import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { findLocalEmailChange } from "@/lib/auth/local-recovery";
import { getConfig } from "@/lib/core/config";
import { ConfirmEmailChangeForm } from "../../password-forms";

// The URL holds a live token until the button is pressed: no other site is told it.
export const metadata: Metadata = { title: "Confirm your new email", referrer: "no-referrer" };

// GET /auth/confirm-email?token=… – where the link mailed to a new address lands. Opening it changes nothing: the
// change is made by this page's button, a same-origin Server Action.
export default async function ConfirmEmailChangePage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { token: given } = await searchParams;
  const token = typeof given === "string" ? given : "";
  // Supabase mails its own links to /auth/callback: with it configured, no token here is valid.
  const change = getConfig().supabase ? null : await findLocalEmailChange(token);
  if (!change) redirect("/signin?error=email_change_link");
  return (
    <>
      <h1>Confirm your new email</h1>
      <p className="subtitle">
        Sign in to the Letterpress account of <strong>{change.email}</strong> with <strong>{change.newEmail}</strong>{" "}
        from now on.
      </p>
      <ConfirmEmailChangeForm token={token} newEmail={change.newEmail} />
    </>
  );
}
