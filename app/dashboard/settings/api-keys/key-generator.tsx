"use client";
import { useActionState, useEffect, useRef } from "react";
import { CopyButton } from "../../../_components/copy-button";
import { ShieldIcon } from "../../../_components/icons";
import { SubmitButton } from "../../../_components/submit-button";
import { createApiKeyAction, type CreateKeyState } from "../../actions";

export function KeyGenerator({ siteUrl, activeKeyIds }: { siteUrl: string; activeKeyIds: string[] }) {
  const [state, action] = useActionState<CreateKeyState, FormData>(createApiKeyAction, { status: "idle" });
  const form = useRef<HTMLFormElement>(null);
  const reveal = useRef<HTMLDivElement>(null);

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
        <form ref={form} action={action} className="stack-sm">
          <label className="label" htmlFor="key-name">
            Key name
          </label>
          <div className="input-group">
            <input
              id="key-name"
              name="name"
              className="input"
              placeholder="e.g. Production server"
              maxLength={64}
              required
              aria-invalid={state.fields?.name ? true : undefined}
              aria-describedby="key-name-hint"
            />
            <SubmitButton pendingLabel="Generating…">Generate API key</SubmitButton>
          </div>
          <span id="key-name-hint" className={state.fields?.name ? "field-error" : "hint"}>
            {state.fields?.name ??
              "A name helps you recognise where a key is used, so you can revoke the right one later."}
          </span>
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
            <pre className="code-block" style={{ marginTop: 12 }}>
              <code>{`export LETTERPRESS_API_KEY=${state.key}\n\ncurl ${siteUrl}/api/v1/library \\\n  -H "X-API-Key: $LETTERPRESS_API_KEY"`}</code>
            </pre>
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
