"use client";
import Link from "next/link";
import { useActionState, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { MAX_TEMPLATE_DESCRIPTION_CHARS, MAX_TEMPLATE_FILES } from "@/lib/core/limits";
import { messagesTag, templatePathProblem } from "@/lib/templates/files";
import { CardSection } from "../../_components/card-section";
import { CodeEditor, type CodeEditorHandle } from "../../_components/code-editor";
import { FileTabs } from "../../_components/file-tabs";
import { FormField } from "../../_components/form-field";
import { SubmitButton } from "../../_components/submit-button";
import type { ComponentEditorState } from "./actions";
import { TemplateNamed, type UsedBy } from "./template-named";

type Problem = { message: string; line?: number; column?: number; path?: string };

/** A saved component opened in the editor: `files` in tab order, the entry first. */
export type EditedComponent = { name: string; description: string; version: number };

/** Why `path` cannot be added (or a file renamed to it): the API's path rules, then the editor's own. */
function newPathProblem(path: string, taken: string[]): string | null {
  if (messagesTag(path) !== null)
    return "A component holds code files only: its text comes from the templates, as props.";
  const problem = templatePathProblem(path);
  if (problem) return `The path ${problem}.`;
  if (taken.includes(path)) return "A file has this path already.";
  return null;
}

/**
 * The files of a new component (`component` absent: the starter `files`, saved by createComponentAction) or of a
 * saved one (saved as its next version by updateComponentAction), in CodeMirror with a tab per file, as the template
 * editor has them. A component renders only inside a template, so the save is what checks it: its compile error is
 * marked where it is; a refused update lists each template it would break (`usedBy` names them).
 */
export function ComponentEditor({
  saveAction,
  files: initialFiles,
  component,
  usedBy = [],
}: {
  saveAction: (state: ComponentEditorState, formData: FormData) => Promise<ComponentEditorState>;
  files: { path: string; code: string }[];
  component?: EditedComponent;
  usedBy?: UsedBy;
}) {
  const [state, action] = useActionState<ComponentEditorState, FormData>(saveAction, { status: "idle" });
  const [files, setFiles] = useState(initialFiles);
  const entry = initialFiles[0].path;
  const [active, setActive] = useState(entry);
  const [naming, setNaming] = useState<{ mode: "add" | "rename"; path: string; error: string | null } | null>(null);
  const code = files.find((file) => file.path === active)?.code ?? "";
  const setCode = useCallback(
    (next: string) =>
      setFiles((current) => current.map((file) => (file.path === active ? { ...file, code: next } : file))),
    [active],
  );
  // Serialised once per change of the files, not at every render: the sources may hold 500,000 characters.
  const filesJson = useMemo(
    () => JSON.stringify(Object.fromEntries(files.map((file) => [file.path, file.code]))),
    [files],
  );
  const [submittedFiles, setSubmittedFiles] = useState<string | null>(null);
  const editor = useRef<CodeEditorHandle>(null);
  const form = useRef<HTMLFormElement>(null);
  const pendingGoTo = useRef<{ line: number; column?: number } | null>(null);
  const save = useCallback(() => form.current?.requestSubmit(), []);

  const saveError = state.status === "error" ? state : null;
  // A failed save's compile error holds while the files are as saved; its other errors until the next save.
  const saveProblem: Problem | null =
    saveError && !saveError.broken && (saveError.line === undefined || filesJson === submittedFiles)
      ? { message: saveError.message ?? "", line: saveError.line, column: saveError.column, path: saveError.path }
      : null;
  // The marks belong to the file the problem is in.
  const problemHere =
    saveProblem && (saveProblem.path === undefined || saveProblem.path === active) ? saveProblem : null;
  // A failed save whose error is in another file brings that file's tab forward, once (adjusted while rendering, as
  // React recommends for state that follows a new answer).
  const [seenSave, setSeenSave] = useState(state);
  if (state !== seenSave) {
    setSeenSave(state);
    if (state.path && files.some((file) => file.path === state.path)) setActive(state.path);
  }
  // "Go to line" in another file: once its tab's editor is there.
  useEffect(() => {
    if (!pendingGoTo.current) return;
    editor.current?.goTo(pendingGoTo.current);
    pendingGoTo.current = null;
  }, [active]);

  function goToProblem(where: Problem) {
    if (where.line === undefined) return;
    const position = { line: where.line, column: where.column };
    if (where.path && where.path !== active && files.some((file) => file.path === where.path)) {
      pendingGoTo.current = position;
      setActive(where.path);
    } else editor.current?.goTo(position);
  }

  function submitNaming() {
    if (!naming) return;
    const path = naming.path.trim();
    const taken = files.map((file) => file.path).filter((taken) => naming.mode === "add" || taken !== active);
    const error =
      naming.mode === "add" && files.length >= MAX_TEMPLATE_FILES
        ? `A component holds at most ${MAX_TEMPLATE_FILES} files.`
        : newPathProblem(path, taken);
    if (error) {
      setNaming({ ...naming, error });
      return;
    }
    if (naming.mode === "add") setFiles((current) => [...current, { path, code: "" }]);
    else setFiles((current) => current.map((file) => (file.path === active ? { ...file, path } : file)));
    setActive(path);
    setNaming(null);
  }

  function removeActive() {
    setFiles((current) => current.filter((file) => file.path !== active));
    setActive(entry);
    setNaming(null);
  }

  return (
    <form ref={form} action={action} onSubmit={() => setSubmittedFiles(filesJson)} className="stack">
      <section className="card">
        <div className="card-body form-row">
          {component ? (
            <input type="hidden" name="name" value={component.name} />
          ) : (
            <FormField id="component-name" label="Name">
              <input
                id="component-name"
                name="name"
                className="input code"
                required
                maxLength={64}
                spellCheck={false}
                autoCapitalize="none"
                placeholder="e.g. footer"
                defaultValue={state.values?.name}
                aria-invalid={state.fields?.name ? true : undefined}
                aria-describedby="component-name-help"
              />
              <span id="component-name-help" className={state.fields?.name ? "field-error" : "hint"}>
                {state.fields?.name ??
                  "How templates import it: @components/<name>. Lowercase letters, digits and -, starting with a letter."}
              </span>
            </FormField>
          )}
          <FormField id="component-description" label="Description" optional>
            <input
              id="component-description"
              name="description"
              className="input"
              maxLength={MAX_TEMPLATE_DESCRIPTION_CHARS}
              placeholder="What is it for?"
              defaultValue={state.values?.description ?? component?.description}
              aria-invalid={state.fields?.description ? true : undefined}
              aria-describedby={state.fields?.description ? "component-description-error" : undefined}
            />
            {state.fields?.description && (
              <span id="component-description-error" className="field-error">
                {state.fields.description}
              </span>
            )}
          </FormField>
        </div>
        <div className="card-footer row-between">
          {saveProblem ? (
            <div className="alert alert-danger save-problem" role="alert" data-testid="save-problem">
              <p style={{ whiteSpace: "pre-wrap" }}>
                <strong>Not saved. </strong>
                {saveProblem.path !== undefined && files.length > 1 && <strong>{saveProblem.path}: </strong>}
                {saveProblem.line !== undefined && (
                  <strong>
                    Line {saveProblem.line}
                    {saveProblem.column !== undefined ? `, column ${saveProblem.column}` : ""}:{" "}
                  </strong>
                )}
                {saveProblem.message}
              </p>
              {saveProblem.line !== undefined && (
                <button type="button" className="btn btn-secondary btn-sm" onClick={() => goToProblem(saveProblem)}>
                  Go to line {saveProblem.line}
                </button>
              )}
            </div>
          ) : (
            <span className="muted small">
              {component
                ? `Saving compiles it as version ${component.version + 1}, then every template whose published version imports it, checks each renders, and publishes them again with it; if one fails, nothing is saved.`
                : "Saving compiles its files and adds it as version 1: templates then import it by its name."}
            </span>
          )}
          {component && <input type="hidden" name="version" value={component.version} />}
          <SubmitButton pendingLabel="Saving…">{component ? "Save new version" : "Save component"}</SubmitButton>
        </div>
      </section>

      {saveError?.broken && (
        <div className="alert alert-danger" role="alert" data-testid="broken-templates">
          <div className="stack-sm">
            <p>
              <strong>Not saved. </strong>
              {saveError.message}
            </p>
            <ul className="small" style={{ margin: 0, paddingLeft: 20 }}>
              {saveError.broken.map((broken) => (
                <li key={broken.template_id ?? broken.message} style={{ overflowWrap: "anywhere" }}>
                  <TemplateNamed named={broken} usedBy={usedBy} />
                </li>
              ))}
            </ul>
          </div>
        </div>
      )}
      {state.status === "success" && (
        <div className="alert alert-success" role="status" data-testid="component-saved">
          <div className="stack-sm">
            <p>{state.message}</p>
            {state.republished && state.republished.length > 0 && (
              <ul className="small" style={{ margin: 0, paddingLeft: 20 }}>
                {state.republished.map(({ template_id, version }) => (
                  <li key={template_id}>
                    <Link href={`/dashboard/library/${template_id}`}>
                      {usedBy.find((template) => template.template_id === template_id)?.name ?? "A template"}
                    </Link>
                    , as its version {version}
                  </li>
                ))}
              </ul>
            )}
          </div>
        </div>
      )}

      <CardSection
        headingId="code-title"
        title="Code (TSX)"
        aside={
          <span className="hint">
            <span className="kbd">Tab</span> indents · <span className="kbd">Esc</span> then{" "}
            <span className="kbd">Tab</span> leaves · <span className="kbd">Ctrl</span>+<span className="kbd">S</span>{" "}
            saves
          </span>
        }
      >
        <div className="card-body stack-sm">
          <div className="row-between">
            <FileTabs
              paths={files.map((file) => file.path)}
              active={active}
              entry={entry}
              idPrefix="component-file-tab"
              panelId="component-file-panel"
              label="Files of the component"
              onSelect={(path) => {
                setActive(path);
                setNaming(null);
              }}
            />
            <div className="row">
              {active !== entry && (
                <>
                  <button
                    type="button"
                    className="btn btn-ghost btn-sm"
                    onClick={() => setNaming({ mode: "rename", path: active, error: null })}
                  >
                    Rename file
                  </button>
                  <button type="button" className="btn btn-ghost btn-sm" onClick={removeActive}>
                    Remove file
                  </button>
                </>
              )}
              <button
                type="button"
                className="btn btn-secondary btn-sm"
                onClick={() => setNaming({ mode: "add", path: "", error: null })}
              >
                Add file
              </button>
            </div>
          </div>
          {naming && (
            <div className="field">
              <label className="label" htmlFor="component-file-path">
                {naming.mode === "add" ? "Path of the new file" : `New path of ${active}`}
              </label>
              <div className="row">
                <input
                  id="component-file-path"
                  className="input code"
                  value={naming.path}
                  autoFocus
                  spellCheck={false}
                  onChange={(event) => setNaming({ ...naming, path: event.target.value, error: null })}
                  onKeyDown={(event) => {
                    // Enter would submit the component's form.
                    if (event.key === "Enter") {
                      event.preventDefault();
                      submitNaming();
                    }
                    if (event.key === "Escape") setNaming(null);
                  }}
                  aria-invalid={naming.error ? true : undefined}
                  aria-describedby="component-file-path-help"
                />
                <button type="button" className="btn btn-primary btn-sm" onClick={submitNaming}>
                  {naming.mode === "rename" ? "Rename" : "Add"}
                </button>
                <button type="button" className="btn btn-ghost btn-sm" onClick={() => setNaming(null)}>
                  Cancel
                </button>
              </div>
              <span id="component-file-path-help" className={naming.error ? "field-error" : "hint"}>
                {naming.error ??
                  "A relative path ending in .tsx, .ts, .jsx or .js, e.g. legal.tsx. Import it from another file of the component by its relative path: ./legal."}
              </span>
            </div>
          )}
          <div id="component-file-panel" role="tabpanel" aria-labelledby={`component-file-tab-${active}`}>
            <CodeEditor
              key={active}
              ref={editor}
              value={code}
              onChange={setCode}
              path={active}
              label="Component source code"
              describedBy="component-code-help"
              problem={problemHere?.line !== undefined ? { line: problemHere.line, column: problemHere.column } : null}
              onSave={save}
            />
          </div>
          {/* What the form posts: the editor is not a form control. */}
          <input type="hidden" name="files" value={filesJson} />
          <input type="hidden" name="entry" value={entry} />
          <span id="component-code-help" className="hint">
            A default export and any named ones, each a React component: a template imports them as{" "}
            <code>
              import Footer, {"{ Address }"} from &quot;@components/{component?.name ?? "<name>"}&quot;
            </code>
            . Imports: <code>react</code>, <code>@react-email/components</code>, <code>next-intl</code>, your other
            components and this component&apos;s own files. Its text comes from the templates, as props.
          </span>
        </div>
      </CardSection>
    </form>
  );
}
