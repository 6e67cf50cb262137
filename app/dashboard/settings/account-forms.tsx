"use client";
import { useActionState } from "react";
import { MAX_ADDRESS_LENGTH, MAX_PASSWORD_LENGTH } from "@/lib/core/limits";
import { FormField } from "../../_components/form-field";
import { NewPasswordField } from "../../_components/new-password-field";
import { SubmitButton } from "../../_components/submit-button";
import { FormStatus } from "../_components/form-status";
import type { ActionState } from "../_lib/action";
import { changeEmailAction, changePasswordAction } from "./actions";

/** The current password, which both changes ask for; `id` tells the two forms' fields apart. */
function CurrentPasswordField({ id, error }: { id: string; error?: string }) {
  return (
    <FormField id={id} label="Current password">
      <input
        id={id}
        name="currentPassword"
        type="password"
        className="input"
        autoComplete="current-password"
        required
        maxLength={MAX_PASSWORD_LENGTH}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error && (
        <span id={`${id}-error`} className="field-error">
          {error}
        </span>
      )}
    </FormField>
  );
}

export function ChangePasswordForm() {
  const [state, formAction] = useActionState<ActionState, FormData>(changePasswordAction, { status: "idle" });
  return (
    <form action={formAction} className="card-body stack" noValidate>
      <CurrentPasswordField id="password-current" error={state.fields?.currentPassword} />
      <NewPasswordField error={state.fields?.password} />
      <div className="row">
        <SubmitButton pendingLabel="Changing…">Change password</SubmitButton>
        {/* A message about a field stands under it instead. */}
        <FormStatus state={state} shown={!state.fields} />
      </div>
    </form>
  );
}

export function ChangeEmailForm({ email }: { email: string }) {
  const [state, formAction] = useActionState<ActionState, FormData>(changeEmailAction, { status: "idle" });
  const error = state.fields?.email;
  return (
    <form action={formAction} className="card-body stack" noValidate>
      <p className="muted small">
        You sign in with {email}. We send a link to the new address, and the change is made when it is followed.
      </p>
      <FormField id="new-email" label="New email">
        <input
          id="new-email"
          name="email"
          type="email"
          className="input"
          autoComplete="email"
          required
          maxLength={MAX_ADDRESS_LENGTH}
          defaultValue={state.values?.email}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "new-email-error" : undefined}
        />
        {error && (
          <span id="new-email-error" className="field-error">
            {error}
          </span>
        )}
      </FormField>
      <CurrentPasswordField id="email-current" error={state.fields?.currentPassword} />
      <div className="row">
        <SubmitButton pendingLabel="Sending…">Send the link</SubmitButton>
        {/* A message about a field stands under it instead. */}
        <FormStatus state={state} shown={!state.fields} />
      </div>
    </form>
  );
}
