import path from "node:path";
import ts from "typescript";

const root = path.resolve(import.meta.dirname, "../..");

const { options } = ts.parseJsonConfigFileContent(
  ts.readConfigFile(path.join(root, "tsconfig.json"), ts.sys.readFile).config,
  ts.sys,
  root,
);
const compilerOptions = { ...options, incremental: false, noEmit: true };
// The standard library and the packages parse once for every program of the file.
const parsed = new Map<string, ts.SourceFile>();

/**
 * Each file's type errors (`TS<code>: <message>`), by its name, compiled with the repository's tsconfig.json in one
 * program as files of `folder` (under the repository's root): kept in memory, they import "letterpress" as a file of
 * this repository does.
 */
export function typeErrors(folder: string, files: Record<string, string>): Record<string, string[]> {
  const virtual = new Map(Object.entries(files).map(([name, text]) => [path.join(root, folder, name), text]));
  const host = ts.createCompilerHost(compilerOptions);
  const readFile = host.readFile;
  host.fileExists = (name) => virtual.has(name) || ts.sys.fileExists(name);
  host.readFile = (name) => virtual.get(name) ?? readFile(name);
  host.getSourceFile = (name, language) => {
    const text = virtual.get(name);
    if (text !== undefined) return ts.createSourceFile(name, text, language);
    if (!parsed.has(name)) parsed.set(name, ts.createSourceFile(name, readFile(name)!, language));
    return parsed.get(name);
  };
  const program = ts.createProgram([...virtual.keys()], compilerOptions, host);
  return Object.fromEntries(
    [...virtual.keys()].map((name) => [
      path.basename(name),
      ts
        .getPreEmitDiagnostics(program, program.getSourceFile(name))
        .map(({ code, messageText }) => `TS${code}: ${ts.flattenDiagnosticMessageText(messageText, "\n")}`),
    ]),
  );
}
