"use client";
import { useState } from "react";
import { ConfirmAction } from "../../../_components/confirm-action";
import { deleteComponentAction, type DeleteComponentState } from "../actions";
import { TemplateNamed, type UsedBy } from "../template-named";

/** Delete, after a confirmation; refused while a template imports it, the refusal naming them beside the button. */
export function DeleteComponent({ name, usedBy }: { name: string; usedBy: UsedBy }) {
  const [refusal, setRefusal] = useState<DeleteComponentState>();
  return (
    <div className="stack-sm" style={{ alignItems: "flex-start" }}>
      <ConfirmAction
        action={async (formData) => {
          const outcome = await deleteComponentAction(formData);
          setRefusal(outcome.status === "error" ? outcome : undefined);
        }}
        fields={{ name }}
        trigger="Delete component"
        triggerClassName="btn btn-danger-outline"
        title={`Delete @components/${name}?`}
        body={<p>Every version of it goes with it. This cannot be undone.</p>}
        confirmLabel="Delete component"
        pendingLabel="Deleting…"
        dismissLabel="Keep it"
      />
      {refusal && (
        <div className="field-error" role="alert" data-testid="delete-refused">
          <p style={{ margin: 0 }}>{refusal.message}</p>
          {refusal.importers && refusal.importers.length > 0 && (
            <ul style={{ margin: "4px 0 0", paddingLeft: 20 }}>
              {refusal.importers.map((importer) => (
                <li key={importer.template_id ?? importer.message} style={{ overflowWrap: "anywhere" }}>
                  <TemplateNamed named={importer} usedBy={usedBy} />
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
