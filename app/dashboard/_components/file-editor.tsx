"use client";
import { useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import { templatePathProblem } from "@/lib/templates/files";
import { CardSection } from "../../_components/card-section";
import { CodeEditor, type CodeEditorHandle } from "../../_components/code-editor";
import { FileTabs } from "../../_components/file-tabs";
import { SubmitButton } from "../../_components/submit-button";

export type EditedFile = { path: string; code: string };

/** A compile error (`line`, in the file `path`) or another reason a render or a save failed. */
export type Problem = { message: string; line?: number; column?: number; path?: string };

/** The path field's text and error: adding a file, renaming the one shown, or adding the editor's `extra` kind. */
type Naming = { mode: "add" | "rename" | "extra"; path: string; error: string | null };

/** Why `path` cannot be added (or a file renamed to it) whatever the editor: the API's path rules, then `taken`. */
function newPathProblem(path: string, taken: string[]): string | null {
  const problem = templatePathProblem(path);
  if (problem) return `The path ${problem}.`;
  if (taken.includes(path)) return "A file has this path already.";
  return null;
}

/**
 * A template's or a component's files in the editor, in tab order, the entry first: the file shown, the path field
 * that adds a file or renames the one shown, "go to line" in any file, and the form that saves them.
 */
export function useFileEditor({
  files: initialFiles,
  saved,
  pathProblem,
  extra,
}: {
  files: EditedFile[];
  /** The save's answer: a new one whose error is in another file brings that file's tab forward, once. */
  saved: { path?: string };
  /** The editor's own rule for a path a file is added (`adding`) or renamed to, before the API's. */
  pathProblem: (path: string, adding: boolean, files: EditedFile[]) => string | null;
  /** The editor's other kind of file (a template's locale): the file what is typed adds, or why it cannot. */
  extra?: (typed: string, paths: string[]) => EditedFile | { error: string };
}) {
  const [files, setFiles] = useState(initialFiles);
  const entry = initialFiles[0].path;
  const [active, setActive] = useState(entry);
  const [naming, setNaming] = useState<Naming | null>(null);
  const code = files.find((file) => file.path === active)?.code ?? "";
  const setCode = useCallback(
    (next: string) =>
      setFiles((current) => current.map((file) => (file.path === active ? { ...file, code: next } : file))),
    [active],
  );
  const editorRef = useRef<CodeEditorHandle>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const pendingGoTo = useRef<{ line: number; column?: number } | null>(null);
  const save = useCallback(() => formRef.current?.requestSubmit(), []);

  // Adjusted while rendering, as React recommends for state that follows a new answer.
  const [seenSave, setSeenSave] = useState(saved);
  if (saved !== seenSave) {
    setSeenSave(saved);
    if (saved.path && files.some((file) => file.path === saved.path)) setActive(saved.path);
  }
  // "Go to line" in another file: once its tab's editor is there.
  useEffect(() => {
    if (!pendingGoTo.current) return;
    editorRef.current?.goTo(pendingGoTo.current);
    pendingGoTo.current = null;
  }, [active]);

  /** Puts the cursor at a problem's line and column, in its file's tab. */
  function goToProblem(where: Problem) {
    if (where.line === undefined) return;
    const position = { line: where.line, column: where.column };
    if (where.path && where.path !== active && files.some((file) => file.path === where.path)) {
      pendingGoTo.current = position;
      setActive(where.path);
    } else editorRef.current?.goTo(position);
  }

  function submitNaming() {
    if (!naming) return;
    let named: EditedFile | { error: string };
    if (naming.mode === "extra") {
      if (!extra) return;
      named = extra(
        naming.path,
        files.map((file) => file.path),
      );
    } else {
      const path = naming.path.trim();
      const taken = files.map((file) => file.path).filter((taken) => naming.mode === "add" || taken !== active);
      const error = pathProblem(path, naming.mode === "add", files) ?? newPathProblem(path, taken);
      named = error ? { error } : { path, code: "" };
    }
    if ("error" in named) {
      setNaming({ ...naming, error: named.error });
      return;
    }
    const { path, code } = named;
    if (naming.mode === "rename")
      setFiles((current) => current.map((file) => (file.path === active ? { ...file, path } : file)));
    else setFiles((current) => [...current, { path, code }]);
    setActive(path);
    setNaming(null);
  }

  function removeActive() {
    setFiles((current) => current.filter((file) => file.path !== active));
    setActive(entry);
    setNaming(null);
  }

  return {
    files,
    entry,
    active,
    setActive,
    naming,
    setNaming,
    code,
    setCode,
    editorRef,
    formRef,
    save,
    goToProblem,
    submitNaming,
    removeActive,
  };
}

export type FileEditing = ReturnType<typeof useFileEditor>;

/** A problem's file (when there are others), line and column, then its message, as the alerts show it. */
export function ProblemText({ problem, namesFile }: { problem: Problem; namesFile: boolean }) {
  return (
    <>
      {problem.path !== undefined && namesFile && <strong>{problem.path}: </strong>}
      {problem.line !== undefined && (
        <strong>
          Line {problem.line}
          {problem.column !== undefined ? `, column ${problem.column}` : ""}:{" "}
        </strong>
      )}
      {problem.message}
    </>
  );
}

/**
 * The foot of the editor's first card: the failed save (`problem`), with a way to its line, or else what saving does
 * (`note`); then the form's own inputs (`children`) and the Save button.
 */
export function SaveFooter({
  editing,
  problem,
  note,
  submitLabel,
  children,
}: {
  editing: FileEditing;
  problem: Problem | null;
  note: string;
  submitLabel: string;
  children?: ReactNode;
}) {
  return (
    <div className="card-footer row-between">
      {problem ? (
        <div className="alert alert-danger save-problem" role="alert" data-testid="save-problem">
          <p style={{ whiteSpace: "pre-wrap" }}>
            <strong>Not saved. </strong>
            <ProblemText problem={problem} namesFile={editing.files.length > 1} />
          </p>
          {problem.line !== undefined && (
            <button type="button" className="btn btn-secondary btn-sm" onClick={() => editing.goToProblem(problem)}>
              Go to line {problem.line}
            </button>
          )}
        </div>
      ) : (
        <span className="muted small">{note}</span>
      )}
      {children}
      <SubmitButton pendingLabel="Saving…">{submitLabel}</SubmitButton>
    </div>
  );
}

/**
 * The card of the files: a tab each, buttons that add, rename and remove them, the path field, and CodeMirror with
 * the file shown (`problem` marked when it is in it); `children` follow it (the form's inputs, the hints). `idPrefix`
 * starts the ids of the tabs, their panel and the path field.
 */
export function FileEditor({
  editing,
  idPrefix = "",
  title,
  tabsLabel,
  addPath = "",
  removeLabel = "Remove file",
  pathHelp,
  extra,
  codeLabel,
  describedBy,
  problem,
  children,
}: {
  editing: FileEditing;
  idPrefix?: string;
  title: string;
  tabsLabel?: string;
  /** What the path field holds when adding a file. */
  addPath?: string;
  removeLabel?: string;
  /** The path field's hint when adding or renaming a file. */
  pathHelp: string;
  /** The button, field label and hint that add the editor's other kind of file (`useFileEditor`'s `extra`). */
  extra?: { button: string; label: string; help: string };
  codeLabel: string;
  describedBy: string;
  problem: Problem | null;
  children: ReactNode;
}) {
  const { files, entry, active, setActive, naming, setNaming, submitNaming, editorRef } = editing;
  const startNaming = (mode: Naming["mode"], path: string) => () => setNaming({ mode, path, error: null });
  // The marks belong to the file the problem is in (one file's problems name no file, or its own).
  const here = problem && (problem.path === undefined || problem.path === active) ? problem : null;
  return (
    <CardSection
      headingId="code-title"
      title={title}
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
            idPrefix={`${idPrefix}file-tab`}
            panelId={`${idPrefix}file-panel`}
            label={tabsLabel}
            onSelect={(path) => {
              setActive(path);
              setNaming(null);
            }}
          />
          <div className="row">
            {active !== entry && (
              <>
                <button type="button" className="btn btn-ghost btn-sm" onClick={startNaming("rename", active)}>
                  Rename file
                </button>
                <button type="button" className="btn btn-ghost btn-sm" onClick={editing.removeActive}>
                  {removeLabel}
                </button>
              </>
            )}
            <button type="button" className="btn btn-secondary btn-sm" onClick={startNaming("add", addPath)}>
              Add file
            </button>
            {extra && (
              <button type="button" className="btn btn-secondary btn-sm" onClick={startNaming("extra", "")}>
                {extra.button}
              </button>
            )}
          </div>
        </div>
        {naming && (
          <div className="field">
            <label className="label" htmlFor={`${idPrefix}file-path`}>
              {naming.mode === "add"
                ? "Path of the new file"
                : naming.mode === "rename"
                  ? `New path of ${active}`
                  : extra?.label}
            </label>
            <div className="row">
              <input
                id={`${idPrefix}file-path`}
                className="input code"
                value={naming.path}
                autoFocus
                spellCheck={false}
                onChange={(event) => setNaming({ ...naming, path: event.target.value, error: null })}
                onKeyDown={(event) => {
                  // Enter would submit the editor's form.
                  if (event.key === "Enter") {
                    event.preventDefault();
                    submitNaming();
                  }
                  if (event.key === "Escape") setNaming(null);
                }}
                aria-invalid={naming.error ? true : undefined}
                aria-describedby={`${idPrefix}file-path-help`}
              />
              <button type="button" className="btn btn-primary btn-sm" onClick={submitNaming}>
                {naming.mode === "rename" ? "Rename" : "Add"}
              </button>
              <button type="button" className="btn btn-ghost btn-sm" onClick={() => setNaming(null)}>
                Cancel
              </button>
            </div>
            <span id={`${idPrefix}file-path-help`} className={naming.error ? "field-error" : "hint"}>
              {naming.error ?? (naming.mode === "extra" ? extra?.help : pathHelp)}
            </span>
          </div>
        )}
        <div id={`${idPrefix}file-panel`} role="tabpanel" aria-labelledby={`${idPrefix}file-tab-${active}`}>
          <CodeEditor
            key={active}
            ref={editorRef}
            value={editing.code}
            onChange={editing.setCode}
            path={active}
            label={codeLabel}
            describedBy={describedBy}
            problem={here?.line !== undefined ? { line: here.line, column: here.column } : null}
            onSave={editing.save}
          />
        </div>
        {children}
      </div>
    </CardSection>
  );
}
