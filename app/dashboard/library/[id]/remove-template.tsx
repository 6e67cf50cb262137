"use client";
import { useState } from "react";
import type { ActionState } from "../../_lib/action";
import { ConfirmAction } from "../../../_components/confirm-action";

/**
 * Delete (a template the account wrote) or Remove from library (a catalogue template), after a confirmation that says
 * what is lost. Done, the action goes to the library; refused (deleted meanwhile, say), its message stays here.
 */
export function RemoveTemplate({
  action,
  id,
  trigger,
  title,
  body,
  confirmLabel,
  pendingLabel,
}: {
  action: (formData: FormData) => Promise<ActionState>;
  id: string;
  trigger: string;
  title: string;
  body: React.ReactNode;
  confirmLabel: string;
  pendingLabel: string;
}) {
  const [refusal, setRefusal] = useState<string>();
  return (
    <div className="stack" style={{ alignItems: "flex-end" }}>
      <ConfirmAction
        action={async (formData) => {
          const outcome = await action(formData);
          setRefusal(outcome.status === "error" ? outcome.message : undefined);
        }}
        fields={{ id }}
        trigger={trigger}
        triggerClassName="btn btn-danger-outline"
        title={title}
        body={body}
        confirmLabel={confirmLabel}
        pendingLabel={pendingLabel}
        dismissLabel="Keep it"
      />
      {refusal && (
        <p className="field-error" role="alert" style={{ margin: 0, maxWidth: 320 }}>
          {refusal}
        </p>
      )}
    </div>
  );
}
