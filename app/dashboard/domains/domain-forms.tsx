"use client";
import { useActionState, useEffect, useRef, useState } from "react";
import { ConfirmAction } from "../../_components/confirm-action";
import { SubmitButton } from "../../_components/submit-button";
import type { ActionState } from "../_lib/action";
import { FormStatus } from "../_components/form-status";
import {
  addDomainAction,
  removeDomainAction,
  updateDefaultSenderAction,
  updateTrackingAction,
  verifyDomainAction,
} from "./actions";
import { FormField } from "../../_components/form-field";

export function AddDomainForm() {
  const [state, action] = useActionState<ActionState, FormData>(addDomainAction, { status: "idle" });
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (state.status === "success") form.current?.reset();
  }, [state]);
  return (
    <form ref={form} action={action} className="stack">
      <div className="form-row">
        <FormField id="domain" label="Domain">
          <input
            id="domain"
            name="domain"
            className="input"
            placeholder="mail.example.com"
            defaultValue={state.values?.domain}
            required
            autoCapitalize="none"
            spellCheck={false}
            aria-invalid={state.fields?.domain ? true : undefined}
            aria-describedby="domain-help"
          />
          <span id="domain-help" className={state.fields?.domain ? "field-error" : "hint"}>
            {state.fields?.domain ??
              "A domain or subdomain you control. A subdomain keeps app mail apart from your team's."}
          </span>
        </FormField>
        <FormField id="defaultSender" label="Default sender" optional>
          <input
            id="defaultSender"
            name="defaultSender"
            type="email"
            className="input"
            placeholder="hello@mail.example.com"
            defaultValue={state.values?.defaultSender}
            autoCapitalize="none"
            spellCheck={false}
          />
          <span className="hint">Used when a send request has no from. Defaults to hello@ your domain.</span>
        </FormField>
      </div>
      <div className="row">
        <SubmitButton pendingLabel="Adding…">Add domain</SubmitButton>
        {/* A message about the domain stands under its field instead. */}
        <FormStatus state={state} shown={!state.fields?.domain} />
      </div>
    </form>
  );
}

export function DefaultSenderForm({ domain, sender }: { domain: string; sender: string }) {
  const [state, action] = useActionState<ActionState, FormData>(updateDefaultSenderAction, { status: "idle" });
  const id = `sender-${domain}`;
  return (
    <form action={action} className="stack-sm">
      <input type="hidden" name="domain" value={domain} />
      <label className="label" htmlFor={id}>
        Default sender
      </label>
      <div className="input-group">
        <input
          id={id}
          name="defaultSender"
          type="email"
          className="input"
          defaultValue={sender}
          required
          aria-invalid={state.status === "error" ? true : undefined}
        />
        <SubmitButton className="btn btn-secondary" pendingLabel="Saving…">
          Save
        </SubmitButton>
      </div>
      <FormStatus state={state} />
    </form>
  );
}

export function VerifyDomainForm({
  id,
  domain,
  label,
  hint,
}: {
  id: string;
  domain: string;
  label: string;
  hint: string;
}) {
  const [state, action] = useActionState<ActionState, FormData>(verifyDomainAction, { status: "idle" });
  return (
    <form action={action} className="stack-sm">
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="domain" value={domain} />
      <span className="label">Verification</span>
      <span className="hint">{hint}</span>
      <div>
        <SubmitButton className="btn btn-secondary" pendingLabel="Checking…">
          {label}
        </SubmitButton>
      </div>
      <FormStatus state={state} />
    </form>
  );
}

/** Open and click tracking: Resend's switches for the domain when it sends. */
export function TrackingForm({
  id,
  domain,
  open,
  click,
}: {
  id: string;
  domain: string;
  open: boolean;
  click: boolean;
}) {
  const [state, action] = useActionState<ActionState, FormData>(updateTrackingAction, { status: "idle" });
  return (
    <form action={action} className="stack-sm">
      <input type="hidden" name="id" value={id} />
      <fieldset className="stack-sm" style={{ border: 0, margin: 0, padding: 0 }}>
        <legend className="label">Tracking</legend>
        <label className="row">
          <input type="checkbox" name="openTracking" defaultChecked={open} aria-describedby={`tracking-${domain}`} />
          Track opens
        </label>
        <label className="row">
          <input type="checkbox" name="clickTracking" defaultChecked={click} aria-describedby={`tracking-${domain}`} />
          Track clicks
        </label>
        <span id={`tracking-${domain}`} className="hint">
          Opens add a tracking pixel; clicks send links through a redirect. Both feed the template metrics.
        </span>
      </fieldset>
      <div>
        <SubmitButton className="btn btn-secondary" pendingLabel="Saving…">
          Save tracking
        </SubmitButton>
      </div>
      <FormStatus state={state} />
    </form>
  );
}

/** Remove, after a confirmation that says what stops; a refusal (removed meanwhile, say) stays beside the button. */
export function RemoveDomainButton({ id, domain, verified }: { id: string; domain: string; verified: boolean }) {
  const [refusal, setRefusal] = useState<string>();
  return (
    <span className="row">
      {refusal && (
        <span className="field-error" role="alert">
          {refusal}
        </span>
      )}
      <ConfirmAction
        action={async (formData) => {
          const outcome = await removeDomainAction(formData);
          setRefusal(outcome.status === "error" ? outcome.message : undefined);
        }}
        fields={{ id }}
        trigger="Remove"
        title={`Remove ${domain}?`}
        body={
          verified
            ? `Emails can no longer be sent from ${domain}, and API keys bound to it send nothing until you add it again (and verify it again).`
            : `${domain} leaves your list. You can add it again later.`
        }
        confirmLabel="Remove domain"
        pendingLabel="Removing…"
        dismissLabel="Keep it"
      />
    </span>
  );
}
