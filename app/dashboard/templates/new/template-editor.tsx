"use client";
import { useActionState, useEffect, useRef, useState } from "react";
import { PreviewPane, type PreviewStatus } from "../../../_components/preview-pane";
import { SubmitButton } from "../../../_components/submit-button";
import { createTemplateAction, type CreateTemplateState } from "../../actions";
import { STARTER_TEMPLATE } from "./starter";

type DraftResult = { ok: true; html: string } | { ok: false; message: string; line?: number; column?: number };

export function TemplateEditor() {
  const [state, action] = useActionState<CreateTemplateState, FormData>(createTemplateAction, { status: "idle" });
  const [code, setCode] = useState(STARTER_TEMPLATE);
  const [variablesText, setVariablesText] = useState("");
  const [html, setHtml] = useState<string | null>(null);
  const [status, setStatus] = useState<PreviewStatus>("rendering");
  const [problem, setProblem] = useState<{ message: string; line?: number; column?: number } | null>(null);
  const editor = useRef<HTMLTextAreaElement>(null);
  const form = useRef<HTMLFormElement>(null);
  const tabReleased = useRef(false);
  const seq = useRef(0);

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
          setStatus("idle");
        } else {
          setProblem({ message: result.message, line: result.line, column: result.column });
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
  const shown =
    saveError && (saveError.line !== undefined || !problem)
      ? { message: saveError.message ?? "", line: saveError.line, column: saveError.column }
      : problem;

  function goTo(line?: number, column?: number) {
    const area = editor.current;
    if (!area || !line) return;
    const lines = code.split("\n");
    const offset =
      lines.slice(0, line - 1).reduce((sum, text) => sum + text.length + 1, 0) + Math.max(0, (column ?? 1) - 1);
    area.focus();
    area.setSelectionRange(offset, offset);
    const lineHeight = parseFloat(getComputedStyle(area).lineHeight) || 20;
    area.scrollTop = Math.max(0, (line - 5) * lineHeight);
  }

  function onKeyDown(event: React.KeyboardEvent<HTMLTextAreaElement>) {
    if ((event.metaKey || event.ctrlKey) && event.key.toLowerCase() === "s") {
      event.preventDefault();
      form.current?.requestSubmit();
      return;
    }
    if (event.key === "Escape") {
      tabReleased.current = true;
      return;
    }
    if (event.key !== "Tab" || tabReleased.current) {
      tabReleased.current = false;
      return;
    }
    event.preventDefault();
    const area = event.currentTarget;
    const { selectionStart, selectionEnd } = area;
    const next = `${code.slice(0, selectionStart)}  ${code.slice(selectionEnd)}`;
    setCode(next);
    requestAnimationFrame(() => area.setSelectionRange(selectionStart + 2, selectionStart + 2));
  }

  return (
    <form ref={form} action={action} className="stack">
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
              <label htmlFor="template-code" className="visually-hidden">
                Template source code
              </label>
              <textarea
                id="template-code"
                ref={editor}
                name="code"
                className="textarea code-editor"
                value={code}
                onChange={(event) => setCode(event.target.value)}
                onKeyDown={onKeyDown}
                spellCheck={false}
                autoCapitalize="off"
                autoCorrect="off"
                wrap="off"
                aria-describedby="code-help"
                aria-invalid={shown?.line !== undefined ? true : undefined}
              />
              <span id="code-help" className="hint">
                A default export returning React Email components. Imports: <code>react</code> and{" "}
                <code>@react-email/components</code> (no Tailwind). Set <code>Component.PreviewProps</code> for sample
                values.
              </span>
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
                    onClick={() => goTo(shown.line, shown.column)}
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
