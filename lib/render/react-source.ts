// The `react` render format: the template's own TSX, with the caller's variables applied as the default props of
// its default export. The result is a module that compiles on its own against React Email.
import { parse, type SucraseToken } from "sucrase/dist/parser/index.js";
import { ContextualKeyword } from "sucrase/dist/parser/tokenizer/keywords.js";
import { TokenType } from "sucrase/dist/parser/tokenizer/types.js";

export function applyVariablesToSource(code: string, props: Record<string, unknown>): string {
  // Tokens, not text: an `export default` inside a comment or a string is not the module's default export.
  const { tokens } = parse(code, true, true, false);
  const names = new Set(
    tokens.filter((token) => token.type === TokenType.name).map((token) => code.slice(token.start, token.end)),
  );
  // The wrapper's own names must not clash with the template's.
  const unused = (name: string) => {
    let candidate = name;
    for (let n = 2; names.has(candidate); n++) candidate = `${name}${n}`;
    names.add(candidate);
    return candidate;
  };
  const variablesName = unused("letterpressVariables");
  const wrapperName = unused("LetterpressEmail");
  const { source, name } = detachDefaultExport(code, tokens, () => unused("LetterpressTemplate"));
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
function detachDefaultExport(
  code: string,
  tokens: SucraseToken[],
  newName: () => string,
): { source: string; name: string } {
  const at = tokens.findIndex(
    (token, i) => token.type === TokenType._export && tokens[i + 1]?.type === TokenType._default,
  );
  if (at < 0) throw new Error("The template has no default export");
  const exported = tokens[at + 2]!;
  const text = (token: SucraseToken | undefined) => (token ? code.slice(token.start, token.end) : "");
  const replace = (replacement: string, resumeAt: number) =>
    code.slice(0, tokens[at]!.start) + replacement + code.slice(resumeAt);

  // `export default [async] function [*] Name` and `export default class Name`: drop the two keywords.
  let declaration = at + 2;
  if (exported.type === TokenType.name && exported.contextualKeyword === ContextualKeyword._async) declaration++;
  if (tokens[declaration]?.type === TokenType._function || tokens[declaration]?.type === TokenType._class) {
    let nameIndex = declaration + 1;
    if (tokens[nameIndex]?.type === TokenType.star) nameIndex++;
    if (tokens[nameIndex]?.type === TokenType.name)
      return { source: replace("", exported.start), name: text(tokens[nameIndex]) };
  }
  // `export default Name;`: the binding exists already.
  const next = tokens[at + 3];
  if (
    exported.type === TokenType.name &&
    (next === undefined || next.type === TokenType.semi || next.type === TokenType.eof)
  ) {
    return { source: replace("", next?.type === TokenType.semi ? next.end : exported.end), name: text(exported) };
  }
  // An anonymous function, class, arrow or other expression: bind it to a name.
  const name = newName();
  return { source: replace(`const ${name} = `, exported.start), name };
}
