"use client";
import Link from "next/link";
import { useActionState } from "react";
import { NewPasswordField } from "../_components/new-password-field";
import { SubmitButton } from "../_components/submit-button";
import {
  confirmEmailChangeAction,
  forgotPasswordAction,
  resetPasswordAction,
  type AuthFormState,
  type ConfirmEmailChangeState,
  type ResetPasswordState,
} from "./actions";
import { AuthFormEmail } from "./auth-form-email";

/** "Forgot password?": the address to mail, then the one answer every address gets. */
export function ForgotPasswordForm({ notice }: { notice?: string }) {
  const [state, formAction] = useActionState<AuthFormState, FormData>(forgotPasswordAction, { status: "idle" });
  if (state.status === "check_email") {
    return (
      <div className="stack">
        <div className="alert alert-success" role="status">
          <p>{state.message}</p>
        </div>
        <p className="auth-switch">
          <Link href="/signin">Back to sign in</Link>
        </p>
      </div>
    );
  }
  return (
    <form action={formAction} className="stack" noValidate>
      <AuthFormEmail state={state} notice={notice} />
      <SubmitButton className="btn btn-primary btn-block btn-lg" pendingLabel="Sending…">
        Send the link
      </SubmitButton>
      <p className="auth-switch">
        Remembered it? <Link href="/signin">Sign in</Link>
      </p>
    </form>
  );
}

export type ResetPasswordFormProps = { token: string; email: string };

/** The form of a password reset link's page: the new password, posted with the link's token. */
export function ResetPasswordForm({ token, email }: ResetPasswordFormProps) {
  const [state, formAction] = useActionState<ResetPasswordState, FormData>(resetPasswordAction, { status: "idle" });
  return (
    <form action={formAction} className="stack" noValidate>
      <input type="hidden" name="token" value={token} />
      {/* For password managers: the account the new password is for. */}
      <input type="hidden" name="username" autoComplete="username" value={email} />
      {state.status === "error" && (
        <div className="alert alert-danger" role="alert">
          <p>{state.message}</p>
          {!state.fields && (
            <p>
              <Link href="/forgot-password">Ask for a new link</Link>
            </p>
          )}
        </div>
      )}
      <NewPasswordField error={state.status === "error" ? state.fields?.password : undefined} />
      <SubmitButton className="btn btn-primary btn-block btn-lg" pendingLabel="Saving…">
        Set the new password
      </SubmitButton>
    </form>
  );
}

export type ConfirmEmailChangeFormProps = { token: string; newEmail: string };

/** The button of an email change link's page, and what became of it. */
export function ConfirmEmailChangeForm({ token, newEmail }: ConfirmEmailChangeFormProps) {
  const [state, formAction] = useActionState<ConfirmEmailChangeState, FormData>(confirmEmailChangeAction, {
    status: "idle",
  });
  if (state.status === "changed") {
    return (
      <div className="stack">
        <div className="alert alert-success" role="status">
          <p>Your sign-in email is now {state.email}.</p>
        </div>
        <p className="auth-switch">
          <Link href="/dashboard/settings">Back to Settings</Link>
        </p>
      </div>
    );
  }
  if (state.status === "error") {
    return (
      <div className="stack">
        <div className="alert alert-danger" role="alert">
          <p>{state.message}</p>
        </div>
        <p className="auth-switch">
          <Link href="/dashboard/settings">Settings</Link>
        </p>
      </div>
    );
  }
  return (
    <form action={formAction} className="stack">
      <input type="hidden" name="token" value={token} />
      <SubmitButton className="btn btn-primary btn-block btn-lg" pendingLabel="Changing…">
        Use {newEmail}
      </SubmitButton>
    </form>
  );
}
