// The `react` render format: the template's own TSX, with the caller's variables applied as the default props of
// its default export. The result is a module that compiles on its own against React Email.

const IDENTIFIER = "[A-Za-z_$][\\w$]*";
const WRAPPED_NAME = "LetterpressTemplate";

export function applyVariablesToSource(code: string, props: Record<string, unknown>): string {
  const { source, name } = detachDefaultExport(code);
  const literal = JSON.stringify(props, null, 2);
  return `${source.trimEnd()}

// Variables applied by Letterpress as this component's default props.
const letterpressVariables = ${literal};

export default function LetterpressEmail(props: Partial<typeof letterpressVariables>) {
  return <${name} {...letterpressVariables} {...props} />;
}

LetterpressEmail.PreviewProps = letterpressVariables;
`;
}

/** Turns the module's default export into a local binding, so a wrapper can become the default export. */
function detachDefaultExport(code: string): { source: string; name: string } {
  const namedFunction = new RegExp(`export\\s+default\\s+((?:async\\s+)?function\\s*\\*?\\s*(${IDENTIFIER}))`);
  let match = namedFunction.exec(code);
  if (match) return { source: code.replace(namedFunction, "$1"), name: match[2] };

  const namedClass = new RegExp(`export\\s+default\\s+(class\\s+(${IDENTIFIER}))`);
  match = namedClass.exec(code);
  if (match) return { source: code.replace(namedClass, "$1"), name: match[2] };

  const reference = new RegExp(`export\\s+default\\s+(${IDENTIFIER})\\s*;?\\s*(?=\\n|$)`);
  match = reference.exec(code);
  if (match && !["function", "class", "async"].includes(match[1])) {
    return { source: code.replace(reference, ""), name: match[1] };
  }

  // An anonymous function, arrow or expression: bind it to a name.
  const anonymous = /export\s+default\s+/;
  if (anonymous.test(code)) return { source: code.replace(anonymous, `const ${WRAPPED_NAME} = `), name: WRAPPED_NAME };
  throw new Error("The template has no default export");
}
