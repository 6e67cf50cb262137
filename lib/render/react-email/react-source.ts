// The `react` render format: the template's own TSX, with the caller's variables applied as the default props of
// its default export. The result is a module that compiles on its own against React Email.
import ts from "typescript";
import { parseTemplateSource } from "../analysis/template-syntax";

export function applyVariablesToSource(code: string, props: Record<string, unknown>): string {
  // The syntax tree, not text: an `export default` inside a comment or a string is not the module's default export.
  const file = parseTemplateSource(code);
  const names = new Set<string>();
  const collectNames = (node: ts.Node): void => {
    if (ts.isIdentifier(node)) names.add(node.text);
    ts.forEachChild(node, collectNames);
  };
  collectNames(file);
  // The wrapper's own names must not clash with the template's.
  const unused = (name: string) => {
    let candidate = name;
    for (let n = 2; names.has(candidate); n++) candidate = `${name}${n}`;
    names.add(candidate);
    return candidate;
  };
  const variablesName = unused("letterpressVariables");
  const wrapperName = unused("LetterpressEmail");
  const { source, name } = detachDefaultExport(file, () => unused("LetterpressTemplate"));
  return `${source.trimEnd()}

// Variables applied by Letterpress as this component's default props.
const ${variablesName} = ${JSON.stringify(props, null, 2)};

export default function ${wrapperName}(props: Partial<typeof ${variablesName}>) {
  return <${name} {...${variablesName}} {...props} />;
}

${wrapperName}.PreviewProps = ${variablesName};
`;
}

/** Turns the module's default export into a local binding, so a wrapper can become the default export. */
function detachDefaultExport(file: ts.SourceFile, newName: () => string): { source: string; name: string } {
  const code = file.text;
  for (const statement of file.statements) {
    // `export default [async] function [*] [Name]` and `export default class [Name]`: drop the two keywords.
    if (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) {
      const modifiers = ts.getModifiers(statement) ?? [];
      const exported = modifiers.find((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);
      const byDefault = modifiers.find((modifier) => modifier.kind === ts.SyntaxKind.DefaultKeyword);
      if (!exported || !byDefault) continue;
      const before = code.slice(0, exported.getStart(file));
      const after = code.slice(byDefault.end).trimStart();
      if (statement.name) return { source: before + after, name: statement.name.text };
      // Anonymous: an expression bound to a name.
      const name = newName();
      return { source: `${before}const ${name} = ${after}`, name };
    }
    if (ts.isExportAssignment(statement) && !statement.isExportEquals) {
      const before = code.slice(0, statement.getStart(file));
      // `export default Name;`: the binding exists already.
      if (ts.isIdentifier(statement.expression)) {
        return { source: before + code.slice(statement.end), name: statement.expression.text };
      }
      // An arrow or other expression: bind it to a name.
      const name = newName();
      return { source: `${before}const ${name} = ${code.slice(statement.expression.getStart(file))}`, name };
    }
  }
  throw new Error("The template has no default export");
}
