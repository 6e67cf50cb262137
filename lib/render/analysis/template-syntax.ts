import ts from "typescript";
import { SINGLE_FILE } from "../../templates/files";

/**
 * A template's TSX as TypeScript's syntax tree (parsed only, never type-checked), for reading the module's structure
 * (its imports, its default export) where a text search would be fooled by comments and strings. Runs on the compile
 * workers only (sandbox/compile-worker.ts), under their deadline: TypeScript's parser is not linear on every input.
 */
export function parseTemplateSource(code: string, path = SINGLE_FILE): ts.SourceFile {
  return ts.createSourceFile(path, code, ts.ScriptTarget.Latest, false, scriptKind(path));
}

/** A file of a template is read as its extension says (lib/templates/files.ts allows these four). */
function scriptKind(path: string): ts.ScriptKind {
  if (path.endsWith(".ts")) return ts.ScriptKind.TS;
  if (path.endsWith(".jsx")) return ts.ScriptKind.JSX;
  if (path.endsWith(".js")) return ts.ScriptKind.JS;
  return ts.ScriptKind.TSX;
}
