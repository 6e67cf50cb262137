/**
 * Compiles an uploaded React Email template (TSX) to the CommonJS code that
 * runs inside the QuickJS sandbox (see ./index.ts). Pure string → string: the
 * code is never executed here.
 *
 *  - TypeScript and JSX (automatic runtime, `react/jsx-runtime`) are stripped
 *    by sucrase, ES imports become `require()` calls;
 *  - syntax errors are reported with a 1-based line and column, a JSX tag left
 *    unclosed or closed by another tag's closer at the place tsc names
 *    (./tag-errors.ts);
 *  - imports other than react, react/jsx-runtime, @react-email/components,
 *    next-intl, use-intl, use-intl/core (all three use-intl/core's exports),
 *    the account's shared components (`@components/<name>`, given to the
 *    compile: each is compiled and linked in, its files under
 *    `/components/<name>/`, a path no template file can have) and the
 *    template's own files by relative path (static, dynamic, re-exports,
 *    `require("x")`, TS `import x = require()`, type-only) are rejected with
 *    the position of the module specifier, as are named imports of
 *    @react-email/components exports the sandbox does not provide (CodeBlock,
 *    Markdown, ...);
 *  - `<Tailwind>`'s config must be static, and the words of every string
 *    literal are kept as the classes Tailwind may have to style
 *    (./tailwind-usage.ts);
 *  - the entry file needs a default export (the email component);
 *  - a template of several files becomes one module graph (./link-modules.ts);
 *  - BigInt literals are rejected (BigInt does not exist in the sandbox);
 *  - a `.json` file is a module whose exports are the parsed value (as Node's
 *    require gives it), parsed here and embedded as JSON text that the sandbox
 *    parses, never as code; besides string literals, a dynamic import may name
 *    JSON files by a template literal of a folder and `.json` (`import(\`./messages/${locale}.json\`)`): every file
 *    of that folder ending in `.json` is linked, and at run time a name that is none of them rejects the import.
 *
 * The rules are checked on TypeScript's syntax tree of the source
 * (../template-syntax.ts), from which the variables schema is derived too
 * (../props-schema.ts).
 */
import { transform, type Transform } from "sucrase";
import ts from "typescript";
import { MAX_LINKED_SOURCE_CHARS, MAX_PARAMETER_NESTING } from "../../core/limits";
import type { VariablesSchema } from "../../templates/variables-schema";
import { deriveVariablesSchema, passedThroughVariables } from "../analysis/props-schema";
import { parseTemplateSource } from "../analysis/template-syntax";
import { SINGLE_FILE, TEMPLATE_FILE_EXTENSIONS, type TemplateFiles } from "../../templates/files";
import {
  codeCharacters,
  oversizedFiles,
  oversizedSource,
  type CompileComponents,
  type CompileResult,
  type ComponentPin,
  type FilesCompileResult,
} from "./compile-result";
import { linkModules, type CompiledModule } from "./link-modules";
import { tagError, type TagError } from "./tag-errors";
import {
  ALLOWED_MODULES,
  SANDBOX_COMPONENT_EXPORTS,
  SANDBOX_INTL_EXPORTS,
  SANDBOX_INTL_MODULES,
  SANDBOX_TAILWIND_EXPORTS,
  UNAVAILABLE_COMPONENT_EXPORTS,
  isAllowedModule,
} from "./modules";
import { StaticConfigError, addCandidates, staticConfig, tailwindImports, type TailwindUsage } from "./tailwind-usage";

type CompileFailure = Extract<CompileResult, { ok: false }>;

const COMPONENTS_MODULE = "@react-email/components";
const availableExportList = [...SANDBOX_COMPONENT_EXPORTS, ...SANDBOX_TAILWIND_EXPORTS];
const availableComponentExports = new Set<string>(availableExportList);
const allowedList = `${ALLOWED_MODULES.join(", ")}, your components (@components/<name>) and the template's own files by relative path (./footer)`;

const COMPONENT_PREFIX = "@components/";
const COMPONENT_NAME = /^[a-z][a-z0-9-]{0,63}$/;
/** Where a component's files are linked: a leading / is refused in a template's paths, so none is a template's. */
const componentFolder = (name: string) => `/components/${name}/`;

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

const intlExportList = SANDBOX_INTL_EXPORTS.filter((name) => !name.startsWith("_")).join(", ");
const intlExports = new Set<string>(SANDBOX_INTL_EXPORTS);
const intlModules = new Set<string>(SANDBOX_INTL_MODULES);

function rejectModule(file: ts.SourceFile, specifier: ts.StringLiteral): never {
  const text = specifier.text;
  if (text.startsWith("next-intl/") || text.startsWith("use-intl/")) {
    throw new CompileError(
      `Import of "${text}" is not available in templates: import ${intlExportList} from ${SANDBOX_INTL_MODULES.join(", ")} (each gives use-intl/core's exports)`,
      specifier.getStart(file),
    );
  }
  throw new CompileError(
    `Import of "${text}" is not allowed: templates may only import ${allowedList}`,
    specifier.getStart(file),
  );
}

/** `./x` and `../x`: a file of the template, relative to the importing one. */
function isRelativeSpecifier(specifier: string): boolean {
  return specifier.startsWith("./") || specifier.startsWith("../");
}

/**
 * The file a relative import names, as TypeScript and bundlers resolve it: the path itself, else with each extension
 * in turn, else the folder's index file; or why none. `from` is the importing file's path.
 */
function resolveRelative(
  from: string,
  specifier: string,
  paths: ReadonlySet<string>,
): { path: string } | { problem: string } {
  const segments = from.split("/").slice(0, -1);
  for (const part of specifier.split("/")) {
    if (part === "") return { problem: `Import of "${specifier}" has an empty folder name` };
    if (part === ".") continue;
    if (part === "..") {
      if (segments.length === 0) return { problem: `Import of "${specifier}" leads outside the template's files` };
      segments.pop();
    } else segments.push(part);
  }
  const base = segments.join("/");
  const candidates = [
    base,
    ...TEMPLATE_FILE_EXTENSIONS.map((extension) => `${base}${extension}`),
    ...TEMPLATE_FILE_EXTENSIONS.map((extension) => `${base}/index${extension}`),
  ];
  const found = candidates.find((candidate) => paths.has(candidate));
  if (found) return { path: found };
  const [first, ...others] = TEMPLATE_FILE_EXTENSIONS;
  const extensions = `${base}${first}, ${others.slice(0, -1).join(", ")} or ${others.at(-1)}`;
  return {
    problem: `Import of "${specifier}" names none of the template's files (it would be ${base}, ${extensions}, or an index file in ${base}/)`,
  };
}

/**
 * Where one file's imports lead: relative ones to the files of its template (or component), by path; components'
 * to their entry, each name added to `componentsUsed`.
 */
type Imports = {
  from: string;
  paths: ReadonlySet<string>;
  resolved: Record<string, string>;
  components: CompileComponents;
  componentsUsed: Set<string>;
};

/** `@components/<name>`: the entry of one of the account's components, or why it cannot be imported. */
function resolveComponent(file: ts.SourceFile, specifier: ts.StringLiteral, imports: Imports): void {
  const name = specifier.text.slice(COMPONENT_PREFIX.length);
  const at = specifier.getStart(file);
  if (!COMPONENT_NAME.test(name))
    throw new CompileError(
      `Import of "${specifier.text}" names no component: a component's name is 1 to 64 of a-z, 0-9 and -, starting with a letter`,
      at,
    );
  if (name === imports.components.saving)
    throw new CompileError(
      `Import of "${specifier.text}" is a cycle: a component may not import itself, directly or through another component`,
      at,
    );
  const component = Object.hasOwn(imports.components.available, name) ? imports.components.available[name] : null;
  if (!component) throw new CompileError(`Import of "${specifier.text}" names none of your components`, at);
  imports.resolved[specifier.text] = componentFolder(name) + component.entry;
  imports.componentsUsed.add(name);
}

/** The module specifier of an import or re-export, checked; type-only imports are checked too, for one rule. */
function checkSpecifier(file: ts.SourceFile, specifier: ts.Expression | undefined, imports: Imports): void {
  if (!specifier || !ts.isStringLiteral(specifier) || isAllowedModule(specifier.text)) return;
  if (specifier.text.startsWith(COMPONENT_PREFIX)) return resolveComponent(file, specifier, imports);
  if (!isRelativeSpecifier(specifier.text)) rejectModule(file, specifier);
  const resolved = resolveRelative(imports.from, specifier.text, imports.paths);
  if ("problem" in resolved) throw new CompileError(resolved.problem, specifier.getStart(file));
  imports.resolved[specifier.text] = resolved.path;
}

/**
 * `import(\`./messages/${locale}.json\`)`: a folder of the template (relative), one substitution, then `.json`. Each
 * JSON file directly in that folder is linked under the name the template literal gives it, so at run time the name
 * made is one of them or the import rejects.
 */
function linkJsonPattern(file: ts.SourceFile, specifier: ts.TemplateExpression, imports: Imports): void {
  const head = specifier.head.text;
  const tail = specifier.templateSpans.at(-1)!.literal.text;
  if (
    !isRelativeSpecifier(head) ||
    !head.endsWith("/") ||
    specifier.templateSpans.length !== 1 ||
    !tail.endsWith(".json") ||
    tail.includes("/")
  ) {
    throw new CompileError(
      "A dynamic import() by template literal must name JSON files of a folder: `./messages/${locale}.json`",
      specifier.getStart(file),
    );
  }
  const folder = resolveFolder(imports.from, head);
  if ("problem" in folder) throw new CompileError(folder.problem, specifier.getStart(file));
  for (const path of imports.paths) {
    if (!path.startsWith(folder.path)) continue;
    const name = path.slice(folder.path.length);
    if (name.includes("/") || name.length <= tail.length || !name.endsWith(tail)) continue;
    imports.resolved[`${head}${name}`] = path;
  }
}

/** The folder (a path prefix ending in "/", "" for the root) that a relative folder name leads to from `from`. */
function resolveFolder(from: string, folder: string): { path: string } | { problem: string } {
  const segments = from.split("/").slice(0, -1);
  for (const part of folder.slice(0, -1).split("/")) {
    if (part === "") return { problem: `Import of "${folder}" has an empty folder name` };
    if (part === ".") continue;
    if (part === "..") {
      if (segments.length === 0) return { problem: `Import of "${folder}" leads outside the template's files` };
      segments.pop();
    } else segments.push(part);
  }
  return { path: segments.length === 0 ? "" : `${segments.join("/")}/` };
}

/** Named imports or re-exports of @react-email/components or of next-intl (use-intl) that the sandbox does not provide. */
function checkComponentNames(
  file: ts.SourceFile,
  specifier: ts.Expression | undefined,
  typeOnly: boolean,
  names: ts.NamedImportBindings | ts.NamedExportBindings | undefined,
): void {
  if (!specifier || !ts.isStringLiteral(specifier) || typeOnly) return;
  const isIntl = intlModules.has(specifier.text);
  if (specifier.text !== COMPONENTS_MODULE && !isIntl) return;
  if (!names || !(ts.isNamedImports(names) || ts.isNamedExports(names))) return; // default or namespace import
  for (const element of names.elements) {
    if (element.isTypeOnly) continue; // erased
    const imported = element.propertyName ?? element.name;
    if (isIntl && !intlExports.has(imported.text)) {
      throw new CompileError(
        `"${imported.text}" is not available from ${specifier.text} in templates (available: ${intlExportList})`,
        imported.getStart(file),
      );
    }
    if (!isIntl && !availableComponentExports.has(imported.text)) {
      const reason =
        UNAVAILABLE_COMPONENT_EXPORTS[imported.text] ??
        `"${imported.text}" is not exported by @react-email/components in the template sandbox (available: ${availableExportList.join(", ")})`;
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

/** `<Tailwind …>` (or `<C.Tailwind …>`): its config, read statically into `usage`. */
function readTailwindElement(
  file: ts.SourceFile,
  node: ts.JsxOpeningElement | ts.JsxSelfClosingElement,
  names: ReturnType<typeof tailwindImports>,
  usage: TailwindUsage,
): void {
  const tag = node.tagName;
  const isTailwind = ts.isIdentifier(tag)
    ? names.tailwind.has(tag.text)
    : ts.isPropertyAccessExpression(tag) && tag.name.text === "Tailwind";
  if (!isTailwind) return;
  let config: ts.Expression | undefined;
  for (const attribute of node.attributes.properties) {
    if (ts.isJsxSpreadAttribute(attribute)) {
      throw new CompileError(
        "The Tailwind config must be given as its config attribute, not spread",
        attribute.getStart(file),
      );
    }
    if (ts.isIdentifier(attribute.name) && attribute.name.text === "config" && attribute.initializer) {
      if (!ts.isJsxExpression(attribute.initializer) || !attribute.initializer.expression) {
        throw new CompileError("The Tailwind config must be an object", attribute.initializer.getStart(file));
      }
      config = attribute.initializer.expression;
    }
  }
  // The file's own line map: a file may hold many <Tailwind> elements.
  const position = file.getLineAndCharacterOfPosition((config ?? node).getStart(file));
  const where = { line: position.line + 1, column: position.character + 1 };
  try {
    usage.configs.push({ config: config && staticConfig(config, file, names.preset), path: file.fileName, ...where });
  } catch (error) {
    if (error instanceof StaticConfigError) throw new CompileError(error.message, error.node.getStart(file));
    throw error;
  }
}

/** The first rule the module breaks, in source order, as a CompileError; what Tailwind needs goes into `usage`. */
function checkModule(file: ts.SourceFile, imports: Imports, isEntry: boolean, usage: TailwindUsage): void {
  const tailwindNames = tailwindImports(file);
  const visit = (node: ts.Node): void => {
    if (
      ts.isStringLiteral(node) ||
      ts.isNoSubstitutionTemplateLiteral(node) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node)
    ) {
      addCandidates(node.text, usage);
    } else if (ts.isJsxOpeningElement(node) || ts.isJsxSelfClosingElement(node)) {
      readTailwindElement(file, node, tailwindNames, usage);
    }
    if (ts.isImportDeclaration(node)) {
      checkSpecifier(file, node.moduleSpecifier, imports);
      const clause = node.importClause;
      checkComponentNames(file, node.moduleSpecifier, clause?.isTypeOnly ?? false, clause?.namedBindings);
    } else if (ts.isExportDeclaration(node)) {
      checkSpecifier(file, node.moduleSpecifier, imports);
      checkComponentNames(file, node.moduleSpecifier, node.isTypeOnly, node.exportClause);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      checkSpecifier(file, node.moduleReference.expression, imports); // import x = require("x")
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      checkSpecifier(file, node.argument.literal, imports); // typeof import("x")
    } else if (ts.isMetaProperty(node) && node.keywordToken === ts.SyntaxKind.ImportKeyword) {
      throw new CompileError("import.meta is not available in templates", node.getStart(file));
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [specifier, ...rest] = node.arguments;
      if (specifier && rest.length === 0 && ts.isTemplateExpression(specifier)) {
        linkJsonPattern(file, specifier, imports);
      } else if (!specifier || !ts.isStringLiteral(specifier) || rest.length > 0) {
        throw new CompileError(
          `Dynamic import() needs a string literal, or a template literal of a folder and .json (\`./messages/\${locale}.json\`); templates may only import ${allowedList}`,
          node.getStart(file),
        );
      } else checkSpecifier(file, specifier, imports);
    } else if (
      (ts.isCallExpression(node) || ts.isNewExpression(node)) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === "require" &&
      node.arguments?.length === 1
    ) {
      checkSpecifier(file, node.arguments[0], imports); // require("x"); a computed name fails in the sandbox's require
    } else if (ts.isBigIntLiteral(node)) {
      // BigInt is removed from the sandbox (its operators cannot be interrupted).
      throw new CompileError("BigInt literals are not supported in templates", node.getStart(file));
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  if (isEntry && !file.statements.some(isDefaultExport)) {
    throw new CompileError(
      "The template must have a default export: the email component (e.g. `export default function Email(props) { ... }`)",
      0,
    );
  }
}

function failure(source: string, message: string, pos: number): CompileFailure {
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
  const result = compileTemplateFiles({ [SINGLE_FILE]: tsx }, SINGLE_FILE);
  if (result.ok) return result;
  const { path: _path, ...failure } = result;
  return failure;
}

/**
 * compileTemplate for a template of several files (paths checked by lib/templates/files.ts): each file is compiled and
 * checked, the first failure (in the files' order) answered with its path; the variables schema is the entry's. The
 * code is the entry's module alone when it imports no file, else the module graph the entry reaches. The components
 * its files import (and theirs) are compiled and linked in too, and named with their versions in `components`; a
 * failure in one names its file as `@components/<name>/<path>`. A component being saved (`components.saving`) is
 * compiled as its own files, with no default export needed and no variables.
 */
export function compileTemplateFiles(
  files: TemplateFiles,
  entry: string,
  components: CompileComponents = { available: {} },
): FilesCompileResult {
  const oversized = oversizedFiles(files);
  if (oversized) return oversized;
  const modules = new Map<string, CompiledModule>();
  const usage: TailwindUsage = { configs: [], candidates: new Set(), literals: new Set() };
  const componentsUsed = new Set<string>();
  // Each code file's syntax tree, by its linked path: what the template passes to its components is read from them.
  const trees = new Map<string, ts.SourceFile>();
  let variables: VariablesSchema | null = null;
  const compileFiles = (sources: TemplateFiles, folder: string, entryPath: string | null, shownFolder: string) => {
    const paths = new Set(Object.keys(sources).map((path) => folder + path));
    for (const [path, source] of Object.entries(sources)) {
      const imports: Imports = { from: folder + path, paths, resolved: {}, components, componentsUsed };
      const compiled = isJsonFile(path)
        ? jsonModule(source)
        : compileModule(folder + path, source, imports, path === entryPath, usage);
      if (!compiled.ok) return { ...compiled, path: shownFolder + path };
      modules.set(folder + path, compiled.module);
      if ("file" in compiled) trees.set(folder + path, compiled.file);
      if (path === entryPath) variables = compiled.variables;
    }
    return null;
  };
  const componentEntryTree = (specifier: string): ts.SourceFile | null => {
    const name = specifier.slice(COMPONENT_PREFIX.length);
    if (!componentsUsed.has(name)) return null;
    return trees.get(componentFolder(name) + components.available[name].entry) ?? null;
  };
  const own = compileFiles(files, "", components.saving === undefined ? entry : null, "");
  if (own) return own;
  const pins: ComponentPin[] = [];
  let linkedCharacters = codeCharacters(files);
  // A Set's iteration reaches what is added while it runs: the components components import are compiled in turn.
  for (const name of componentsUsed) {
    const component = components.available[name];
    linkedCharacters += codeCharacters(component.files);
    if (linkedCharacters > MAX_LINKED_SOURCE_CHARS)
      return {
        ok: false,
        path: null,
        message: `A template and the components it imports may hold at most ${MAX_LINKED_SOURCE_CHARS.toLocaleString("en-US")} characters of source in all`,
        line: 1,
        column: 1,
      };
    const failed = compileFiles(component.files, componentFolder(name), null, `${COMPONENT_PREFIX}${name}/`);
    if (failed) return failed;
    pins.push({ name, version: component.version, id: component.id });
  }
  const main = modules.get(entry);
  if (!main)
    return { ok: false, path: null, message: `The entry ${entry} is not one of the files`, line: 1, column: 1 };
  const code = Object.keys(main.imports).length === 0 ? main.code : linkModules(modules, entry);
  pins.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const entryTree = components.saving === undefined ? trees.get(entry) : undefined;
  const passed = entryTree && pins.length > 0 ? passedThroughVariables(entryTree, componentEntryTree) : null;
  const linked = {
    ...(pins.length === 0 ? {} : { components: pins }),
    ...(passed && passed.size > 0 ? { passedThrough: Object.fromEntries(passed) } : {}),
  };
  if (usage.configs.length === 0) return { ok: true, code, variables, ...linked };
  const { configs, candidates, literals } = usage;
  const tailwind = { configs, candidates: [...candidates], literals: [...literals] };
  return { ok: true, code, variables, ...linked, tailwind };
}

function isJsonFile(path: string): boolean {
  return path.endsWith(".json");
}

/**
 * A JSON file as a module: `module.exports` is the parsed value, as Node's require gives it (so `import x from` gives
 * the value, and `await import()` a namespace of its keys and `default`). The value is parsed here and embedded as a
 * JSON string literal, data and never code, which the sandbox's `__lpJson` parses once per context and deep-freezes
 * (runtime-harness.ts `jsonLoader`): renders share the value and none can change it.
 */
function jsonModule(source: string): { ok: true; module: CompiledModule; variables: null } | CompileFailure {
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const position = /position (\d+)/.exec(message);
    return failure(source, `Invalid JSON: ${message}`, position ? Number(position[1]) : 0);
  }
  const text = JSON.stringify(JSON.stringify(value));
  return { ok: true, module: { code: `module.exports = __lpJson(${text});`, imports: {} }, variables: null };
}

function compileModule(
  path: string,
  source: string,
  imports: Imports,
  isEntry: boolean,
  usage: TailwindUsage,
): { ok: true; module: CompiledModule; variables: VariablesSchema | null; file: ts.SourceFile } | CompileFailure {
  // TypeScript's parser reads nested parameters in linear time, where sucrase's backtracking would take seconds.
  const parsed = parseOrNull(source, path);
  const nested = parsed && tooDeepParameter(source, parsed);
  if (nested) return nested;
  // sucrase stops at the first syntax error and says where; TypeScript's parser recovers from errors, so it reads
  // the module's structure only once the source is known to be valid.
  let code: string;
  try {
    code = transform(source, {
      transforms: transformsFor(path),
      jsxRuntime: "automatic",
      production: true,
      filePath: path,
    }).code;
  } catch (error) {
    return syntaxFailure(source, path, error);
  }
  let variables: VariablesSchema | null = null;
  let file: ts.SourceFile;
  try {
    file = parsed ?? parseTemplateSource(source, path);
    // Sucrase accepts a closer of another name (`<Text>…</Heading>`) and `>` in text (`</Text>Text>`); tsc does not.
    const tag = tagError(file, false);
    if (tag) return failure(source, `Syntax error: ${tag.message}`, tag.pos);
    checkModule(file, imports, isEntry, usage);
    if (isEntry) variables = deriveVariablesSchema(file);
  } catch (error) {
    if (error instanceof CompileError) return failure(source, error.message, error.pos);
    if (error instanceof RangeError) return syntaxFailure(source, path, error); // nested deeper than the parser's stack
    throw error;
  }
  return { ok: true, module: { code, imports: imports.resolved }, variables, file };
}

/** TypeScript's syntax tree of the source, or null when it is nested deeper than the parser's stack. */
function parseOrNull(source: string, path: string): ts.SourceFile | null {
  try {
    return parseTemplateSource(source, path);
  } catch (error) {
    if (error instanceof RangeError) return null; // sucrase then says where
    throw error;
  }
}

/** The failure naming the first parameter nested past MAX_PARAMETER_NESTING functions deep, or null. */
function tooDeepParameter(source: string, file: ts.SourceFile): CompileFailure | null {
  const stack: Array<[ts.Node, number]> = [[file, 0]];
  while (stack.length > 0) {
    const [node, outer] = stack.pop()!;
    const depth = ts.isParameter(node) ? outer + 1 : outer;
    if (depth > MAX_PARAMETER_NESTING)
      return failure(
        source,
        `Functions are nested in parameter defaults more than ${MAX_PARAMETER_NESTING} deep here: move a default into the function's body`,
        node.getStart(file),
      );
    const children: ts.Node[] = [];
    ts.forEachChild(node, (child) => void children.push(child));
    for (let i = children.length - 1; i >= 0; i--) stack.push([children[i], depth]); // the first in the source first
  }
  return null;
}

/** TypeScript files are typed, .ts ones without JSX (where `<T>value` is a cast); .js and .jsx ones may hold JSX. */
function transformsFor(path: string): Transform[] {
  if (path.endsWith(".tsx")) return ["typescript", "jsx", "imports"];
  if (path.endsWith(".ts")) return ["typescript", "imports"];
  return ["jsx", "imports"];
}

function syntaxFailure(source: string, path: string, error: unknown): CompileFailure {
  const err = error as { message?: unknown; pos?: unknown; loc?: { line?: unknown; column?: unknown } };
  const rawMessage = typeof err?.message === "string" ? err.message : String(error);
  // sucrase appends " (line:column)" to the message; report it separately.
  const message = `Syntax error: ${rawMessage.replace(/\s*\(\d+:\d+\)$/, "")}`;
  if (typeof err?.pos === "number") {
    const tag = tagErrorOf(source, path);
    if (tag) return failure(source, `Syntax error: ${tag.message}`, tag.pos);
    return failure(source, message, err.pos);
  }
  if (err?.loc && typeof err.loc.line === "number" && typeof err.loc.column === "number") {
    return { ok: false, message, line: err.loc.line, column: err.loc.column };
  }
  return { ok: false, message, line: 1, column: 1 };
}

/** The tag error TypeScript's parser finds in a source sucrase rejected (./tag-errors.ts), or null. */
function tagErrorOf(source: string, path: string): TagError | null {
  try {
    return tagError(parseTemplateSource(source, path), true);
  } catch (error) {
    if (error instanceof RangeError) return null; // nested deeper than the parser's stack: sucrase's message stands
    throw error;
  }
}
