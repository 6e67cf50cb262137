"use client";
import Link from "next/link";
import { useActionState, useMemo, useState } from "react";
import { MAX_TEMPLATE_DESCRIPTION_CHARS, MAX_TEMPLATE_FILES } from "@/lib/core/limits";
import { messagesTag } from "@/lib/templates/files";
import { FormField } from "../../_components/form-field";
import { FileEditor, SaveFooter, useFileEditor, type EditedFile, type Problem } from "../_components/file-editor";
import type { ComponentEditorState } from "./actions";
import { TemplateNamed, type UsedBy } from "./template-named";

/** A saved component opened in the editor: `files` in tab order, the entry first. */
export type EditedComponent = { name: string; description: string; version: number };

/** A component's own path rules: its files are code only, as many as a template's. */
function componentPathProblem(path: string, adding: boolean, files: EditedFile[]): string | null {
  if (adding && files.length >= MAX_TEMPLATE_FILES) return `A component holds at most ${MAX_TEMPLATE_FILES} files.`;
  if (messagesTag(path) !== null)
    return "A component holds code files only: its text comes from the templates, as props.";
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
  files: EditedFile[];
  component?: EditedComponent;
  usedBy?: UsedBy;
}) {
  const [state, action] = useActionState<ComponentEditorState, FormData>(saveAction, { status: "idle" });
  const editing = useFileEditor({ files: initialFiles, saved: state, pathProblem: componentPathProblem });
  const { files, entry, formRef } = editing;
  // Serialised once per change of the files, not at every render: the sources may hold 500,000 characters.
  const filesJson = useMemo(
    () => JSON.stringify(Object.fromEntries(files.map((file) => [file.path, file.code]))),
    [files],
  );
  const [submittedFiles, setSubmittedFiles] = useState<string | null>(null);

  const saveError = state.status === "error" ? state : null;
  // A failed save's compile error holds while the files are as saved; its other errors until the next save.
  const saveProblem: Problem | null =
    saveError && !saveError.broken && (saveError.line === undefined || filesJson === submittedFiles)
      ? { message: saveError.message ?? "", line: saveError.line, column: saveError.column, path: saveError.path }
      : null;

  return (
    <form ref={formRef} action={action} onSubmit={() => setSubmittedFiles(filesJson)} className="stack">
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
        <SaveFooter
          editing={editing}
          problem={saveProblem}
          note={
            component
              ? `Saving compiles it as version ${component.version + 1}, then every template whose published version imports it, checks each renders, and publishes them again with it; if one fails, nothing is saved.`
              : "Saving compiles its files and adds it as version 1: templates then import it by its name."
          }
          submitLabel={component ? "Save new version" : "Save component"}
        >
          {component && <input type="hidden" name="version" value={component.version} />}
        </SaveFooter>
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

      <FileEditor
        editing={editing}
        idPrefix="component-"
        title="Code (TSX)"
        tabsLabel="Files of the component"
        pathHelp="A relative path ending in .tsx, .ts, .jsx or .js, e.g. legal.tsx. Import it from another file of the component by its relative path: ./legal."
        codeLabel="Component source code"
        describedBy="component-code-help"
        problem={saveProblem}
      >
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
      </FileEditor>
    </form>
  );
}
