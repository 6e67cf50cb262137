"use client";
import { javascript, tsxLanguage } from "@codemirror/lang-javascript";
import { json, jsonParseLinter } from "@codemirror/lang-json";
import { linter, lintGutter } from "@codemirror/lint";
import CodeMirror, {
  Decoration,
  EditorView,
  keymap,
  StateEffect,
  StateField,
  type DecorationSet,
  type EditorState,
  type ReactCodeMirrorRef,
} from "@uiw/react-codemirror";
import { useEffect, useImperativeHandle, useMemo, useRef, type Ref } from "react";

/** Where a compile error is, 1-based as the compiler reports it. */
export type CodePosition = { line: number; column?: number };

export type CodeEditorHandle = { goTo: (position: CodePosition) => void };

const setProblem = StateEffect.define<CodePosition | null>();

/** The problem's line and character, marked; the marks follow edits until the next compile says where it is now. */
const problemMarks = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(marks, transaction) {
    let next = marks.map(transaction.changes);
    for (const effect of transaction.effects) {
      if (effect.is(setProblem)) next = marksFor(transaction.state, effect.value);
    }
    return next;
  },
  provide: (field) => EditorView.decorations.from(field),
});

function offsetOf(state: EditorState, position: CodePosition): number {
  const line = state.doc.line(Math.min(Math.max(position.line, 1), state.doc.lines));
  return Math.min(line.from + Math.max((position.column ?? 1) - 1, 0), line.to);
}

function marksFor(state: EditorState, problem: CodePosition | null): DecorationSet {
  if (!problem) return Decoration.none;
  const at = offsetOf(state, problem);
  const line = state.doc.lineAt(at);
  const marks = [Decoration.line({ class: "cm-problem-line" }).range(line.from)];
  if (at < line.to) marks.push(Decoration.mark({ class: "cm-problem-at" }).range(at, at + 1));
  return Decoration.set(marks, true);
}

const tsxSupport = [
  // TSX as javascript({ jsx: true, typescript: true }) reads it, without its autoCloseTags: that inserts `</Text>` on
  // typing `>` or `</`, a tag the author did not type (`</Text>` typed by hand became `</Text>Text>`, which compiles
  // and shows "Text>" in the email). Keywords and snippets stay, offered only as suggestions.
  tsxLanguage,
  javascript({ typescript: true }).support,
];

// A locale's messages: JSON, its syntax errors underlined and in the gutter as they are typed, before any save (the
// ICU messages inside are checked by the preview and the save, which name the key).
const jsonSupport = [json(), linter(jsonParseLinter(), { delay: 300 }), lintGutter()];

/** Whether a file is edited as JSON (a locale's `messages/<tag>.json`) rather than TSX. */
export const isJsonPath = (path: string) => path.endsWith(".json");

/**
 * The template's files editor: CodeMirror 6 with TypeScript and JSX highlighting (no closing tags typed for the
 * author), or JSON's for a `.json` `path`, with its syntax errors marked inline; line numbers, the compile error's
 * line and character marked (its message is shown by the caller), Mod-S to save. Tab indents; Escape then Tab leaves.
 * `onSave` should keep its identity across renders: a new one reconfigures the editor.
 */
export function CodeEditor({
  value,
  onChange,
  path,
  label,
  describedBy,
  problem,
  onSave,
  ref,
}: {
  value: string;
  onChange: (value: string) => void;
  /** The file's path: its extension chooses the language. */
  path: string;
  label: string;
  describedBy?: string;
  problem: CodePosition | null;
  onSave?: () => void;
  ref?: Ref<CodeEditorHandle>;
}) {
  const editor = useRef<ReactCodeMirrorRef>(null);

  const invalid = problem !== null;
  const jsonFile = isJsonPath(path);
  const extensions = useMemo(
    () => [
      ...(jsonFile ? jsonSupport : tsxSupport),
      problemMarks,
      // A long line wraps in the pane rather than running past its edge.
      EditorView.lineWrapping,
      keymap.of([
        {
          key: "Mod-s",
          preventDefault: true,
          run: () => {
            onSave?.();
            return true;
          },
        },
      ]),
      EditorView.contentAttributes.of({
        // Editable text is a tab stop anyway; said outright, checkers (axe's scrollable-region-focusable) see that the
        // scrolling editor can be reached by keyboard too.
        tabindex: "0",
        "aria-label": label,
        ...(describedBy ? { "aria-describedby": describedBy } : {}),
        ...(invalid ? { "aria-invalid": "true" } : {}),
      }),
    ],
    [jsonFile, label, describedBy, invalid, onSave],
  );

  const line = problem?.line;
  const column = problem?.column;
  useEffect(() => {
    editor.current?.view?.dispatch({
      effects: setProblem.of(line === undefined ? null : { line, column }),
    });
  }, [line, column]);

  useImperativeHandle(
    ref,
    () => ({
      goTo(position) {
        const view = editor.current?.view;
        if (!view) return;
        const at = offsetOf(view.state, position);
        view.dispatch({ selection: { anchor: at }, effects: EditorView.scrollIntoView(at, { y: "center" }) });
        view.focus();
      },
    }),
    [],
  );

  return (
    <CodeMirror
      ref={editor}
      className="code-editor-cm"
      value={value}
      onChange={onChange}
      extensions={extensions}
      theme="dark"
      height="560px"
      basicSetup={{ lineNumbers: true, foldGutter: true, highlightActiveLine: true }}
      onCreateEditor={(view) => {
        if (line !== undefined) view.dispatch({ effects: setProblem.of({ line, column }) });
      }}
    />
  );
}
