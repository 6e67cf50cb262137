/**
 * What a template's `<Tailwind>` needs from its source, read on TypeScript's syntax tree while compiling
 * (./compile.ts): each `config` as a value, read without running anything (a literal object, arrays, strings, numbers,
 * booleans, null and `pixelBasedPreset`), and the class names the template may use: every whitespace-separated word of
 * its string and template literals, as Tailwind's own content scanning takes them. ./tailwind-styles.ts turns them into
 * the styles the sandbox applies (./tailwind-runtime.ts).
 */
import ts from "typescript";

import { PIXEL_BASED_PRESET, type TailwindConfigValue } from "./tailwind-config";

/** A config and where it is written, for errors about it. */
export type TailwindConfigSite = {
  config: TailwindConfigValue | undefined;
  path: string;
  line: number;
  column: number;
};

/** `literals`: the source's strings as they are, some of which are whole classNames. */
export type TailwindUsage = { configs: TailwindConfigSite[]; candidates: Set<string>; literals: Set<string> };

/** A part of the source that cannot be read as a static config; `node` is where the error points. */
export class StaticConfigError extends Error {
  constructor(
    message: string,
    readonly node: ts.Node,
  ) {
    super(message);
  }
}

const NOT_STATIC =
  "The Tailwind config must be written as a literal object in the <Tailwind> element or in a const of the same file (strings, numbers, arrays, objects and pixelBasedPreset), so that its CSS is made when the template is saved";

/** Values a config may hold, a const counted each time it is used: consts of consts can otherwise double per line. */
const MAX_CONFIG_VALUES = 10_000;
const TOO_LARGE = `The Tailwind config must hold at most ${MAX_CONFIG_VALUES.toLocaleString("en-US")} values (a const counts each time it is used)`;

/** Adds a literal's words to the candidates: the class names a className built from it may hold. */
export function addCandidates(text: string, usage: TailwindUsage): void {
  for (const word of text.split(/\s+/)) if (word !== "") usage.candidates.add(word);
  usage.literals.add(text);
}

/** The local names `Tailwind` and `pixelBasedPreset` are imported as from @react-email/components in `file`. */
export function tailwindImports(file: ts.SourceFile): { tailwind: Set<string>; preset: Set<string> } {
  const names = { tailwind: new Set<string>(), preset: new Set<string>() };
  for (const statement of file.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    if (statement.moduleSpecifier.text !== "@react-email/components") continue;
    const bindings = statement.importClause?.namedBindings;
    if (!bindings || !ts.isNamedImports(bindings)) continue;
    for (const element of bindings.elements) {
      const imported = (element.propertyName ?? element.name).text;
      if (imported === "Tailwind") names.tailwind.add(element.name.text);
      if (imported === "pixelBasedPreset") names.preset.add(element.name.text);
    }
  }
  return names;
}

const constsByFile = new WeakMap<ts.SourceFile, Map<string, ts.Expression>>();

/** The `const name = <initializer>` declarations at the top of `file`, read once per file for all its configs. */
function topLevelConsts(file: ts.SourceFile): Map<string, ts.Expression> {
  const known = constsByFile.get(file);
  if (known) return known;
  const consts = new Map<string, ts.Expression>();
  constsByFile.set(file, consts);
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    if (!(statement.declarationList.flags & ts.NodeFlags.Const)) continue;
    for (const declaration of statement.declarationList.declarations) {
      if (ts.isIdentifier(declaration.name) && declaration.initializer) {
        consts.set(declaration.name.text, declaration.initializer);
      }
    }
  }
  return consts;
}

/** The value of a `<Tailwind config={…}>` expression, or StaticConfigError. */
export function staticConfig(
  expression: ts.Expression,
  file: ts.SourceFile,
  presetNames: ReadonlySet<string>,
): TailwindConfigValue {
  const consts = topLevelConsts(file);
  const resolving = new Set<string>();
  let values = 0;
  const read = (node: ts.Expression): TailwindConfigValue => {
    if (++values > MAX_CONFIG_VALUES) throw new StaticConfigError(TOO_LARGE, expression);
    while (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node)) {
      node = node.expression;
    }
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
    if (ts.isNumericLiteral(node)) return Number(node.text);
    if (
      ts.isPrefixUnaryExpression(node) &&
      node.operator === ts.SyntaxKind.MinusToken &&
      ts.isNumericLiteral(node.operand)
    ) {
      return -Number(node.operand.text);
    }
    if (node.kind === ts.SyntaxKind.TrueKeyword) return true;
    if (node.kind === ts.SyntaxKind.FalseKeyword) return false;
    if (node.kind === ts.SyntaxKind.NullKeyword) return null;
    if (ts.isIdentifier(node)) {
      if (presetNames.has(node.text)) return PIXEL_BASED_PRESET;
      const initializer = consts.get(node.text);
      if (!initializer || resolving.has(node.text)) throw new StaticConfigError(NOT_STATIC, node);
      resolving.add(node.text);
      const value = read(initializer);
      resolving.delete(node.text);
      return value;
    }
    if (ts.isArrayLiteralExpression(node)) {
      return node.elements.map((element) => {
        if (ts.isSpreadElement(element) || ts.isOmittedExpression(element)) {
          throw new StaticConfigError(NOT_STATIC, element);
        }
        return read(element);
      });
    }
    if (ts.isObjectLiteralExpression(node)) {
      const value: { [key: string]: TailwindConfigValue } = {};
      for (const property of node.properties) {
        if (!ts.isPropertyAssignment(property)) throw new StaticConfigError(NOT_STATIC, property);
        const name = property.name;
        const key =
          ts.isIdentifier(name) || ts.isStringLiteral(name)
            ? name.text
            : ts.isNumericLiteral(name)
              ? String(Number(name.text))
              : null;
        if (key === null || key === "__proto__") throw new StaticConfigError(NOT_STATIC, name);
        value[key] = read(property.initializer);
      }
      return value;
    }
    throw new StaticConfigError(NOT_STATIC, node);
  };
  return read(expression);
}
