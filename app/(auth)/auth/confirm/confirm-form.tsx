"use client";
import Link from "next/link";
import { useActionState } from "react";
import { withNextPath } from "@/lib/auth/next-path";
import { SubmitButton } from "../../../_components/submit-button";
import { confirmSignUpAction, type ConfirmSignUpState } from "../../actions";

/** `next`: where the browser goes once signed in to the new account (a path safeNextPath gave). */
export type ConfirmSignUpFormProps = { token: string; email: string; signedInAs: string | null; next: string };

/** The button that finishes a sign-up, and what became of it when it did not sign this browser in. */
export function ConfirmSignUpForm({ token, email, signedInAs, next }: ConfirmSignUpFormProps) {
  const [state, formAction] = useActionState<ConfirmSignUpState, FormData>(confirmSignUpAction, { status: "idle" });

  if (state.status === "created") {
    return (
      <div className="stack">
        <div className="alert alert-success" role="status">
          <p>
            The account for {state.email} is ready. You are still signed in as {state.signedInAs}: to use the new
            account, sign out, then sign in with its email and password.
          </p>
        </div>
        <p className="auth-switch">
          <Link href="/dashboard">Back to your dashboard</Link>
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
          <Link href={withNextPath("/signup", next)}>Sign up</Link> or{" "}
          <Link href={withNextPath("/signin", next)}>sign in</Link>
        </p>
      </div>
    );
  }
  return (
    <form action={formAction} className="stack">
      <input type="hidden" name="token" value={token} />
      <input type="hidden" name="next" value={next} />
      {signedInAs && (
        <div className="alert alert-info" role="status">
          <p>
            You are signed in as {signedInAs}. Creating the account for {email} keeps you signed in as {signedInAs}.
          </p>
        </div>
      )}
      <SubmitButton className="btn btn-primary btn-block btn-lg" pendingLabel="Creating account…">
        {signedInAs ? "Create the account" : "Create account and sign in"}
      </SubmitButton>
    </form>
  );
}
