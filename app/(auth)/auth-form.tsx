"use client";
import Link from "next/link";
import { useActionState, useState } from "react";
import { SubmitButton } from "../_components/submit-button";
import type { AuthFormState } from "./actions";
import { AuthFormEmail } from "./auth-form-email";

type Mode = "signin" | "signup";

export function AuthForm({
  mode,
  action,
  next,
  notice,
}: {
  mode: Mode;
  action: (state: AuthFormState, formData: FormData) => Promise<AuthFormState>;
  next: string;
  notice?: string;
}) {
  const [state, formAction] = useActionState(action, { status: "idle" });
  const [showPassword, setShowPassword] = useState(false);
  const fields = state.fields ?? {};

  if (state.status === "check_email") {
    return (
      <div className="alert alert-success" role="status">
        <p>{state.message}</p>
      </div>
    );
  }

  return (
    <form action={formAction} className="stack" noValidate>
      <input type="hidden" name="next" value={next} />
      <AuthFormEmail state={state} notice={notice} />
      <div className="field">
        <div className="row-between">
          <label className="label" htmlFor="password">
            Password
          </label>
          {mode === "signin" && (
            <Link href="/forgot-password" className="small">
              Forgot password?
            </Link>
          )}
        </div>
        <div className="password-wrap">
          <input
            id="password"
            name="password"
            type={showPassword ? "text" : "password"}
            className="input"
            autoComplete={mode === "signin" ? "current-password" : "new-password"}
            required
            minLength={mode === "signup" ? 8 : undefined}
            aria-invalid={fields.password ? true : undefined}
            aria-describedby={fields.password ? "password-error" : mode === "signup" ? "password-hint" : undefined}
          />
          <button
            type="button"
            className="btn btn-ghost password-toggle"
            onClick={() => setShowPassword((value) => !value)}
            aria-pressed={showPassword}
            aria-label={showPassword ? "Hide password" : "Show password"}
          >
            {showPassword ? "Hide" : "Show"}
          </button>
        </div>
        {fields.password ? (
          <span id="password-error" className="field-error">
            {fields.password}
          </span>
        ) : (
          mode === "signup" && (
            <span id="password-hint" className="hint">
              At least 8 characters.
            </span>
          )
        )}
      </div>
      <SubmitButton
        className="btn btn-primary btn-block btn-lg"
        pendingLabel={mode === "signin" ? "Signing in…" : "Creating account…"}
      >
        {mode === "signin" ? "Sign in" : "Create account"}
      </SubmitButton>
      <p className="auth-switch">
        {mode === "signin" ? (
          <>
            New to Letterpress?{" "}
            <Link href={`/signup${next !== "/dashboard" ? `?next=${encodeURIComponent(next)}` : ""}`}>
              Create an account
            </Link>
          </>
        ) : (
          <>
            Already have an account?{" "}
            <Link href={`/signin${next !== "/dashboard" ? `?next=${encodeURIComponent(next)}` : ""}`}>Sign in</Link>
          </>
        )}
      </p>
    </form>
  );
}
