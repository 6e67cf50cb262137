import {
  MAX_LOCALE_CHARS,
  MAX_MESSAGES_FILE_BYTES,
  MAX_TEMPLATE_FILES,
  MAX_TEMPLATE_LOCALES,
  MAX_TEMPLATE_PATH_CHARS,
  MAX_TEMPLATE_SOURCE_CHARS,
} from "../core/limits";

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

/** A template's messages for one locale: `messages/<tag>.json` at its root, `<tag>` a BCP 47 tag as canonically written. */
const MESSAGES_PATH = /^messages\/([^/]+)\.json$/;

/** The locale of a messages file (`messages/pt-BR.json` → `pt-BR`), or null for any other path. */
export function messagesTag(path: string): string | null {
  return MESSAGES_PATH.exec(path)?.[1] ?? null;
}

/** The path of a locale's messages. */
export const messagesPath = (tag: string) => `messages/${tag}.json`;

// A localized render or send asks for seven (its `locale`, checked and resolved, and each of the template's tags), at
// 1.5-2 µs each in ICU: the answers are kept by the tag's text, which alone decides them, up to a bound (1,000 tags
// of at most MAX_LOCALE_CHARS).
const canonicalTags = new Map<string, string | null>();
export const MAX_KEPT_CANONICAL_TAGS = 1000;

/** The tag as Intl writes it (`pt-br` → `pt-BR`), or null when it is no well-formed BCP 47 tag. */
export function canonicalTag(tag: string): string | null {
  const kept = canonicalTags.get(tag);
  if (kept !== undefined) return kept;
  let canonical: string | null;
  try {
    canonical = Intl.getCanonicalLocales(tag)[0] ?? null;
  } catch {
    canonical = null;
  }
  if (tag.length > MAX_LOCALE_CHARS) return canonical; // refused anyway: never kept
  if (canonicalTags.size >= MAX_KEPT_CANONICAL_TAGS) canonicalTags.clear();
  canonicalTags.set(tag, canonical);
  return canonical;
}

/** Why a `locale` is refused: the render and send schemas' message, and resolveLocale's (./messages.ts). */
export const LOCALE_MESSAGE = "locale must be a BCP 47 language tag (en, fr-CA, pt-BR)";

/** Why a `.json` path cannot be a template's file, or null: only `messages/<tag>.json`, the tag written canonically. */
function jsonPathProblem(path: string): string | null {
  const tag = messagesTag(path);
  if (tag === null)
    return "must be messages/<tag>.json (<tag> a BCP 47 language tag: en, fr, pt-BR): no other .json file";
  const canonical = canonicalTag(tag);
  if (canonical === null) return `names no BCP 47 language tag (${JSON.stringify(tag)}): write en, fr, pt-BR, zh-Hant`;
  if (canonical !== tag) return `must write its tag as ${canonical}: messages/${canonical}.json`;
  return null;
}

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
 * character, or it is `messages/<tag>.json`. A backslash is refused rather than read as a separator.
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
  if (name.endsWith(".json")) return jsonPathProblem(path);
  const extension = TEMPLATE_FILE_EXTENSIONS.find((candidate) => name.endsWith(candidate));
  if (!extension) return `must end in ${TEMPLATE_FILE_EXTENSIONS.join(", ")}`;
  if (name.length === extension.length) return `needs a name before ${extension}`;
  return null;
}

/**
 * Every problem with a template's files and entry: the count of code files (1 to MAX_TEMPLATE_FILES) and of locales'
 * messages (at most MAX_TEMPLATE_LOCALES, each at most MAX_MESSAGES_FILE_BYTES), each path, the code in all (at most
 * MAX_TEMPLATE_SOURCE_CHARS characters), and the entry (one of the code files).
 */
export function templateFilesProblems(files: TemplateFiles, entry: string | undefined): TemplateFilesProblem[] {
  const paths = Object.keys(files);
  const messages = paths.filter((path) => messagesTag(path) !== null);
  const code = paths.length - messages.length;
  const problems: TemplateFilesProblem[] = [];
  if (code === 0) problems.push({ field: "files", message: "must hold at least one file" });
  if (code > MAX_TEMPLATE_FILES) {
    problems.push({ field: "files", message: `must hold at most ${MAX_TEMPLATE_FILES} files (it holds ${code})` });
    return problems;
  }
  if (messages.length > MAX_TEMPLATE_LOCALES) {
    problems.push({
      field: "files",
      message: `must hold messages for at most ${MAX_TEMPLATE_LOCALES} locales (it holds ${messages.length})`,
    });
    return problems;
  }
  let characters = 0;
  for (const path of paths) {
    const problem = templatePathProblem(path) ?? (messagesTag(path) === null ? null : messagesSizeProblem(files[path]));
    if (problem) problems.push({ field: `files.${path}`, message: problem, path });
    if (messagesTag(path) === null) characters += files[path].length;
  }
  if (characters > MAX_TEMPLATE_SOURCE_CHARS) {
    problems.push({
      field: "files",
      message: `must hold at most ${MAX_TEMPLATE_SOURCE_CHARS.toLocaleString("en-US")} characters of source in all (they hold ${characters.toLocaleString("en-US")})`,
    });
  }
  if (paths.length > 0 && problems.length === 0) {
    const chosen = entry ?? defaultEntry(files);
    if (!Object.hasOwn(files, chosen) || messagesTag(chosen) !== null) {
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

function messagesSizeProblem(content: string): string | null {
  // A UTF-16 unit is at most 3 bytes of UTF-8: most files are measured without encoding them.
  if (content.length * 3 <= MAX_MESSAGES_FILE_BYTES) return null;
  const bytes = new TextEncoder().encode(content).length;
  return bytes > MAX_MESSAGES_FILE_BYTES
    ? `must be at most ${MAX_MESSAGES_FILE_BYTES / 1024} KB (it is ${bytes.toLocaleString("en-US")} bytes)`
    : null;
}

/** The entry of a template that names none: its only code file, else email.tsx. */
export function defaultEntry(files: TemplateFiles): string {
  const paths = Object.keys(files).filter((path) => messagesTag(path) === null);
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
