"use client";
import { useRef } from "react";
import { SubmitButton } from "./submit-button";

/**
 * A button that asks first: opens a modal dialog (native <dialog>: focus is trapped and Escape cancels) whose confirm
 * button submits `action` with the given hidden fields.
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
}: {
  action: (formData: FormData) => void | Promise<void>;
  fields: Record<string, string>;
  trigger: React.ReactNode;
  triggerClassName?: string;
  title: string;
  body: React.ReactNode;
  confirmLabel: string;
  pendingLabel?: string;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  return (
    <>
      <button type="button" className={triggerClassName} onClick={() => dialog.current?.showModal()}>
        {trigger}
      </button>
      <dialog ref={dialog} className="dialog" aria-labelledby={`${fields.id ?? "confirm"}-title`}>
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
            <h2 id={`${fields.id ?? "confirm"}-title`}>{title}</h2>
            <div className="muted">{body}</div>
          </div>
          <div className="dialog-actions">
            <button type="button" className="btn btn-secondary" onClick={() => dialog.current?.close()} autoFocus>
              Cancel
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
