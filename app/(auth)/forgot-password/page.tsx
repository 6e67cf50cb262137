import type { Metadata } from "next";
import { ForgotPasswordForm } from "../password-forms";

export const metadata: Metadata = { title: "Forgot password" };

export default async function ForgotPasswordPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { error } = await searchParams;
  return (
    <>
      <h1>Forgot your password?</h1>
      <p className="subtitle">
        Enter the email you sign in with, and we will send you a link to choose a new password.
      </p>
      <ForgotPasswordForm
        notice={error === "reset_link" ? "That link has expired or was already used. Ask for a new one." : undefined}
      />
    </>
  );
}
