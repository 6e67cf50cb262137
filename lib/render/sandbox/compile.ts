/**
 * Compiles an uploaded React Email template (TSX) to the CommonJS code that
 * runs inside the QuickJS sandbox (see ./index.ts). Pure string → string: the
 * code is never executed here.
 *
 *  - TypeScript and JSX (automatic runtime, `react/jsx-runtime`) are stripped
 *    by sucrase, ES imports become `require()` calls;
 *  - syntax errors are reported with a 1-based line and column;
 *  - imports other than react, react/jsx-runtime and @react-email/components
 *    (static, dynamic, re-exports, `require("x")`, TS `import x = require()`,
 *    type-only) are rejected with the position of the module specifier, as
 *    are named imports of @react-email/components exports the sandbox does
 *    not provide (Tailwind, CodeBlock, Markdown, ...);
 *  - a default export (the email component) is required;
 *  - BigInt literals are rejected (BigInt does not exist in the sandbox).
 *
 * The rules are checked on TypeScript's syntax tree of the source
 * (../template-syntax.ts), from which the variables schema is derived too
 * (../props-schema.ts).
 */
import { transform } from "sucrase";
import ts from "typescript";
import type { VariablesSchema } from "../../schemas/variables";
import { deriveVariablesSchema } from "../props-schema";
import { parseTemplateSource } from "../template-syntax";
import { oversizedSource, type CompileResult } from "./compile-result";
import { ALLOWED_MODULES, SANDBOX_COMPONENT_EXPORTS, UNAVAILABLE_COMPONENT_EXPORTS, isAllowedModule } from "./modules";

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

function rejectModule(file: ts.SourceFile, specifier: ts.StringLiteral): never {
  throw new CompileError(
    `Import of "${specifier.text}" is not allowed: templates may only import ${allowedList}`,
    specifier.getStart(file),
  );
}

/** The module specifier of an import or re-export, checked; type-only imports are checked too, for one rule. */
function checkSpecifier(file: ts.SourceFile, specifier: ts.Expression | undefined): void {
  if (specifier && ts.isStringLiteral(specifier) && !isAllowedModule(specifier.text)) rejectModule(file, specifier);
}

/** Named imports or re-exports of @react-email/components that the sandbox does not provide. */
function checkComponentNames(
  file: ts.SourceFile,
  specifier: ts.Expression | undefined,
  typeOnly: boolean,
  names: ts.NamedImportBindings | ts.NamedExportBindings | undefined,
): void {
  if (!specifier || !ts.isStringLiteral(specifier) || specifier.text !== COMPONENTS_MODULE || typeOnly) return;
  if (!names || !(ts.isNamedImports(names) || ts.isNamedExports(names))) return; // default or namespace import
  for (const element of names.elements) {
    if (element.isTypeOnly) continue; // erased
    const imported = element.propertyName ?? element.name;
    if (!availableComponentExports.has(imported.text)) {
      const reason =
        UNAVAILABLE_COMPONENT_EXPORTS[imported.text] ??
        `"${imported.text}" is not exported by @react-email/components in the template sandbox (available: ${SANDBOX_COMPONENT_EXPORTS.join(", ")})`;
      throw new CompileError(reason, imported.getStart(file));
    }
  }
}

/** `export default function/class …`, `export default <expression>`, or `export { x as default }`. */
function isDefaultExport(statement: ts.Statement): boolean {
  if (ts.isExportAssignment(statement)) return !statement.isExportEquals;
  if (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) {
    return ts.getModifiers(statement)?.some((modifier) => modifier.kind === ts.SyntaxKind.DefaultKeyword) ?? false;
  }
  return (
    ts.isExportDeclaration(statement) &&
    !statement.isTypeOnly &&
    statement.exportClause !== undefined &&
    ts.isNamedExports(statement.exportClause) &&
    statement.exportClause.elements.some((element) => !element.isTypeOnly && element.name.text === "default")
  );
}

/** The first rule the module breaks, in source order, as a CompileError. */
function checkModule(file: ts.SourceFile): void {
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) {
      checkSpecifier(file, node.moduleSpecifier);
      const clause = node.importClause;
      checkComponentNames(file, node.moduleSpecifier, clause?.isTypeOnly ?? false, clause?.namedBindings);
    } else if (ts.isExportDeclaration(node)) {
      checkSpecifier(file, node.moduleSpecifier);
      checkComponentNames(file, node.moduleSpecifier, node.isTypeOnly, node.exportClause);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      checkSpecifier(file, node.moduleReference.expression); // import x = require("x")
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      checkSpecifier(file, node.argument.literal); // typeof import("x")
    } else if (ts.isMetaProperty(node) && node.keywordToken === ts.SyntaxKind.ImportKeyword) {
      throw new CompileError("import.meta is not available in templates", node.getStart(file));
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [specifier, ...rest] = node.arguments;
      if (!specifier || !ts.isStringLiteral(specifier) || rest.length > 0) {
        throw new CompileError(
          `Dynamic import() needs a string literal; templates may only import ${allowedList}`,
          node.getStart(file),
        );
      }
      checkSpecifier(file, specifier);
    } else if (
      (ts.isCallExpression(node) || ts.isNewExpression(node)) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === "require" &&
      node.arguments?.length === 1
    ) {
      checkSpecifier(file, node.arguments[0]); // require("x"); a computed name fails in the sandbox's require
    } else if (ts.isBigIntLiteral(node)) {
      // BigInt is removed from the sandbox (its operators cannot be interrupted).
      throw new CompileError("BigInt literals are not supported in templates", node.getStart(file));
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  if (!file.statements.some(isDefaultExport)) {
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

/**
 * Compiles on the calling thread, for as long as the source makes it take (sucrase's parse time is exponential in
 * nested arrow-function parameters, TypeScript's grows faster than the source too): the server calls it only on a
 * worker, through compile-pool.ts.
 */
export function compileTemplate(tsx: string): CompileResult {
  if (typeof tsx !== "string") return { ok: false, message: "Template source must be a string", line: 1, column: 1 };
  const oversized = oversizedSource(tsx);
  if (oversized) return oversized;

  // sucrase stops at the first syntax error and says where; TypeScript's parser recovers from errors, so it reads
  // the module's structure only once the source is known to be valid.
  let code: string;
  try {
    code = transform(tsx, {
      transforms: ["typescript", "jsx", "imports"],
      jsxRuntime: "automatic",
      production: true,
      filePath: "template.tsx",
    }).code;
  } catch (error) {
    return syntaxFailure(tsx, error);
  }
  let variables: VariablesSchema | null;
  try {
    const file = parseTemplateSource(tsx);
    checkModule(file);
    variables = deriveVariablesSchema(file);
  } catch (error) {
    if (error instanceof CompileError) return failure(tsx, error.message, error.pos);
    if (error instanceof RangeError) return syntaxFailure(tsx, error); // nested deeper than the parser's stack
    throw error;
  }
  return { ok: true, code, variables };
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
