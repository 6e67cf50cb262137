import ts from "typescript";
import { describe, expect, it } from "vitest";
import { STARTER_TEMPLATE } from "@/app/dashboard/templates/new/starter";
import { compileTemplate } from "@/lib/render/sandbox/compile";

// Issue 46: a JSX tag left unclosed, closed by another tag's closer, or a closer with nothing open is reported at the
// place `tsc` names (a tag's name, a closer's name, the stray character), not where sucrase stopped. Each row gives
// the whole answer, and checks that `tsc` reports a syntax error at that line and column.

/** A template whose component returns `jsx` (its first line is line 5), and `after` past the component. */
const email = (jsx: string[], after: string[] = []) =>
  [
    'import { Body, Container, Heading, Hr, Html, Img, Section, Tailwind, Text } from "@react-email/components";',
    "",
    "export default function Email({ items = [] as string[], show = true }) {",
    "  return (",
    ...jsx,
    "  );",
    "}",
    ...after,
    "",
  ].join("\n");

/** Where `tsc` reports syntax errors, as "line:column" (a fragment's from its first character, past whitespace). */
function tscPositions(source: string): string[] {
  const { diagnostics = [] } = ts.transpileModule(source, {
    fileName: "template.tsx",
    reportDiagnostics: true,
    compilerOptions: { jsx: ts.JsxEmit.Preserve },
  });
  const file = ts.createSourceFile("template.tsx", source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TSX);
  return diagnostics.map((diagnostic) => {
    let start = diagnostic.start ?? 0;
    while (/\s/.test(source[start] ?? "")) start++;
    const { line, character } = file.getLineAndCharacterOfPosition(start);
    return `${line + 1}:${character + 1}`;
  });
}

const starterWithout = (line: string) => {
  expect(STARTER_TEMPLATE).toContain(line);
  return STARTER_TEMPLATE.replace(line, "");
};

const cases: [name: string, source: string, message: string, line: number, column: number][] = [
  [
    "the starter with its first </Text> deleted",
    starterWithout("          </Text>\n"),
    "`<Text>` opened on line 16 is never closed",
    16,
    12,
  ],
  [
    "the starter with </Container> deleted",
    starterWithout("        </Container>\n"),
    "`<Container>` opened on line 14 is never closed",
    14,
    10,
  ],
  [
    "the starter with </Section> deleted",
    starterWithout("          </Section>\n"),
    "`<Section>` opened on line 19 is never closed",
    19,
    12,
  ],
  [
    "unclosed before the end of the component",
    email(["    <Html>", "      <Text>Hello", "    </Html>"]),
    "`<Text>` opened on line 6 is never closed",
    6,
    8,
  ],
  [
    "unclosed at the end of the file",
    email(["    <Html>", "      <Text>Hello"]).replace(/\n  \);\n\}\n$/, "\n"),
    "`<Text>` opened on line 6 is never closed",
    6,
    8,
  ],
  [
    "unclosed deep inside others",
    email(["    <Html><Body><Container><Section><Text>Hi</Section></Container></Body></Html>"]),
    "`<Text>` opened on line 5 is never closed",
    5,
    38,
  ],
  [
    "of two unclosed, the inner",
    email(["    <Html>", "      <Body>", "        <Text>Hi"]),
    "`<Text>` opened on line 7 is never closed",
    7,
    10,
  ],
  [
    "closed by another tag's closer",
    email(["    <Html>", "      <Text>Hello</Heading>", "    </Html>"]),
    "`<Text>` opened on line 6 is closed by `</Heading>`",
    6,
    20,
  ],
  [
    "closed by a closer on a later line",
    email(["    <Html>", "      <Text>", "        Hello", "      </Heading>", "    </Html>"]),
    "`<Text>` opened on line 6 is closed by `</Heading>`",
    8,
    9,
  ],
  [
    "closed by its name in the wrong case",
    email(["    <Html><Text>Hello</text></Html>"]),
    "`<Text>` opened on line 5 is closed by `</text>`",
    5,
    24,
  ],
  [
    "an element closed by a fragment's closer",
    email(["    <Html><Text>Hello</></Html>"]),
    "`<Text>` opened on line 5 is closed by `</>`",
    5,
    24,
  ],
  [
    "a closer with nothing open",
    email(["    <Html>", "      <Text>Hello</Text>", "    </Html>", "    </Html>"]),
    "`</Html>` closes no open tag",
    8,
    5,
  ],
  [
    "the closer typed after an auto-completed one: </Text>Text>",
    email(["    <Html>", "      <Text>Hello</Text>Text>", "    </Html>"]),
    "`>` cannot appear in JSX text: write `{'>'}` or `&gt;`",
    6,
    29,
  ],
  [
    "a brace in text",
    email(["    <Html>", "      <Text>a } b</Text>", "    </Html>"]),
    "`}` cannot appear in JSX text: write `{'}'}` or `&rbrace;`",
    6,
    15,
  ],
  [
    "a self-closing tag without its >",
    email(["    <Html>", '      <Img src="x.png" /', "    </Html>"]),
    'Unexpected token, expected ">"',
    7,
    5,
  ],
  [
    "a self-closing tag without its /",
    email(["    <Html>", '      <Img src="x.png">', "    </Html>"]),
    "`<Img>` opened on line 6 is never closed",
    6,
    8,
  ],
  [
    "a closer without its >",
    email(["    <Html>", "      <Text>Hello</Text", "    </Html>"]),
    'Unexpected token, expected ">"',
    7,
    5,
  ],
  [
    "an attribute with > in its string",
    email(["    <Html>", '      <Text title="a > b">Hello', "    </Html>"]),
    "`<Text>` opened on line 6 is never closed",
    6,
    8,
  ],
  [
    "an attribute holding a closer in its string",
    email(["    <Html>", '      <Text title="</Text>">Hello', "    </Html>"]),
    "`<Text>` opened on line 6 is never closed",
    6,
    8,
  ],
  [
    "a comment holding a closer",
    email(["    <Html>", "      <Text>Hello {/* </Text> */}", "    </Html>"]),
    "`<Text>` opened on line 6 is never closed",
    6,
    8,
  ],
  [
    "a template literal holding a tag",
    email(["    <Html>", "      <Text>{`<Text>${items.length}</Text>`}", "    </Html>"]),
    "`<Text>` opened on line 6 is never closed",
    6,
    8,
  ],
  [
    "JSX in braces, unclosed",
    email(["    <Html>", "      {items.map((item) => <Text key={item}>{item})}", "    </Html>"]),
    "`<Text>` opened on line 6 is closed by `</Html>`",
    7,
    7,
  ],
  [
    "JSX in a condition, unclosed",
    email(["    <Html>", "      {show && <Section><Text>Hi</Text>}", "    </Html>"]),
    "`<Section>` opened on line 6 is closed by `</Html>`",
    7,
    7,
  ],
  ["a fragment unclosed", email(["    <>", "      <Text>Hi</Text>"]), "`<>` opened on line 5 is never closed", 5, 5],
  [
    "a fragment closed by an element's closer",
    email(["    <Html>", "      <>", "        <Text>Hi</Text>", "      </Html>"]),
    "`<>` opened on line 6 is closed by `</Html>`",
    8,
    9,
  ],
  [
    "a member tag unclosed",
    email(["    <Html>", "      <Section>", "      <Html.Text>Hi", "      </Section>", "    </Html>"]),
    "`<Html.Text>` opened on line 7 is never closed",
    7,
    8,
  ],
  [
    "a second component unclosed",
    email(["    <Html><Body><Note /></Body></Html>"], ["", "function Note() {", "  return <Text>Note;", "}"]),
    "`<Text>` opened on line 10 is never closed",
    10,
    11,
  ],
  [
    "unclosed inside <Tailwind>",
    email([
      "    <Tailwind>",
      "      <Html>",
      '        <Text className="text-sm">Hi',
      "      </Html>",
      "    </Tailwind>",
    ]),
    "`<Text>` opened on line 7 is never closed",
    7,
    10,
  ],
];

describe("tag errors", () => {
  it.each(cases)("%s", (_name, source, message, line, column) => {
    expect(compileTemplate(source)).toEqual({ ok: false, message: `Syntax error: ${message}`, line, column });
    expect(tscPositions(source)).toContain(`${line}:${column}`);
  });
});
