"use client";
import { useActionState, useEffect, useRef } from "react";
import { CodeSnippet } from "../../_components/code-snippet";
import { CopyButton } from "../../_components/copy-button";
import { FormField } from "../../_components/form-field";
import { SubmitButton } from "../../_components/submit-button";
import type { ActionState } from "../_lib/action";
import { FormStatus } from "../_components/form-status";
import { createWebhookAction, type SecretState } from "./actions";
import { EVENT_TYPES, EVENT_TYPE_HINTS } from "./event-types";

/**
 * The endpoint's URL, description and events: the add form's and the edit form's fields. `idPrefix` keeps two forms'
 * ids apart; `state` gives back what was submitted, and the messages under the fields, after a refusal.
 */
export function EndpointFields({
  idPrefix,
  state,
  initial,
}: {
  idPrefix: string;
  state: ActionState;
  initial?: { url: string; description: string | null; events: string[] };
}) {
  const { fields, values } = state;
  const url = `${idPrefix}-url`;
  const description = `${idPrefix}-description`;
  return (
    <>
      <div className="stack">
        <FormField id={url} label="Endpoint URL">
          <input
            id={url}
            name="url"
            type="url"
            className="input"
            placeholder="https://example.com/webhooks/letterpress"
            defaultValue={values?.url ?? initial?.url}
            required
            autoCapitalize="none"
            spellCheck={false}
            aria-invalid={fields?.url ? true : undefined}
            aria-describedby={`${url}-hint`}
          />
          <span id={`${url}-hint`} className={fields?.url ? "field-error" : "hint"}>
            {fields?.url ?? "An https:// address on a public host. Redirects are not followed."}
          </span>
        </FormField>
        <FormField id={description} label="Description" optional>
          <input
            id={description}
            name="description"
            className="input"
            placeholder="e.g. Order service"
            maxLength={200}
            defaultValue={values?.description ?? initial?.description ?? undefined}
            aria-invalid={fields?.description ? true : undefined}
            aria-describedby={`${description}-hint`}
          />
          <span id={`${description}-hint`} className={fields?.description ? "field-error" : "hint"}>
            {fields?.description ?? "What the endpoint is for, to tell it from the others."}
          </span>
        </FormField>
      </div>
      <EventChoices
        idPrefix={idPrefix}
        selected={values ? values.events.split(",") : (initial?.events ?? [])}
        error={fields?.events}
      />
    </>
  );
}

/** A checkbox per event type, each described by what it tells. */
function EventChoices({ idPrefix, selected, error }: { idPrefix: string; selected: string[]; error?: string }) {
  const errorId = `${idPrefix}-events-error`;
  return (
    <fieldset className="choices" aria-describedby={error ? errorId : undefined}>
      <legend className="label">Events</legend>
      <div
        style={{ display: "grid", gridTemplateColumns: "repeat(auto-fill, minmax(min(100%, 250px), 1fr))", gap: 10 }}
      >
        {EVENT_TYPES.map((type) => {
          const id = `${idPrefix}-event-${type}`;
          return (
            <div key={type} className="choice">
              <input
                type="checkbox"
                id={id}
                name="events"
                value={type}
                defaultChecked={selected.includes(type)}
                aria-describedby={`${id}-hint`}
              />
              <div>
                <label htmlFor={id} className="mono">
                  {type}
                </label>
                <span id={`${id}-hint`} className="hint">
                  {EVENT_TYPE_HINTS[type]}
                </span>
              </div>
            </div>
          );
        })}
      </div>
      {error && (
        <span id={errorId} className="field-error">
          {error}
        </span>
      )}
    </fieldset>
  );
}

/**
 * A new secret, shown this once, focused when it appears: copy it to the receiver's configuration, where it verifies
 * each delivery's signature.
 */
export function SecretReveal({
  secret,
  title,
  example = true,
}: {
  secret: string;
  title: string;
  /** The receiver's verification code under it (a rotation's receiver has it already). */
  example?: boolean;
}) {
  const reveal = useRef<HTMLDivElement>(null);
  useEffect(() => reveal.current?.focus(), [secret]);
  return (
    <div
      ref={reveal}
      tabIndex={-1}
      className="alert alert-success stack-sm"
      role="status"
      aria-live="polite"
      style={{ display: "block" }}
    >
      <p style={{ marginBottom: 8 }}>
        <strong>{title}</strong> Copy the signing secret now: it is shown only once. Your server verifies each
        delivery&apos;s signature with it.
      </p>
      <div className="input-group">
        <label htmlFor="webhook-secret" className="visually-hidden">
          Signing secret
        </label>
        <input
          id="webhook-secret"
          className="input code"
          readOnly
          value={secret}
          onFocus={(event) => event.currentTarget.select()}
          data-testid="webhook-secret"
        />
        <CopyButton value={secret} label="Copy secret" className="btn btn-primary" />
      </div>
      {example && (
        <figure style={{ margin: "12px 0 0" }}>
          <figcaption>
            In your receiver, with the secret in <code>LETTERPRESS_WEBHOOK_SECRET</code> and the request&apos;s raw
            body:
          </figcaption>
          <CodeSnippet name="verification example" style={{ marginTop: 8 }} code={VERIFY_EXAMPLE} />
        </figure>
      )}
    </div>
  );
}

const VERIFY_EXAMPLE = `import { Letterpress } from "letterpress";

// Throws when the signature does not match (or is more than 5 minutes old).
const event = Letterpress.webhooks.verify(rawBody, request.headers, process.env.LETTERPRESS_WEBHOOK_SECRET);`;

/** The add form; after a create, the new endpoint's secret, while the endpoint is on the list. */
export function AddWebhookForm({ endpointIds, full }: { endpointIds: string[]; full: boolean }) {
  const [state, action] = useActionState<SecretState, FormData>(createWebhookAction, { status: "idle" });
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (state.status === "success") form.current?.reset();
  }, [state]);
  return (
    <div className="stack">
      <form ref={form} action={action} className="stack">
        <EndpointFields idPrefix="new-webhook" state={state} />
        <div className="row">
          <SubmitButton pendingLabel="Adding…" disabled={full}>
            Add endpoint
          </SubmitButton>
          {/* A field's message stands under it instead; the success message is the secret's alert. */}
          <FormStatus state={state} shown={state.status === "error" && !state.fields} />
        </div>
      </form>
      {state.status === "success" && state.secret && state.id && endpointIds.includes(state.id) && (
        <SecretReveal secret={state.secret} title={state.message ?? "Added."} />
      )}
    </div>
  );
}
