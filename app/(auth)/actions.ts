"use server";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { clientAddress, isSameOriginAction, linkOrigin } from "@/lib/api/client-address";
import {
  forgotPasswordSchema,
  parseAuthForm,
  parseCredentials,
  resetPasswordSchema,
  signInSchema,
  signUpSchema,
} from "@/lib/auth/credentials";
import { confirmLocalSignUp } from "@/lib/auth/local";
import { confirmLocalEmailChange, resetLocalPassword } from "@/lib/auth/local-recovery";
import { safeNextPath } from "@/lib/auth/next-path";
import { getAuthProvider, setLocalSession, setSupabasePassword } from "@/lib/auth/provider";
import { throttlePasswordReset, throttleSignIn, throttleSignUp } from "@/lib/auth/throttle";
import { getConfig } from "@/lib/core/config";
import { AppError, type ValidationDetail } from "@/lib/core/errors";

export type AuthFormState = {
  status: "idle" | "error" | "check_email";
  message?: string;
  fields?: Partial<Record<"email" | "password", string>>;
  email?: string;
};

export async function signInAction(_previous: AuthFormState, formData: FormData): Promise<AuthFormState> {
  const email = String(formData.get("email") ?? "");
  try {
    const credentials = parseCredentials(signInSchema, { email, password: formData.get("password") ?? "" });
    await throttleSignIn(credentials.email, await requestIp(), () => getAuthProvider().signIn(credentials));
  } catch (error) {
    return failure(error, email);
  }
  redirect(safeNextPath(formData.get("next"), getConfig().siteUrl));
}

export async function signUpAction(_previous: AuthFormState, formData: FormData): Promise<AuthFormState> {
  const email = String(formData.get("email") ?? "");
  const next = safeNextPath(formData.get("next"), getConfig().siteUrl);
  let result;
  let address;
  try {
    const credentials = parseCredentials(signUpSchema, { email, password: formData.get("password") ?? "" });
    address = credentials.email;
    // Every sign-up request mails the address, so each one counts, per address and per IP (on counters of its own).
    const origin = linkOrigin(await headers());
    result = await throttleSignUp(credentials.email, await requestIp(), () =>
      getAuthProvider().signUp(credentials, origin, next),
    );
  } catch (error) {
    return failure(error, email);
  }
  if (result.status === "check_email") {
    return {
      status: "check_email",
      email,
      // Without an email provider nothing reaches the inbox: whoever runs the app finds the link in its terminal.
      message:
        result.linkIn === "inbox"
          ? `Check your inbox: we sent a link to finish signing up to ${address}.`
          : `No email provider is configured, so the link to finish signing up to ${address} was printed in the terminal running the app.`,
    };
  }
  redirect(next);
}

export type ConfirmSignUpState =
  | { status: "idle" }
  | { status: "error"; message: string }
  /** The account was created, and the browser stays signed in to the other account it was signed in to. */
  | { status: "created"; email: string; signedInAs: string };

const SIGN_UP_LINK_USED_MESSAGE = "This link has expired or was already used. Sign up again.";
const SIGNED_UP_ALREADY_MESSAGE = "This address already has an account. Sign in with its password.";
const CROSS_SITE_MESSAGE = "This request came from another site. Open the link from your email again.";

/**
 * The button of a sign-up link's page (app/(auth)/auth/confirm): creates the account and signs this browser in to it,
 * unless the browser is signed in to another account already. Then that session is kept and the page says how to
 * switch: a link someone else sent must never move a signed-in person into an account its sender controls.
 */
export async function confirmSignUpAction(
  _previous: ConfirmSignUpState,
  formData: FormData,
): Promise<ConfirmSignUpState> {
  if (!isSameOriginAction(await headers())) return { status: "error", message: CROSS_SITE_MESSAGE };
  // Supabase mails its own links to /auth/callback: with it configured, no token here is valid.
  if (getConfig().supabase) return { status: "error", message: SIGN_UP_LINK_USED_MESSAGE };
  const signedIn = await getAuthProvider().currentSession();
  const confirmation = await confirmLocalSignUp(String(formData.get("token") ?? ""));
  if (confirmation.status === "invalid") return { status: "error", message: SIGN_UP_LINK_USED_MESSAGE };
  if (confirmation.status === "address_taken") return { status: "error", message: SIGNED_UP_ALREADY_MESSAGE };
  if (signedIn) {
    return { status: "created", email: confirmation.account.person.email, signedInAs: signedIn.person.email };
  }
  await setLocalSession(confirmation.account.person.id);
  // Where the sign-up began (an invitation's page, say), as the link carried it to the page's form.
  redirect(safeNextPath(formData.get("next"), getConfig().siteUrl));
}

/**
 * "Forgot password?": the same answer for every address, with an account or not (the email says which), and a link
 * only the address's inbox (or, with no email provider, the server's log) receives.
 */
export async function forgotPasswordAction(_previous: AuthFormState, formData: FormData): Promise<AuthFormState> {
  const email = String(formData.get("email") ?? "");
  let address;
  let linkIn;
  try {
    address = parseAuthForm(forgotPasswordSchema, { email }).email;
    const requested = address;
    const origin = linkOrigin(await headers());
    linkIn = await throttlePasswordReset(requested, await requestIp(), () =>
      getAuthProvider().requestPasswordReset(requested, origin),
    );
  } catch (error) {
    return failure(error, email);
  }
  return {
    status: "check_email",
    email,
    message:
      linkIn === "inbox"
        ? `If an account exists for ${address}, we sent it a link to choose a new password. Check your inbox.`
        : `If an account exists for ${address}, we sent it a link to choose a new password. No email provider is configured, so the email was printed in the terminal running the app.`,
  };
}

export type ResetPasswordState =
  { status: "idle" } | { status: "error"; message: string; fields?: Partial<Record<"password", string>> };

const RESET_LINK_USED_MESSAGE = "This link has expired or was already used. Ask for a new one.";

/**
 * The form of a password reset link's page (app/(auth)/auth/reset-password): sets the new password, once, and ends
 * every session of the account; the browser then signs in with it. With Supabase the browser is signed in already, by
 * the link, and stays signed in.
 */
export async function resetPasswordAction(
  _previous: ResetPasswordState,
  formData: FormData,
): Promise<ResetPasswordState> {
  if (!isSameOriginAction(await headers())) return { status: "error", message: CROSS_SITE_MESSAGE };
  let password;
  try {
    password = parseAuthForm(resetPasswordSchema, { password: formData.get("password") ?? "" }).password;
    if (getConfig().supabase) {
      if (!(await getAuthProvider().currentSession())) return { status: "error", message: RESET_LINK_USED_MESSAGE };
      await setSupabasePassword(password);
    } else if (!(await resetLocalPassword(String(formData.get("token") ?? ""), password))) {
      return { status: "error", message: RESET_LINK_USED_MESSAGE };
    }
  } catch (error) {
    const { message = RESET_LINK_USED_MESSAGE, fields } = failure(error, "");
    return { status: "error", message, ...(fields?.password ? { fields: { password: fields.password } } : {}) };
  }
  redirect(getConfig().supabase ? "/dashboard" : "/signin?password_reset=1");
}

export type ConfirmEmailChangeState =
  { status: "idle" } | { status: "error"; message: string } | { status: "changed"; email: string };

const EMAIL_CHANGE_FAILED_MESSAGE =
  "We couldn't change the email with this link: it has expired or was already used, or the address is no longer free. Ask for the change again in Settings.";

/** The button of an email change link's page (app/(auth)/auth/confirm-email): makes the change, once. */
export async function confirmEmailChangeAction(
  _previous: ConfirmEmailChangeState,
  formData: FormData,
): Promise<ConfirmEmailChangeState> {
  if (!isSameOriginAction(await headers())) return { status: "error", message: CROSS_SITE_MESSAGE };
  // Supabase mails its own links to /auth/callback: with it configured, no token here is valid.
  if (getConfig().supabase) return { status: "error", message: EMAIL_CHANGE_FAILED_MESSAGE };
  const change = await confirmLocalEmailChange(String(formData.get("token") ?? ""));
  return change.status === "changed"
    ? { status: "changed", email: change.newEmail }
    : { status: "error", message: EMAIL_CHANGE_FAILED_MESSAGE };
}

export async function signOutAction(): Promise<void> {
  await getAuthProvider().signOut();
  redirect("/signin?signed_out=1");
}

export async function signOutEverywhereAction(): Promise<void> {
  await getAuthProvider().signOutEverywhere();
  redirect("/signin?signed_out=everywhere");
}

async function requestIp(): Promise<string | null> {
  return clientAddress(await headers());
}

function failure(error: unknown, email: string): AuthFormState {
  if (error instanceof AppError) {
    // A refused field (VALIDATION_ERROR's details) is shown beside it.
    const details = (error.options.details ?? []) as ValidationDetail[];
    const fields = Object.fromEntries(details.map(({ field, message }) => [field, message]));
    return { status: "error", message: error.message, fields, email };
  }
  console.error(
    JSON.stringify({
      level: "error",
      message: "auth action failed",
      error: error instanceof Error ? error.message : String(error),
    }),
  );
  return { status: "error", message: "Something went wrong on our side. Please try again in a moment.", email };
}
