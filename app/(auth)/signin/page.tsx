import type { Metadata } from "next";
import { safeNextPath } from "@/lib/auth/next-path";
import { getConfig } from "@/lib/core/config";
import { signInAction } from "../actions";
import { AuthForm } from "../auth-form";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  const next = safeNextPath(params.next, getConfig().siteUrl);
  const notice = params.signed_out
    ? params.signed_out === "everywhere"
      ? "You have been signed out on every browser."
      : "You have been signed out."
    : params.error === "confirmation"
      ? "That confirmation link is invalid or has expired. Sign in or sign up again."
      : params.error === "sign_up_link"
        ? "This link has expired or was already used. Sign up again."
        : params.error === "signed_up"
          ? "This address already has an account. Sign in with its password."
          : params.error === "email_change_link"
            ? "That link has expired or was already used. Ask for the change again in Settings."
            : params.password_reset
              ? "Your password was changed, and every browser signed out. Sign in with your new password."
              : typeof params.next === "string" && next !== "/dashboard"
                ? "Sign in to continue. You will be taken back to the page you were on."
                : undefined;
  return (
    <>
      <h1>Welcome back</h1>
      <p className="subtitle">Sign in to manage your templates, keys and usage.</p>
      <AuthForm mode="signin" action={signInAction} next={next} notice={notice} />
    </>
  );
}
