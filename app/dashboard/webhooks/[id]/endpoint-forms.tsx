"use client";
import { useActionState, useState } from "react";
import { ConfirmAction } from "../../../_components/confirm-action";
import { SubmitButton } from "../../../_components/submit-button";
import type { ActionState } from "../../_lib/action";
import { FormStatus } from "../../_components/form-status";
import {
  deleteWebhookAction,
  replayDeliveryAction,
  rotateWebhookSecretAction,
  sendTestEventAction,
  setWebhookEnabledAction,
  updateWebhookAction,
  type SecretState,
  type TestState,
} from "../actions";
import { EndpointFields, SecretReveal } from "../webhook-forms";
import { DeliveryFacts, DeliveryStatusBadge } from "./delivery";

type TestDelivery = NonNullable<TestState["delivery"]>;

/** The endpoint's URL, description and events, changed. */
export function EditWebhookForm({
  webhook,
}: {
  webhook: { id: string; url: string; description: string | null; events: string[] };
}) {
  const [state, action] = useActionState<ActionState, FormData>(updateWebhookAction, { status: "idle" });
  return (
    <form action={action} className="stack">
      <input type="hidden" name="id" value={webhook.id} />
      <EndpointFields idPrefix="edit-webhook" state={state} initial={webhook} />
      <div className="row">
        <SubmitButton pendingLabel="Saving…">Save changes</SubmitButton>
        <FormStatus state={state} shown={!state.fields} />
      </div>
    </form>
  );
}

/** Disable (nothing is delivered to it) or enable again. */
export function EnabledForm({ id, enabled }: { id: string; enabled: boolean }) {
  const [state, action] = useActionState<ActionState, FormData>(setWebhookEnabledAction, { status: "idle" });
  return (
    <form action={action} className="stack-sm" style={{ alignItems: "flex-end" }}>
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="enabled" value={enabled ? "false" : "true"} />
      <SubmitButton className="btn btn-secondary" pendingLabel={enabled ? "Disabling…" : "Enabling…"}>
        {enabled ? "Disable endpoint" : "Enable endpoint"}
      </SubmitButton>
      <FormStatus state={state} />
    </form>
  );
}

/** A new secret, after a confirmation that says the old one keeps signing for a day; the new one shown once. */
export function RotateSecret({ id, overlapHours }: { id: string; overlapHours: number }) {
  const [state, setState] = useState<SecretState>({ status: "idle" });
  return (
    <div className="stack">
      <div className="row">
        <ConfirmAction
          action={async (formData) => setState(await rotateWebhookSecretAction(formData))}
          fields={{ id }}
          trigger="Rotate secret"
          triggerClassName="btn btn-secondary"
          title="Rotate the signing secret?"
          body={
            <p>
              Deliveries are signed with a new secret from now on, and with the current one as well for {overlapHours}{" "}
              hours, so your server can switch over without refusing any. The new secret is shown once.
            </p>
          }
          confirmLabel="Rotate secret"
          pendingLabel="Rotating…"
        />
        {state.status === "error" && <FormStatus state={state} />}
      </div>
      {state.status === "success" && state.secret && (
        <SecretReveal secret={state.secret} title="The secret is rotated." example={false} />
      )}
    </div>
  );
}

/** Delete, after a confirmation; a refusal (deleted meanwhile, say) stays beside the button. */
export function DeleteWebhook({ id, url }: { id: string; url: string }) {
  const [refusal, setRefusal] = useState<string>();
  return (
    <span className="row">
      <ConfirmAction
        action={async (formData) => {
          const outcome = await deleteWebhookAction(formData);
          setRefusal(outcome.status === "error" ? outcome.message : undefined);
        }}
        fields={{ id }}
        trigger="Delete endpoint"
        triggerClassName="btn btn-danger-outline"
        title="Delete this endpoint?"
        body={
          <p style={{ overflowWrap: "anywhere" }}>
            Nothing more is delivered to <code>{url}</code>, and its delivery log goes with it. This cannot be undone.
          </p>
        }
        confirmLabel="Delete endpoint"
        pendingLabel="Deleting…"
        dismissLabel="Keep it"
      />
      {refusal && (
        <span className="field-error" role="alert">
          {refusal}
        </span>
      )}
    </span>
  );
}

/** A new delivery of the same event (the same webhook-id), attempted at once. */
export function ReplayForm({ id, deliveryId }: { id: string; deliveryId: string }) {
  const [state, action] = useActionState<ActionState, FormData>(replayDeliveryAction, { status: "idle" });
  return (
    <form action={action} className="row" style={{ justifyContent: "flex-end" }}>
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="deliveryId" value={deliveryId} />
      <SubmitButton className="btn btn-secondary btn-sm" pendingLabel="Replaying…">
        Replay
      </SubmitButton>
      <FormStatus state={state} />
    </form>
  );
}

const TEST_OUTCOME: Record<TestDelivery["status"], string> = {
  succeeded: "Your endpoint answered with a 2xx.",
  failed: "Your endpoint did not answer with a 2xx (its status or error, and its answer, below).",
  // An attempt of it was already running (a second click in another tab).
  pending: "Not sent yet: an attempt of it is running.",
};

/** Sends a `webhook.test` event once and shows what the endpoint answered. */
export function TestEventForm({ id, enabled }: { id: string; enabled: boolean }) {
  const [state, action] = useActionState<TestState, FormData>(sendTestEventAction, { status: "idle" });
  const { delivery } = state;
  return (
    <form action={action} className="stack">
      <input type="hidden" name="id" value={id} />
      <div className="row">
        <SubmitButton
          className="btn btn-secondary"
          pendingLabel="Sending…"
          aria-describedby={enabled ? undefined : `test-disabled-${id}`}
        >
          Send test event
        </SubmitButton>
        {!enabled && (
          <span id={`test-disabled-${id}`} className="hint">
            Sent even while the endpoint is disabled, so you can check it before enabling it.
          </span>
        )}
        <FormStatus state={state} shown={state.status === "error"} />
      </div>
      <div aria-live="polite" data-testid="test-outcome">
        {state.status === "success" && delivery && (
          <div className="stack-sm">
            <div className="row">
              <DeliveryStatusBadge status={delivery.status} />
              <span className="small">{TEST_OUTCOME[delivery.status]}</span>
            </div>
            <DeliveryFacts delivery={delivery} />
          </div>
        )}
      </div>
    </form>
  );
}
