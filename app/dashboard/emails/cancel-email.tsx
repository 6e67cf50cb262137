"use client";
import { useState } from "react";
import { ConfirmAction } from "../../_components/confirm-action";
import { cancelEmailAction } from "./actions";

/**
 * Cancel, after confirmation, for a scheduled email. Rendered whatever the email's status, with the button only while
 * it is scheduled: a refused cancel refreshes the page (the email was sent or canceled meanwhile), which takes the
 * button away, and the reason must stay on screen.
 */
export function CancelEmail({
  id,
  subject,
  scheduledFor,
  cancelable,
  triggerClassName,
}: {
  id: string;
  subject: string;
  scheduledFor: string;
  cancelable: boolean;
  triggerClassName?: string;
}) {
  const [refusal, setRefusal] = useState<string>();
  return (
    <>
      {cancelable && (
        <ConfirmAction
          action={async (formData) => {
            const outcome = await cancelEmailAction(formData);
            setRefusal(outcome.status === "error" ? outcome.message : undefined);
          }}
          fields={{ id }}
          trigger={<>Cancel</>}
          triggerClassName={triggerClassName}
          title={`Cancel “${subject}”?`}
          body={
            <p>
              It is scheduled for {scheduledFor}. Canceled, it will not be sent and no longer counts toward this
              month&apos;s emails. This cannot be undone.
            </p>
          }
          confirmLabel="Cancel email"
          pendingLabel="Canceling…"
          dismissLabel="Keep it"
        />
      )}
      {refusal && (
        <p className="field-error" role="alert" style={{ margin: 0, maxWidth: 280, whiteSpace: "normal" }}>
          {refusal}
        </p>
      )}
    </>
  );
}
