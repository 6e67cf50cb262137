import { MAX_ADDRESS_LENGTH } from "@/lib/core/limits";
import { FormField } from "../_components/form-field";
import type { AuthFormState } from "./actions";

/**
 * The top of a form that asks for an address (sign-in, sign-up, Forgot password?): its notice until the first answer,
 * the answer's error, and the email field with the error its value got.
 */
export function AuthFormEmail({ state, notice }: { state: AuthFormState; notice?: string }) {
  const error = state.fields?.email;
  return (
    <>
      {notice && state.status === "idle" && (
        <div className="alert alert-info" role="status">
          <p>{notice}</p>
        </div>
      )}
      {state.status === "error" && state.message && (
        <div className="alert alert-danger" role="alert">
          <p>{state.message}</p>
        </div>
      )}
      <FormField id="email" label="Email">
        <input
          id="email"
          name="email"
          type="email"
          className="input"
          autoComplete="email"
          required
          maxLength={MAX_ADDRESS_LENGTH}
          defaultValue={state.email}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "email-error" : undefined}
          autoFocus
        />
        {error && (
          <span id="email-error" className="field-error">
            {error}
          </span>
        )}
      </FormField>
    </>
  );
}
