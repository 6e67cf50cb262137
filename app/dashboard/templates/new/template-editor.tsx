"use client";
import { useActionState, useEffect, useMemo, useRef, useState } from "react";
import { MAX_TEMPLATE_DESCRIPTION_CHARS, MAX_TEMPLATE_FILES, MAX_TEMPLATE_NAME_CHARS } from "@/lib/core/limits";
import type { CompatibilityFinding } from "@/lib/render/analysis/warnings";
import type { VariablesSchema } from "@/lib/templates/variables-schema";
import { messagesTag, SINGLE_FILE } from "@/lib/templates/files";
import { effectiveDefault, localesOf, newLocale } from "@/lib/dashboard/locales";
import { jsonSyntaxProblem, placeMessagesProblem as placed } from "@/lib/dashboard/message-key";
import { CompatibilityPanel } from "../../../_components/compatibility-panel";
import { PreviewPane, type PreviewStatus } from "../../../_components/preview-pane";
import { VariablesList } from "../../../_components/variables-list";
import {
  FileEditor,
  ProblemText,
  SaveFooter,
  useFileEditor,
  type EditedFile,
  type Problem,
} from "../../_components/file-editor";
import type { CreateTemplateState } from "../../_lib/template-form";
import { STARTER_TEMPLATE } from "./starter";
import { CardSection } from "../../../_components/card-section";
import { FormField } from "../../../_components/form-field";

type DraftResult =
  | { ok: true; html: string; variables: VariablesSchema; compatibility: CompatibilityFinding[] | null }
  | { ok: false; message: string; line?: number; column?: number; path?: string };

/**
 * A saved template opened in the editor: its files in tab order, the entry first, and the default locale of its
 * messages (null without any).
 */
export type EditedTemplate = {
  id: string;
  name: string;
  description: string;
  files: EditedFile[];
  defaultLocale: string | null;
};

/** A new locale's messages: none yet, so every key falls back (the save's warnings list them). */
const NEW_MESSAGES = "{\n}\n";

/** The cap on a template's code files: a locale's messages count apart (MAX_TEMPLATE_LOCALES). */
function codeFileCapProblem(path: string, adding: boolean, files: EditedFile[]): string | null {
  const codeFiles = files.filter((file) => messagesTag(file.path) === null).length;
  return adding && messagesTag(path) === null && codeFiles >= MAX_TEMPLATE_FILES
    ? `A template holds at most ${MAX_TEMPLATE_FILES} files.`
    : null;
}

/** A locale added by its tag: its messages file, empty. */
function newLocaleFile(tag: string, paths: string[]): EditedFile | { error: string } {
  const added = newLocale(tag, paths);
  return "error" in added ? added : { path: added.path, code: NEW_MESSAGES };
}

/** Why the preview shows the last render that worked: where the code's error is, or what went wrong. */
function staleReason(problem: Problem, namesFiles: boolean): string {
  if (problem.line === undefined) return problem.message;
  const file = namesFiles && problem.path !== undefined ? ` of ${problem.path}` : "";
  return `the code has an error on line ${problem.line}${file}`;
}

/**
 * The editor of a new template (`template` absent: the starter, saved by createTemplateAction) or of a saved one (its
 * files, saved as its draft by saveDraftAction): `saveAction` is the Server Action the form posts to.
 */
export function TemplateEditor({
  saveAction,
  template,
}: {
  saveAction: (state: CreateTemplateState, formData: FormData) => Promise<CreateTemplateState>;
  template?: EditedTemplate;
}) {
  const [state, action] = useActionState<CreateTemplateState, FormData>(saveAction, { status: "idle" });
  // A new template's one file has the name compile errors give it; one file is posted as one source, as before tabs.
  const editing = useFileEditor({
    files: template?.files ?? [{ path: SINGLE_FILE, code: STARTER_TEMPLATE }],
    saved: state,
    pathProblem: codeFileCapProblem,
    extra: newLocaleFile,
  });
  const { files, entry, active, setActive, code, formRef, goToProblem } = editing;
  // The default locale the author chose (the saved one at first); the save's own choice when it is none of the tags.
  const [chosenDefault, setChosenDefault] = useState<string | null>(template?.defaultLocale ?? null);
  const activeTag = messagesTag(active);
  const jsonError = useMemo(() => (activeTag === null ? null : jsonSyntaxProblem(code)), [activeTag, code]);
  // Serialised once per change of the files, not at every render: the sources may hold 500,000 characters.
  const locales = useMemo(() => localesOf(files.map((file) => file.path)), [files]);
  const defaultLocale = effectiveDefault(locales, chosenDefault);
  const { source, sourceKey, filesJson } = useMemo(() => {
    const source =
      files.length === 1
        ? { code: files[0].code }
        : {
            files: Object.fromEntries(files.map((file) => [file.path, file.code])),
            entry,
            ...(defaultLocale !== null ? { default_locale: defaultLocale } : {}),
          };
    return {
      source,
      sourceKey: JSON.stringify(source),
      filesJson: "files" in source ? JSON.stringify(source.files) : "",
    };
  }, [files, entry, defaultLocale]);
  const [submittedSource, setSubmittedSource] = useState<string | null>(null);
  // The locale the preview renders in: one of the messages' tags, or null for the PreviewProps' (else the default).
  const [previewLocale, setPreviewLocale] = useState<string | null>(null);
  const shownLocale = previewLocale !== null && locales.includes(previewLocale) ? previewLocale : null;
  const [variablesText, setVariablesText] = useState("");
  const [html, setHtml] = useState<string | null>(null);
  // The email client support of the last render that worked, shown with its preview (null: its check was skipped).
  const [findings, setFindings] = useState<CompatibilityFinding[] | null | undefined>(undefined);
  const [status, setStatus] = useState<PreviewStatus>("rendering");
  const [problem, setProblem] = useState<Problem | null>(null);
  // The variables of the last draft that rendered, and whether the code has changed since.
  const [derived, setDerived] = useState<{ schema: VariablesSchema; current: boolean } | null>(null);
  const seq = useRef(0);
  // The last preview problem's file and place: a new one in another file brings its tab forward, once, so the author
  // may switch away while it stands.
  const lastProblem = useRef<string | null>(null);

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
    // It catches its own failures and shows them as the preview's problem: there is no rejection to handle.
    const renderPreview = async () => {
      const current = ++seq.current;
      setStatus("rendering");
      try {
        const response = await fetch("/api/dashboard/templates/preview", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            ...JSON.parse(sourceKey),
            variables: JSON.parse(variablesKey),
            ...(shownLocale !== null ? { locale: shownLocale } : {}),
          }),
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
          lastProblem.current = null;
          setHtml(result.html);
          setFindings(result.compatibility);
          setProblem(null);
          setDerived({ schema: result.variables, current: true });
          setStatus("idle");
        } else {
          setProblem({ message: result.message, line: result.line, column: result.column, path: result.path });
          const key = `${result.path}:${result.line}:${result.column}:${result.message}`;
          const { files: posted } = JSON.parse(sourceKey) as { files?: Record<string, string> };
          if (key !== lastProblem.current && result.path && posted && Object.hasOwn(posted, result.path))
            setActive(result.path);
          lastProblem.current = key;
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
    };
    const timer = window.setTimeout(() => void renderPreview(), 700);
    return () => window.clearTimeout(timer);
  }, [sourceKey, variablesKey, shownLocale, setActive]);

  const saveError = state.status === "error" ? state : null;
  // A failed save's compile error holds while the files are as saved; its other errors while the preview has none.
  const shownAsIs: Problem | null =
    saveError && (saveError.line !== undefined ? sourceKey === submittedSource : !problem)
      ? { message: saveError.message ?? "", line: saveError.line, column: saveError.column, path: saveError.path }
      : problem;
  const shown = shownAsIs && placed(shownAsIs, files);
  // A failed save, said by the Save button too: the preview's alert may show the same error already, far from it (below
  // the code on a phone). A compile error only while the files are as saved.
  const saveProblem: Problem | null =
    saveError && (saveError.line === undefined || sourceKey === submittedSource)
      ? placed(
          { message: saveError.message ?? "", line: saveError.line, column: saveError.column, path: saveError.path },
          files,
        )
      : null;

  return (
    <form ref={formRef} action={action} onSubmit={() => setSubmittedSource(sourceKey)} className="stack">
      <section className="card">
        <div className="card-body form-row">
          <FormField id="template-name" label="Name">
            <input
              id="template-name"
              name="name"
              className="input"
              required
              maxLength={MAX_TEMPLATE_NAME_CHARS}
              placeholder="e.g. Weekly digest"
              defaultValue={state.values?.name ?? template?.name}
              aria-invalid={state.fields?.name ? true : undefined}
              aria-describedby={state.fields?.name ? "template-name-error" : undefined}
            />
            {state.fields?.name && (
              <span id="template-name-error" className="field-error">
                {state.fields.name}
              </span>
            )}
          </FormField>
          <FormField id="template-description" label="Description" optional>
            <input
              id="template-description"
              name="description"
              className="input"
              maxLength={MAX_TEMPLATE_DESCRIPTION_CHARS}
              placeholder="What is this email for?"
              defaultValue={state.values?.description ?? template?.description}
            />
          </FormField>
        </div>
        <SaveFooter
          editing={editing}
          problem={saveProblem}
          note={
            template
              ? "Saving compiles the template, checks it renders, and keeps it as the draft: sends use the published version until you publish the draft."
              : "Saving compiles the template, checks it renders, and adds it to your library."
          }
          submitLabel={template ? "Save draft" : "Save template"}
        >
          {template && <input type="hidden" name="id" value={template.id} />}
        </SaveFooter>
      </section>

      <div className="editor">
        <div className="stack">
          <FileEditor
            editing={editing}
            title={activeTag === null ? "Code (TSX)" : `Messages: ${activeTag} (JSON)`}
            addPath="components/"
            removeLabel={activeTag === null ? "Remove file" : `Remove locale ${activeTag}`}
            pathHelp="A relative path ending in .tsx, .ts, .jsx or .js, e.g. components/footer.tsx. Import it from another file by its relative path: ./components/footer."
            extra={{
              button: "Add locale",
              label: "Language tag of the new locale",
              help: "A BCP 47 tag: fr, de, pt-BR, zh-Hant. It adds messages/<tag>.json, empty: each key falls back to its parent locale's message, then the default locale's, until you write it.",
            }}
            codeLabel={activeTag === null ? "Template source code" : `Messages of ${activeTag} as JSON`}
            describedBy={activeTag === null ? "code-help" : "messages-help"}
            problem={shown}
          >
            {/* What the form posts: the editor is not a form control. */}
            {"code" in source ? (
              <input type="hidden" name="code" value={source.code} />
            ) : (
              <>
                <input type="hidden" name="files" value={filesJson} />
                <input type="hidden" name="entry" value={source.entry} />
                {source.default_locale !== undefined && (
                  <input type="hidden" name="default_locale" value={source.default_locale} />
                )}
              </>
            )}
            {locales.length > 0 && (
              <div className="field">
                <label className="label" htmlFor="default-locale">
                  Default locale
                </label>
                <select
                  id="default-locale"
                  className="select"
                  value={defaultLocale ?? ""}
                  onChange={(event) => setChosenDefault(event.target.value)}
                  aria-describedby="default-locale-help"
                >
                  {locales.map((tag) => (
                    <option key={tag} value={tag}>
                      {tag}
                    </option>
                  ))}
                </select>
                <span id="default-locale-help" className="hint">
                  A render in a locale the template lacks uses it, and a key another locale lacks falls back to it.
                </span>
              </div>
            )}
            {activeTag !== null && (
              // The editor's description: its JSON error in words too, read with it (not announced at each keystroke,
              // when half-typed JSON never parses).
              <span id="messages-help" className={jsonError ? "field-error" : "hint"}>
                {jsonError ? (
                  <>This JSON does not parse yet: {jsonError}</>
                ) : (
                  <>
                    The messages of {activeTag}: an object of ICU messages by key, nested as you like (
                    <code>{'{ "welcome": { "title": "Hi {name}" } }'}</code>), read with <code>createTranslator</code>{" "}
                    from <code>next-intl</code>. JSON errors are marked as you type.
                  </>
                )}
              </span>
            )}
            {activeTag === null && (
              <span id="code-help" className="hint">
                A default export returning React Email components. Imports: <code>react</code> and{" "}
                <code>@react-email/components</code>, <code>Tailwind</code> and <code>pixelBasedPreset</code> included;{" "}
                <code>next-intl</code> and a locale&apos;s <code>./messages/&lt;tag&gt;.json</code> with Add locale;
                your shared components as <code>@components/&lt;name&gt;</code>. Set <code>Component.PreviewProps</code>{" "}
                for sample values.
              </span>
            )}
          </FileEditor>
          <CardSection
            headingId="derived-title"
            title="Variables"
            testId="derived-variables"
            aside={
              <span className="hint" aria-live="polite">
                {derived === null
                  ? ""
                  : derived.current
                    ? "From the code as it is"
                    : "From the last code that rendered"}
              </span>
            }
          >
            <div className="card-body">
              {derived === null ? (
                <p className="muted small" style={{ margin: 0 }}>
                  The template's variables appear here once its code renders.
                </p>
              ) : (
                <VariablesList schema={derived.schema} label="Variables of the template" />
              )}
            </div>
          </CardSection>
          <CardSection
            headingId="vars-title"
            title="Preview variables"
            aside={<span className="label-optional small">optional JSON</span>}
          >
            <div className="card-body stack-sm">
              {locales.length > 0 && (
                <div className="field">
                  <label className="label" htmlFor="preview-locale">
                    Preview locale
                  </label>
                  <select
                    id="preview-locale"
                    className="select"
                    value={shownLocale ?? ""}
                    onChange={(event) => setPreviewLocale(event.target.value === "" ? null : event.target.value)}
                  >
                    <option value="">PreviewProps&apos; locale, else the default ({defaultLocale})</option>
                    {locales.map((tag) => (
                      <option key={tag} value={tag}>
                        {tag}
                      </option>
                    ))}
                  </select>
                </div>
              )}
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
          </CardSection>
        </div>
        <div className="preview-pane stack">
          {shown && (
            <div className="alert alert-danger" role="alert" data-testid="editor-problem">
              <div>
                <p style={{ whiteSpace: "pre-wrap" }}>
                  <ProblemText problem={shown} namesFile={files.length > 1} />
                </p>
                {shown.line !== undefined && (
                  <button
                    type="button"
                    className="btn btn-secondary btn-sm"
                    style={{ marginTop: 8 }}
                    onClick={() => goToProblem(shown)}
                  >
                    Go to line {shown.line}
                  </button>
                )}
              </div>
            </div>
          )}
          <PreviewPane
            html={html}
            status={status}
            stale={problem ? staleReason(problem, files.length > 1) : null}
            title={template ? `Preview of the draft of ${template.name}` : "Preview of the new template"}
          />
          {findings !== undefined && <CompatibilityPanel findings={findings} source="the preview" />}
        </div>
      </div>
    </form>
  );
}
