"use client";
import { useActionState, useCallback, useEffect, useRef, useState } from "react";
import type { VariablesSchema } from "@/lib/schemas/variables";
import { CodeEditor, type CodeEditorHandle } from "../../../_components/code-editor";
import { PreviewPane, type PreviewStatus } from "../../../_components/preview-pane";
import { SubmitButton } from "../../../_components/submit-button";
import { VariablesList } from "../../../_components/variables-list";
import { createTemplateAction, type CreateTemplateState } from "../../actions";
import { STARTER_TEMPLATE } from "./starter";

type DraftResult =
  | { ok: true; html: string; variables: VariablesSchema }
  | { ok: false; message: string; line?: number; column?: number };

export function TemplateEditor() {
  const [state, action] = useActionState<CreateTemplateState, FormData>(createTemplateAction, { status: "idle" });
  const [code, setCode] = useState(STARTER_TEMPLATE);
  const [submittedCode, setSubmittedCode] = useState<string | null>(null);
  const [variablesText, setVariablesText] = useState("");
  const [html, setHtml] = useState<string | null>(null);
  const [status, setStatus] = useState<PreviewStatus>("rendering");
  const [problem, setProblem] = useState<{ message: string; line?: number; column?: number } | null>(null);
  // The variables of the last draft that rendered, and whether the code has changed since.
  const [derived, setDerived] = useState<{ schema: VariablesSchema; current: boolean } | null>(null);
  const editor = useRef<CodeEditorHandle>(null);
  const form = useRef<HTMLFormElement>(null);
  const seq = useRef(0);
  const save = useCallback(() => form.current?.requestSubmit(), []);

  let variables: Record<string, unknown> | null = null;
  let variablesError: string | null = null;
  if (variablesText.trim()) {
    try {
      const parsed = JSON.parse(variablesText);
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) variables = parsed;
      else variablesError = 'Enter a JSON object, e.g. { "name": "Ada" }';
    } catch {
      variablesError = "This is not valid JSON yet";
    }
  }
  const variablesKey = variablesError ? null : JSON.stringify(variables);

  useEffect(() => {
    if (variablesKey === null) return;
    const timer = window.setTimeout(async () => {
      const current = ++seq.current;
      setStatus("rendering");
      try {
        const response = await fetch("/api/dashboard/templates/preview", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ code, variables: JSON.parse(variablesKey) }),
        });
        const body = (await response.json()) as DraftResult | { error?: string; message?: string };
        if (current !== seq.current) return;
        if (!response.ok || !("ok" in body)) {
          // Refused rather than failed (the preview limit, a busy sandbox): the answer says why and when to retry.
          const refusal = body as { error?: string; message?: string };
          setProblem({
            message: refusal.message ?? refusal.error ?? `The preview was refused (HTTP ${response.status}).`,
          });
          setStatus("error");
          return;
        }
        const result = body;
        if (result.ok) {
          setHtml(result.html);
          setProblem(null);
          setDerived({ schema: result.variables, current: true });
          setStatus("idle");
        } else {
          setProblem({ message: result.message, line: result.line, column: result.column });
          setDerived((previous) => previous && { ...previous, current: false });
          setStatus("error");
          setHtml((previous) => previous ?? "");
        }
      } catch {
        if (current !== seq.current) return;
        setProblem({
          message: "The preview service could not be reached. Your code is safe here; try again in a moment.",
        });
        setStatus("error");
      }
    }, 700);
    return () => window.clearTimeout(timer);
  }, [code, variablesKey]);

  const saveError = state.status === "error" ? state : null;
  // A failed save's compile error holds while the code is as saved; its other errors while the preview has none.
  const shown =
    saveError && (saveError.line !== undefined ? code === submittedCode : !problem)
      ? { message: saveError.message ?? "", line: saveError.line, column: saveError.column }
      : problem;

  return (
    <form ref={form} action={action} onSubmit={() => setSubmittedCode(code)} className="stack">
      <section className="card">
        <div className="card-body form-row">
          <div className="field">
            <label className="label" htmlFor="template-name">
              Name
            </label>
            <input
              id="template-name"
              name="name"
              className="input"
              required
              maxLength={120}
              placeholder="e.g. Weekly digest"
              defaultValue={state.values?.name}
              aria-invalid={state.fields?.name ? true : undefined}
              aria-describedby={state.fields?.name ? "template-name-error" : undefined}
            />
            {state.fields?.name && (
              <span id="template-name-error" className="field-error">
                {state.fields.name}
              </span>
            )}
          </div>
          <div className="field">
            <label className="label" htmlFor="template-description">
              Description <span className="label-optional">(optional)</span>
            </label>
            <input
              id="template-description"
              name="description"
              className="input"
              maxLength={500}
              placeholder="What is this email for?"
              defaultValue={state.values?.description}
            />
          </div>
        </div>
        <div className="card-footer row-between">
          <span className="muted small">
            Saving compiles the template, checks it renders, and adds it to your library.
          </span>
          <SubmitButton pendingLabel="Saving…">Save template</SubmitButton>
        </div>
      </section>

      <div className="editor">
        <div className="stack">
          <section className="card" aria-labelledby="code-title">
            <div className="card-header">
              <h2 id="code-title">Code (TSX)</h2>
              <span className="hint">
                <span className="kbd">Tab</span> indents · <span className="kbd">Esc</span> then{" "}
                <span className="kbd">Tab</span> leaves · <span className="kbd">Ctrl</span>+
                <span className="kbd">S</span> saves
              </span>
            </div>
            <div className="card-body stack-sm">
              <CodeEditor
                ref={editor}
                value={code}
                onChange={setCode}
                label="Template source code"
                describedBy="code-help"
                problem={shown?.line !== undefined ? { line: shown.line, column: shown.column } : null}
                onSave={save}
              />
              {/* What the form posts: the editor is not a form control. */}
              <input type="hidden" name="code" value={code} />
              <span id="code-help" className="hint">
                A default export returning React Email components. Imports: <code>react</code> and{" "}
                <code>@react-email/components</code> (no Tailwind). Set <code>Component.PreviewProps</code> for sample
                values.
              </span>
            </div>
          </section>
          <section className="card" aria-labelledby="derived-title" data-testid="derived-variables">
            <div className="card-header">
              <h2 id="derived-title">Variables</h2>
              <span className="hint" aria-live="polite">
                {derived === null
                  ? ""
                  : derived.current
                    ? "From the code as it is"
                    : "From the last code that rendered"}
              </span>
            </div>
            <div className="card-body">
              {derived === null ? (
                <p className="muted small" style={{ margin: 0 }}>
                  The template's variables appear here once its code renders.
                </p>
              ) : (
                <VariablesList schema={derived.schema} label="Variables of the template" />
              )}
            </div>
          </section>
          <section className="card" aria-labelledby="vars-title">
            <div className="card-header">
              <h2 id="vars-title">Preview variables</h2>
              <span className="label-optional small">optional JSON</span>
            </div>
            <div className="card-body stack-sm">
              <label htmlFor="preview-variables" className="visually-hidden">
                Preview variables as JSON
              </label>
              <textarea
                id="preview-variables"
                className="textarea code"
                rows={4}
                placeholder='{ "name": "Grace" }   (empty: use PreviewProps)'
                value={variablesText}
                onChange={(event) => setVariablesText(event.target.value)}
                aria-invalid={variablesError ? true : undefined}
                aria-describedby="preview-variables-help"
                spellCheck={false}
              />
              <span id="preview-variables-help" className={variablesError ? "field-error" : "hint"}>
                {variablesError ?? "Only used for this preview; not saved with the template."}
              </span>
            </div>
          </section>
        </div>
        <div className="preview-pane stack">
          {shown && (
            <div className="alert alert-danger" role="alert" data-testid="editor-problem">
              <div>
                <p style={{ whiteSpace: "pre-wrap" }}>
                  {shown.line !== undefined && (
                    <strong>
                      Line {shown.line}
                      {shown.column !== undefined ? `, column ${shown.column}` : ""}:{" "}
                    </strong>
                  )}
                  {shown.message}
                </p>
                {shown.line !== undefined && (
                  <button
                    type="button"
                    className="btn btn-secondary btn-sm"
                    style={{ marginTop: 8 }}
                    onClick={() => editor.current?.goTo({ line: shown.line!, column: shown.column })}
                  >
                    Go to line {shown.line}
                  </button>
                )}
              </div>
            </div>
          )}
          <PreviewPane html={html} status={status} title="Preview of the new template" />
        </div>
      </div>
    </form>
  );
}
