import ts from "typescript";

/**
 * A template's TSX as TypeScript's syntax tree (parsed only, never type-checked), for reading the module's structure
 * (its imports, its default export) where a text search would be fooled by comments and strings. Runs on the compile
 * workers only (sandbox/compile-worker.ts), under their deadline: TypeScript's parser is not linear on every input.
 */
export function parseTemplateSource(code: string): ts.SourceFile {
  return ts.createSourceFile("template.tsx", code, ts.ScriptTarget.Latest, false, ts.ScriptKind.TSX);
}
