"use client";
import Link from "next/link";
import { useActionState, useEffect, useRef } from "react";
import { TEST_EMAILS_PER_DAY } from "@/lib/core/plans";
import { clientFirstRun } from "../../../docs/client-first-run";
import { CodeSnippet } from "../../../_components/code-snippet";
import { CopyButton } from "../../../_components/copy-button";
import { API_KEY_KIND_LABEL, API_KEY_SCOPE_LABEL } from "../../../_components/format";
import { ShieldIcon } from "../../../_components/icons";
import { SubmitButton } from "../../../_components/submit-button";
import { createApiKeyAction, type CreateKeyState } from "./actions";
import { KEY_EXPIRY_DAYS, NO_EXPIRY } from "./key-expiry";
import { FormField } from "../../../_components/form-field";

const KIND_OPTIONS: ChoiceOption[] = [
  { value: "live", label: API_KEY_KIND_LABEL.live, hint: "Sends real email, counted toward this month's emails." },
  {
    value: "test",
    label: API_KEY_KIND_LABEL.test,
    hint: `For trying the API and CI: its emails stay in your outbox, never reach an inbox and are not counted (at most ${TEST_EMAILS_PER_DAY} a day).`,
  },
];

const SCOPE_OPTIONS: ChoiceOption[] = [
  {
    value: "full_access",
    label: API_KEY_SCOPE_LABEL.full_access,
    hint: "Every endpoint: library, templates, rendering, sending and usage.",
  },
  {
    value: "sending_access",
    label: API_KEY_SCOPE_LABEL.sending_access,
    hint: "Only sending, reading and canceling emails, and usage: for a backend that just sends.",
  },
];

export function KeyGenerator({
  siteUrl,
  activeKeyIds,
  domains,
}: {
  siteUrl: string;
  activeKeyIds: string[];
  /** The account's sending domains, which a key may be limited to. */
  domains: { domain: string; verified: boolean }[];
}) {
  const [state, action] = useActionState<CreateKeyState, FormData>(createApiKeyAction, { status: "idle" });
  const form = useRef<HTMLFormElement>(null);
  const reveal = useRef<HTMLDivElement>(null);
  // What was submitted, given back with an error, so the choices survive React resetting the form.
  const { fields, values } = state;

  useEffect(() => {
    if (state.status === "success") {
      form.current?.reset();
      reveal.current?.focus();
    }
  }, [state]);

  return (
    <div className="card">
      <div className="card-header">
        <h2>Generate a new API key</h2>
      </div>
      <div className="card-body stack">
        <form ref={form} action={action} className="stack">
          <FormField id="key-name" label="Key name">
            <input
              id="key-name"
              name="name"
              className="input"
              placeholder="e.g. Production server"
              maxLength={64}
              required
              defaultValue={values?.name}
              aria-invalid={fields?.name ? true : undefined}
              aria-describedby="key-name-hint"
            />
            <span id="key-name-hint" className={fields?.name ? "field-error" : "hint"}>
              {fields?.name ?? "A name helps you recognise where a key is used, so you can revoke the right one later."}
            </span>
          </FormField>

          <div className="form-row">
            <Choices
              legend="Kind"
              name="kind"
              options={KIND_OPTIONS}
              selected={values?.kind ?? "live"}
              error={fields?.kind}
            />
            <Choices
              legend="Access"
              name="scope"
              options={SCOPE_OPTIONS}
              selected={values?.scope ?? "full_access"}
              error={fields?.scope}
            />
          </div>

          <div className="form-row">
            <FormField id="key-domain" label="Sending domain" optional>
              <select
                id="key-domain"
                name="domain"
                className="select"
                defaultValue={values?.domain ?? ""}
                aria-invalid={fields?.domain ? true : undefined}
                aria-describedby="key-domain-hint"
              >
                <option value="">Any of your domains</option>
                {domains.map((domain) => (
                  <option key={domain.domain} value={domain.domain}>
                    {domain.verified ? domain.domain : `${domain.domain} (pending verification)`}
                  </option>
                ))}
              </select>
              <span id="key-domain-hint" className={fields?.domain ? "field-error" : "hint"}>
                {fields?.domain ??
                  (domains.length > 0 ? (
                    "With either access, the key then sends only from addresses on this domain."
                  ) : (
                    <>
                      <Link href="/dashboard/domains">Add a domain</Link> to limit a key to it.
                    </>
                  ))}
              </span>
            </FormField>
            <FormField id="key-expiry" label="Expires">
              <select
                id="key-expiry"
                name="expiresInDays"
                className="select"
                defaultValue={values?.expiresInDays ?? NO_EXPIRY}
                aria-invalid={fields?.expiresInDays ? true : undefined}
                aria-describedby="key-expiry-hint"
              >
                <option value={NO_EXPIRY}>Never</option>
                {KEY_EXPIRY_DAYS.map((days) => (
                  <option key={days} value={days}>
                    In {days} days
                  </option>
                ))}
              </select>
              <span id="key-expiry-hint" className={fields?.expiresInDays ? "field-error" : "hint"}>
                {fields?.expiresInDays ?? "After it, requests with the key are refused with 401."}
              </span>
            </FormField>
          </div>

          <div>
            <SubmitButton pendingLabel="Generating…">Generate API key</SubmitButton>
          </div>
        </form>

        {/* Gone once the key is revoked: a dead key shown in full is only a risk and a confusion. */}
        {state.status === "success" && state.key && state.id && activeKeyIds.includes(state.id) && (
          <div
            ref={reveal}
            tabIndex={-1}
            className="alert alert-success stack-sm"
            role="status"
            aria-live="polite"
            style={{ display: "block" }}
          >
            <p style={{ marginBottom: 8 }}>
              <strong>Your new key “{state.name}”.</strong> Copy it now: for your security it is shown only once and we
              store only a hash of it.
            </p>
            <div className="input-group">
              <label htmlFor="new-key" className="visually-hidden">
                New API key
              </label>
              <input
                id="new-key"
                className="input code"
                readOnly
                value={state.key}
                onFocus={(event) => event.currentTarget.select()}
                data-testid="new-api-key"
              />
              <CopyButton value={state.key} label="Copy key" className="btn btn-primary" />
            </div>
            <CodeSnippet
              name="curl example"
              style={{ marginTop: 12 }}
              code={`export LETTERPRESS_API_KEY=${state.key}\n\ncurl ${siteUrl}/api/v1/${state.scope === "sending_access" ? "usage" : "library"} \\\n  -H "X-API-Key: $LETTERPRESS_API_KEY"`}
            />
            <figure style={{ margin: "12px 0 0" }}>
              <figcaption>
                The TypeScript client, after the <code>export</code> above: this app serves it (it is not on the npm
                registry), and <code>npx tsc</code> then checks each template&apos;s variables:
              </figcaption>
              <CodeSnippet name="client install" style={{ marginTop: 8 }} code={clientFirstRun(siteUrl)} />
            </figure>
            <figure style={{ margin: "12px 0 0" }}>
              <figcaption>Then in your code:</figcaption>
              <CodeSnippet name="client setup" style={{ marginTop: 8 }} code={clientSetup(siteUrl)} />
            </figure>
          </div>
        )}

        <div className="alert alert-warning">
          <span className="alert-icon" aria-hidden="true">
            <ShieldIcon />
          </span>
          <p>
            <strong>Keep API keys server-side.</strong> A key acts as your account: use it only from your backend, in an
            environment variable (<code>LETTERPRESS_API_KEY</code> in our examples) or secret store. Never put it in
            browser code, a mobile app or a public repository. If a key leaks, revoke it below and generate a new one.
          </p>
        </div>
      </div>
    </div>
  );
}

/** The two lines that set up the letterpress client with the key exported as LETTERPRESS_API_KEY. */
function clientSetup(siteUrl: string): string {
  return `import { Letterpress } from "letterpress";\nconst lp = new Letterpress({ apiKey: process.env.LETTERPRESS_API_KEY, baseUrl: "${siteUrl}/api/v1" });`;
}

type ChoiceOption = { value: string; label: string; hint: string };

/** Radio buttons, each described by its line of what it means. */
function Choices({
  legend,
  name,
  options,
  selected,
  error,
}: {
  legend: string;
  name: string;
  options: ChoiceOption[];
  selected: string;
  error?: string;
}) {
  const errorId = `key-${name}-error`;
  return (
    <fieldset className="choices" aria-describedby={error ? errorId : undefined}>
      <legend className="label">{legend}</legend>
      {options.map((option) => {
        const id = `key-${name}-${option.value}`;
        return (
          <div key={option.value} className="choice">
            <input
              type="radio"
              id={id}
              name={name}
              value={option.value}
              defaultChecked={option.value === selected}
              aria-describedby={`${id}-hint`}
            />
            <div>
              <label htmlFor={id}>{option.label}</label>
              <span id={`${id}-hint`} className="hint">
                {option.hint}
              </span>
            </div>
          </div>
        );
      })}
      {error && (
        <span id={errorId} className="field-error">
          {error}
        </span>
      )}
    </fieldset>
  );
}
