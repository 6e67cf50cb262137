"use client";
import { useFormStatus } from "react-dom";

/** A submit button that shows a spinner and disables itself while its form's action runs. */
export function SubmitButton({
  children,
  pendingLabel,
  className = "btn btn-primary",
  disabled,
  ...rest
}: React.ButtonHTMLAttributes<HTMLButtonElement> & { pendingLabel?: string }) {
  const { pending } = useFormStatus();
  return (
    <button
      type="submit"
      className={className}
      disabled={pending || disabled}
      aria-disabled={pending || disabled}
      {...rest}
    >
      {pending && <span className="spinner" aria-hidden="true" />}
      {pending ? (pendingLabel ?? children) : children}
    </button>
  );
}
