"use client";
import { useId, useRef } from "react";
import { SubmitButton } from "./submit-button";

/**
 * A button that asks first: opens a modal dialog (native <dialog>: focus is trapped and Escape cancels) whose confirm
 * button submits `action` with the given hidden fields. `dismissLabel` names the button that closes it unchanged, where
 * "Cancel" would be ambiguous (canceling an email).
 */
export function ConfirmAction({
  action,
  fields,
  trigger,
  triggerClassName = "btn btn-danger-outline btn-sm",
  title,
  body,
  confirmLabel,
  pendingLabel,
  dismissLabel = "Cancel",
}: {
  action: (formData: FormData) => void | Promise<void>;
  fields: Record<string, string>;
  trigger: React.ReactNode;
  triggerClassName?: string;
  title: string;
  body: React.ReactNode;
  confirmLabel: string;
  pendingLabel?: string;
  dismissLabel?: string;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  return (
    <>
      <button type="button" className={triggerClassName} onClick={() => dialog.current?.showModal()}>
        {trigger}
      </button>
      <dialog ref={dialog} className="dialog" aria-labelledby={titleId}>
        <form
          action={async (formData) => {
            await action(formData);
            dialog.current?.close();
          }}
        >
          {Object.entries(fields).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <div className="dialog-body">
            <h2 id={titleId}>{title}</h2>
            <div className="muted">{body}</div>
          </div>
          <div className="dialog-actions">
            <button type="button" className="btn btn-secondary" onClick={() => dialog.current?.close()} autoFocus>
              {dismissLabel}
            </button>
            <SubmitButton className="btn btn-danger" pendingLabel={pendingLabel}>
              {confirmLabel}
            </SubmitButton>
          </div>
        </form>
      </dialog>
    </>
  );
}
