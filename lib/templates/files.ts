import { MAX_TEMPLATE_FILES, MAX_TEMPLATE_PATH_CHARS, MAX_TEMPLATE_SOURCE_CHARS } from "../core/limits";

// The files of a user's template (POST/PUT /templates, the admin CLI): which paths are allowed, and which file is the
// entry. Every check here is one pass over the characters, on the event loop before anything is compiled.

/** `{ "<path>": "<source>" }`: the template's files by their relative path. */
export type TemplateFiles = Record<string, string>;

/** The extensions a file may have, in the order an import without one tries them. */
export const TEMPLATE_FILE_EXTENSIONS = [".tsx", ".ts", ".jsx", ".js"] as const;

/** The entry when a template has several files and names none. */
export const DEFAULT_ENTRY = "email.tsx";

/** The path a template of one file is compiled (and edited) under. */
export const SINGLE_FILE = "template.tsx";

/** A problem with the files, by the body's field: `files`, `files.<path>` (with that `path`) or `entry`. */
export type TemplateFilesProblem = { field: string; message: string; path?: string };

const isPathCharacter = (code: number) =>
  (code >= 0x61 && code <= 0x7a) || // a-z
  (code >= 0x41 && code <= 0x5a) || // A-Z
  (code >= 0x30 && code <= 0x39) || // 0-9
  code === 0x2d || // -
  code === 0x5f || // _
  code === 0x2e || // .
  code === 0x40 || // @
  code === 0x2f; // /

/**
 * Why `path` cannot name a file of a template, or null. A path is 1 to MAX_TEMPLATE_PATH_CHARS characters of ASCII
 * letters, digits, `-`, `_`, `.`, `@` and `/`; it is relative (no leading `/`), its folder names are not empty, `.` or
 * `..` (so it never leaves the template), and its file name ends in .tsx, .ts, .jsx or .js after at least one
 * character. A backslash is refused rather than read as a separator.
 */
export function templatePathProblem(path: string): string | null {
  if (path.length === 0) return "is empty: name the file, e.g. email.tsx";
  if (path.length > MAX_TEMPLATE_PATH_CHARS) return `is longer than ${MAX_TEMPLATE_PATH_CHARS} characters`;
  for (let i = 0; i < path.length; i++) {
    const code = path.charCodeAt(i);
    if (code === 0x5c) return "must separate folders with /, not \\";
    if (!isPathCharacter(code)) {
      return `may hold only letters, digits, -, _, ., @ and / (not ${JSON.stringify(String.fromCodePoint(path.codePointAt(i)!))})`;
    }
  }
  if (path.charCodeAt(0) === 0x2f) return "must be relative: no leading /";
  const segments = path.split("/");
  for (const segment of segments) {
    if (segment === "") return "has an empty folder name (// or a trailing /)";
    if (segment === "..") return "must not contain .. (a template's files stay inside it)";
    if (segment === ".")
      return "must not contain . as a folder name (write components/footer.tsx, not ./components/footer.tsx)";
  }
  const name = segments[segments.length - 1];
  const extension = TEMPLATE_FILE_EXTENSIONS.find((candidate) => name.endsWith(candidate));
  if (!extension) return `must end in ${TEMPLATE_FILE_EXTENSIONS.join(", ")}`;
  if (name.length === extension.length) return `needs a name before ${extension}`;
  return null;
}

/**
 * Every problem with a template's files and entry: the count (1 to MAX_TEMPLATE_FILES), each path, the source in all
 * (at most MAX_TEMPLATE_SOURCE_CHARS characters), and the entry (one of the files).
 */
export function templateFilesProblems(files: TemplateFiles, entry: string | undefined): TemplateFilesProblem[] {
  const paths = Object.keys(files);
  const problems: TemplateFilesProblem[] = [];
  if (paths.length === 0) problems.push({ field: "files", message: "must hold at least one file" });
  if (paths.length > MAX_TEMPLATE_FILES) {
    problems.push({
      field: "files",
      message: `must hold at most ${MAX_TEMPLATE_FILES} files (it holds ${paths.length})`,
    });
    return problems;
  }
  let characters = 0;
  for (const path of paths) {
    const problem = templatePathProblem(path);
    if (problem) problems.push({ field: `files.${path}`, message: problem, path });
    characters += files[path].length;
  }
  if (characters > MAX_TEMPLATE_SOURCE_CHARS) {
    problems.push({
      field: "files",
      message: `must hold at most ${MAX_TEMPLATE_SOURCE_CHARS.toLocaleString("en-US")} characters of source in all (they hold ${characters.toLocaleString("en-US")})`,
    });
  }
  if (paths.length > 0 && problems.length === 0) {
    const chosen = entry ?? defaultEntry(files);
    if (!Object.hasOwn(files, chosen)) {
      problems.push({
        field: "entry",
        message:
          entry === undefined
            ? `is required when none of the files is ${DEFAULT_ENTRY}`
            : `must be one of the files (${JSON.stringify(entry)} is not)`,
      });
    }
  }
  return problems;
}

/** The entry of a template that names none: its only file, else email.tsx. */
export function defaultEntry(files: TemplateFiles): string {
  const paths = Object.keys(files);
  return paths.length === 1 ? paths[0] : DEFAULT_ENTRY;
}

/**
 * A template's files in the order the dashboard shows and zips them: the entry first, then the others as `files`
 * holds them.
 */
export function filesEntryFirst(files: TemplateFiles, entry: string): { path: string; content: string }[] {
  return [
    { path: entry, content: files[entry] },
    ...Object.entries(files)
      .filter(([path]) => path !== entry)
      .map(([path, content]) => ({ path, content })),
  ];
}
