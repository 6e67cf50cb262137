/**
 * Compiles an uploaded React Email template (TSX) to the CommonJS code that
 * runs inside the QuickJS sandbox (see ./index.ts). Pure string → string: the
 * code is never executed here.
 *
 *  - TypeScript and JSX (automatic runtime, `react/jsx-runtime`) are stripped
 *    by sucrase, ES imports become `require()` calls;
 *  - syntax errors are reported with a 1-based line and column;
 *  - imports other than react, react/jsx-runtime and @react-email/components
 *    (static, dynamic, re-exports, `require("x")`, TS `import x = require()`)
 *    are rejected with the position of the module specifier, as are named
 *    imports of @react-email/components exports the sandbox does not provide
 *    (Tailwind, CodeBlock, Markdown, ...);
 *  - a default export (the email component) is required;
 *  - BigInt literals are rejected (BigInt does not exist in the sandbox).
 */
import { transform } from "sucrase";
import { MAX_TEMPLATE_SOURCE_CHARS } from "../../limits";
import { parse, type SucraseToken } from "sucrase/dist/parser/index.js";
import { TokenType as TokenTypes } from "sucrase/dist/parser/tokenizer/types.js";
import { ContextualKeyword as ContextualKeywords } from "sucrase/dist/parser/tokenizer/keywords.js";
import { ALLOWED_MODULES, SANDBOX_COMPONENT_EXPORTS, UNAVAILABLE_COMPONENT_EXPORTS, isAllowedModule } from "./modules";

export type CompileResult = { ok: true; code: string } | { ok: false; message: string; line: number; column: number };

function tokenType(name: string): number {
  const value = TokenTypes[name];
  if (typeof value !== "number") throw new Error(`sucrase TokenType.${name} not found (unsupported sucrase version?)`);
  return value;
}
function contextual(name: string): number {
  const value = ContextualKeywords[name];
  if (typeof value !== "number")
    throw new Error(`sucrase ContextualKeyword.${name} not found (unsupported sucrase version?)`);
  return value;
}

const T = {
  string: tokenType("string"),
  name: tokenType("name"),
  parenL: tokenType("parenL"),
  parenR: tokenType("parenR"),
  braceL: tokenType("braceL"),
  braceR: tokenType("braceR"),
  comma: tokenType("comma"),
  dot: tokenType("dot"),
  star: tokenType("star"),
  eq: tokenType("eq"),
  semi: tokenType("semi"),
  import: tokenType("_import"),
  export: tokenType("_export"),
  default: tokenType("_default"),
  typeof: tokenType("_typeof"),
  bigint: tokenType("bigint"),
};
const K = {
  from: contextual("_from"),
  as: contextual("_as"),
  type: contextual("_type"),
  require: contextual("_require"),
};

const COMPONENTS_MODULE = "@react-email/components";
const availableComponentExports = new Set<string>(SANDBOX_COMPONENT_EXPORTS);
const allowedList = ALLOWED_MODULES.join(", ");

class CompileError extends Error {
  constructor(
    message: string,
    readonly pos: number,
  ) {
    super(message);
  }
}

function locate(source: string, pos: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(Math.max(pos, 0), source.length);
  for (let i = 0; i < end; i++) {
    if (source.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: end - lineStart + 1 };
}

/** Value of a string-literal token (module specifiers never need escapes; decode the common ones anyway). */
function stringValue(source: string, token: SucraseToken): string {
  const raw = source.slice(token.start + 1, token.end - 1);
  if (!raw.includes("\\")) return raw;
  try {
    return JSON.parse(`"${raw.replace(/"/g, '\\"').replace(/\\'/g, "'")}"`) as string;
  } catch {
    return raw;
  }
}

function isName(token: SucraseToken | undefined, keyword?: number): boolean {
  return token !== undefined && token.type === T.name && (keyword === undefined || token.contextualKeyword === keyword);
}

/** Tokens that can appear between `import`/`export` and `from` in a declaration. */
function isClauseToken(token: SucraseToken): boolean {
  return (
    token.type === T.name ||
    token.type === T.comma ||
    token.type === T.braceL ||
    token.type === T.braceR ||
    token.type === T.star ||
    token.type === T.default ||
    token.type === T.string ||
    token.type === T.typeof
  );
}

/** Index of the `import`/`export` keyword starting the declaration whose `from "x"` ends at `fromIndex`, or -1. */
function declarationStart(tokens: SucraseToken[], fromIndex: number): number {
  for (let i = fromIndex - 1; i >= 0; i--) {
    const token = tokens[i]!;
    if (token.type === T.import || token.type === T.export) return i;
    if (!isClauseToken(token)) return -1;
  }
  return -1;
}

function checkComponentNames(source: string, tokens: SucraseToken[], start: number, fromIndex: number): void {
  let i = start + 1;
  if (isName(tokens[i], K.type) && !isName(tokens[i + 1], K.from)) return; // `import type {...}`: erased
  while (i < fromIndex && tokens[i]!.type !== T.braceL) i++;
  if (i >= fromIndex) return; // default or namespace import only
  i++;
  while (i < fromIndex && tokens[i]!.type !== T.braceR) {
    const first = tokens[i]!;
    const second = tokens[i + 1];
    // `type X` inside the braces is a type-only specifier (erased): skip it.
    const typeOnly = isName(first, K.type) && (isName(second) || second?.type === T.string);
    if (!typeOnly && (first.type === T.name || first.type === T.string)) {
      const imported = first.type === T.string ? stringValue(source, first) : source.slice(first.start, first.end);
      if (!availableComponentExports.has(imported)) {
        const reason =
          UNAVAILABLE_COMPONENT_EXPORTS[imported] ??
          `"${imported}" is not exported by @react-email/components in the template sandbox (available: ${SANDBOX_COMPONENT_EXPORTS.join(", ")})`;
        throw new CompileError(reason, first.start);
      }
    }
    while (i < fromIndex && tokens[i]!.type !== T.comma && tokens[i]!.type !== T.braceR) i++;
    if (tokens[i]?.type === T.comma) i++;
  }
}

function rejectModule(source: string, token: SucraseToken): never {
  const specifier = stringValue(source, token);
  throw new CompileError(
    `Import of "${specifier}" is not allowed: templates may only import ${allowedList}`,
    token.start,
  );
}

function checkImports(source: string, tokens: SucraseToken[]): void {
  let hasDefaultExport = false;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    const prev = tokens[i - 1];

    if (token.type === T.default && prev && (prev.type === T.export || isName(prev, K.as))) {
      hasDefaultExport = true;
    }

    // BigInt is removed from the sandbox (its operators cannot be interrupted).
    if (token.type === T.bigint) {
      throw new CompileError("BigInt literals are not supported in templates", token.start);
    }

    // import(...) and import.meta
    if (token.type === T.import) {
      const next = tokens[i + 1];
      if (next?.type === T.dot) {
        throw new CompileError("import.meta is not available in templates", token.start);
      }
      if (next?.type === T.parenL) {
        const arg = tokens[i + 2];
        if (arg?.type !== T.string || tokens[i + 3]?.type !== T.parenR) {
          throw new CompileError(
            `Dynamic import() needs a string literal; templates may only import ${allowedList}`,
            token.start,
          );
        }
        if (!isAllowedModule(stringValue(source, arg))) rejectModule(source, arg);
      }
      continue;
    }

    // require("x") (including TS `import x = require("x")`)
    if (isName(token, K.require) && tokens[i + 1]?.type === T.parenL && prev?.type !== T.dot) {
      const arg = tokens[i + 2];
      if (arg?.type === T.string && tokens[i + 3]?.type === T.parenR && !isAllowedModule(stringValue(source, arg))) {
        rejectModule(source, arg);
      }
      continue;
    }

    if (token.type !== T.string || !prev) continue;

    // import "x";
    if (prev.type === T.import) {
      if (!isAllowedModule(stringValue(source, token))) rejectModule(source, token);
      continue;
    }

    // import ... from "x" / export ... from "x"
    if (isName(prev, K.from)) {
      const start = declarationStart(tokens, i - 1);
      if (start < 0) continue;
      const specifier = stringValue(source, token);
      if (!isAllowedModule(specifier)) rejectModule(source, token);
      if (specifier === COMPONENTS_MODULE) checkComponentNames(source, tokens, start, i - 1);
    }
  }
  if (!hasDefaultExport) {
    throw new CompileError(
      "The template must have a default export: the email component (e.g. `export default function Email(props) { ... }`)",
      0,
    );
  }
}

function failure(source: string, message: string, pos: number): CompileResult {
  const { line, column } = locate(source, pos);
  return { ok: false, message, line, column };
}

/** The failure of a source past MAX_TEMPLATE_SOURCE_CHARS, or null. */
export function oversizedSource(tsx: string): (CompileResult & { ok: false }) | null {
  if (tsx.length <= MAX_TEMPLATE_SOURCE_CHARS) return null;
  return {
    ok: false,
    message: `Template source is larger than ${MAX_TEMPLATE_SOURCE_CHARS} characters`,
    line: 1,
    column: 1,
  };
}

/**
 * Runs sucrase on the calling thread, for as long as the source makes it take (nested arrow-function parameters make
 * that exponential): the server calls it only on a worker, through compile-pool.ts.
 */
export function compileTemplate(tsx: string): CompileResult {
  if (typeof tsx !== "string") return { ok: false, message: "Template source must be a string", line: 1, column: 1 };
  const oversized = oversizedSource(tsx);
  if (oversized) return oversized;

  let tokens: SucraseToken[];
  try {
    tokens = parse(tsx, true, true, false).tokens;
  } catch (error) {
    return syntaxFailure(tsx, error);
  }
  try {
    checkImports(tsx, tokens);
  } catch (error) {
    if (error instanceof CompileError) return failure(tsx, error.message, error.pos);
    throw error;
  }

  try {
    const { code } = transform(tsx, {
      transforms: ["typescript", "jsx", "imports"],
      jsxRuntime: "automatic",
      production: true,
      filePath: "template.tsx",
    });
    return { ok: true, code };
  } catch (error) {
    return syntaxFailure(tsx, error);
  }
}

function syntaxFailure(source: string, error: unknown): CompileResult {
  const err = error as { message?: unknown; pos?: unknown; loc?: { line?: unknown; column?: unknown } };
  const rawMessage = typeof err?.message === "string" ? err.message : String(error);
  // sucrase appends " (line:column)" to the message; report it separately.
  const message = `Syntax error: ${rawMessage.replace(/\s*\(\d+:\d+\)$/, "")}`;
  if (typeof err?.pos === "number") return failure(source, message, err.pos);
  if (err?.loc && typeof err.loc.line === "number" && typeof err.loc.column === "number") {
    return { ok: false, message, line: err.loc.line, column: err.loc.column };
  }
  return { ok: false, message, line: 1, column: 1 };
}
