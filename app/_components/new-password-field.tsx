"use client";
import { useState } from "react";
import { MIN_PASSWORD_LENGTH } from "@/lib/core/limits";
import { FormField } from "./form-field";

/** A new password, with a show/hide toggle and the length hint sign-up gives. */
export function NewPasswordField({
  id = "password",
  label = "New password",
  error,
}: {
  id?: string;
  label?: string;
  error?: string;
}) {
  const [show, setShow] = useState(false);
  return (
    <FormField id={id} label={label}>
      <div className="password-wrap">
        <input
          id={id}
          name={id}
          type={show ? "text" : "password"}
          className="input"
          autoComplete="new-password"
          required
          minLength={MIN_PASSWORD_LENGTH}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : `${id}-hint`}
        />
        <button
          type="button"
          className="btn btn-ghost password-toggle"
          onClick={() => setShow((value) => !value)}
          aria-pressed={show}
          aria-label={show ? "Hide password" : "Show password"}
        >
          {show ? "Hide" : "Show"}
        </button>
      </div>
      {error ? (
        <span id={`${id}-error`} className="field-error">
          {error}
        </span>
      ) : (
        <span id={`${id}-hint`} className="hint">
          At least {MIN_PASSWORD_LENGTH} characters.
        </span>
      )}
    </FormField>
  );
}
