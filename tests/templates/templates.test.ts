import { execFile } from "node:child_process";
import { mkdtemp, mkdir, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { render as renderEmail } from "@react-email/render";
import { createElement } from "react";
import { describe, expect, it } from "vitest";
import { GET as getLibrary } from "@/app/api/v1/library/route";
import { POST as postTemplate } from "@/app/api/v1/templates/route";
import { DELETE as deleteTemplate, GET as getTemplate, PUT as putTemplate } from "@/app/api/v1/templates/[id]/route";
import { POST as postRender } from "@/app/api/v1/templates/[id]/render/route";
import { GET as getSource } from "@/app/api/v1/templates/[id]/source/route";
import { STARTER_TEMPLATE } from "@/app/dashboard/templates/new/starter";
import { getDb } from "@/lib/db/client";
import { createUserTemplate } from "@/lib/templates/data/user-templates";
import { applyVariablesToSource } from "@/lib/render/react-email/react-source";
import { OPEN_VARIABLES_SCHEMA } from "@/lib/templates/variables-schema";
import { addToLibrary, auth, call, catalogueId, counter, createUser, type TestUser } from "../support/api";
import { storedCompatibility } from "../support/compatibility";
import { admin, adminProcess } from "../support/admin";
import { importTsxFiles } from "../support/tsx";

const run = promisify(execFile);

const TEMPLATE_NOT_FOUND = { error: "Template not found", code: "TEMPLATE_NOT_FOUND", success: false };
const DIALECT = "https://json-schema.org/draft/2020-12/schema";
const NOT_ALLOWED =
  "templates may only import react, react/jsx-runtime, @react-email/components, next-intl, use-intl, use-intl/core, your components (@components/<name>) and the template's own files by relative path (./footer)";

const invalid = (details: { field: string; message: string }[]) => ({
  status: 400,
  body: { error: "Invalid request body", code: "VALIDATION_ERROR", success: false, details },
});

const create = (user: TestUser, body: unknown) =>
  call(postTemplate, "/api/v1/templates", { method: "POST", headers: auth(user), body });
const replace = (user: TestUser, id: string, body: unknown) =>
  call(putTemplate, `/api/v1/templates/${id}`, { method: "PUT", params: { id }, headers: auth(user), body });
const remove = (user: TestUser, id: string) =>
  call(deleteTemplate, `/api/v1/templates/${id}`, { method: "DELETE", params: { id }, headers: auth(user) });
const render = (user: TestUser, id: string, variables: Record<string, unknown> = {}) =>
  call(postRender, `/api/v1/templates/${id}/render`, {
    method: "POST",
    params: { id },
    headers: auth(user),
    body: { variables },
  });
const source = (user: TestUser, id: string) => call(getSource, "/x", { params: { id }, headers: auth(user) });
const details = (user: TestUser, id: string) => call(getTemplate, "/x", { params: { id }, headers: auth(user) });
const outcome = ({ status, body }: { status: number; body: unknown }) => ({ status, body });

const GREETING = `import { Html, Text } from "@react-email/components";
export default function Greeting({ name = "there" }: { name?: string }) {
  return <Html><Text>Hello {name}</Text></Html>;
}
Greeting.PreviewProps = { name: "Ada" };
`;

const GREETING_VARIABLES = {
  $schema: DIALECT,
  type: "object",
  properties: { name: { type: "string", default: "there" } },
  additionalProperties: true,
};

/** The entry imports ./components/footer.tsx (with its extension), which imports ./tokens and ../copy (without). */
const GRAPH = {
  "email.tsx": `import { Html, Text } from "@react-email/components";
import { Footer } from "./components/footer.tsx";

export default function Welcome({ name }: { name: string }) {
  return <Html><Text>Welcome, {name}</Text><Footer /></Html>;
}
Welcome.PreviewProps = { name: "Ada" };
`,
  "components/footer.tsx": `import { Text } from "@react-email/components";
import { brand } from "./tokens";
import { signOff } from "../copy";

export function Footer() {
  return <Text style={{ color: brand.color }}>{signOff}</Text>;
}
`,
  "components/tokens.ts": `export const brand = { color: <string>"#0a7" };\n`,
  "copy.ts": `export const signOff = "The Acme team";\n`,
};

/** The same email in one file: what the graph must render exactly as. */
const INLINE = `import { Html, Text } from "@react-email/components";
export default function Welcome({ name }: { name: string }) {
  return <Html><Text>Welcome, {name}</Text><Text style={{ color: "#0a7" }}>The Acme team</Text></Html>;
}
Welcome.PreviewProps = { name: "Ada" };
`;

const WELCOME_VARIABLES = {
  $schema: DIALECT,
  type: "object",
  properties: { name: { type: "string" } },
  required: ["name"],
  additionalProperties: true,
};

async function updatedAt(id: string): Promise<string> {
  const [row] = await getDb()<{ updated_at: Date }[]>`select updated_at from templates where id = ${id}`;
  return row.updated_at.toISOString();
}

/** The template as GET /templates/{id} describes a template its owner wrote. */
async function ownTemplate(
  user: TestUser,
  id: string,
  fields: { name: string; description: string; variables: unknown; example: unknown; version?: number },
) {
  return {
    id,
    name: fields.name,
    description: fields.description,
    is_public: false,
    price: 0,
    slug: null,
    category: null,
    author: user.email,
    alias: null,
    in_library: true,
    added_via: "created",
    updated_at: await updatedAt(id),
    version: fields.version ?? 1,
    draft: null,
    variables: fields.variables,
    example: fields.example,
    compatibility: await storedCompatibility(id),
  };
}

describe("POST /api/v1/templates", () => {
  it("creates a template of one file in the caller's library, counted as an API call", async () => {
    const user = await createUser("free");
    const created = await create(user, {
      name: "Greeting",
      description: "Says hello",
      files: { "greeting.tsx": GREETING },
    });
    const id = created.body?.template?.id;
    expect(outcome(created)).toEqual({
      status: 201,
      body: {
        success: true,
        template: await ownTemplate(user, id, {
          name: "Greeting",
          description: "Says hello",
          variables: GREETING_VARIABLES,
          example: { name: "Ada" },
        }),
      },
    });
    expect(created.headers.get("x-ratelimit-remaining")).toBe("499");
    expect(await counter(user, "api_calls")).toBe(1);
    const library = await call(getLibrary, "/api/v1/library", { headers: auth(user) });
    expect(library.body.templates.map((t: { id: string; added_via: string }) => [t.id, t.added_via])).toEqual([
      [id, "created"],
    ]);
    expect(outcome(await source(user, id))).toEqual({
      status: 200,
      body: { success: true, source: { name: "Greeting", description: "Says hello", code: GREETING } },
    });
    expect(outcome(await render(user, id, { name: "Grace" }))).toEqual({
      status: 200,
      body: { success: true, html: expect.stringContaining("Hello <!-- -->Grace") },
    });
  });

  it("links files that import each other by relative path into one module graph, rendered as one file would be", async () => {
    const user = await createUser("monthly");
    const graph = await create(user, { name: "Welcome", files: GRAPH });
    expect(outcome(graph)).toEqual({
      status: 201,
      body: {
        success: true,
        template: await ownTemplate(user, graph.body.template.id, {
          name: "Welcome",
          description: "",
          variables: WELCOME_VARIABLES,
          example: { name: "Ada" },
        }),
      },
    });
    const inline = await create(user, { name: "Inline", files: { "email.tsx": INLINE } });
    const expected = await render(user, inline.body.template.id, { name: "Grace" });
    expect(expected.body.html).toContain('color:#0a7;margin-top:16px;margin-bottom:16px">The Acme team</p>');
    expect(outcome(await render(user, graph.body.template.id, { name: "Grace" }))).toEqual({
      status: 200,
      body: { success: true, html: expected.body.html },
    });
    expect(outcome(await source(user, graph.body.template.id))).toEqual({
      status: 200,
      body: {
        success: true,
        source: { name: "Welcome", description: "", code: GRAPH["email.tsx"], files: GRAPH, entry: "email.tsx" },
      },
    });
  });

  it("takes the entry it is given, an index file for a folder, and modules that require each other (as CommonJS)", async () => {
    const user = await createUser("monthly");
    const files = {
      "main.tsx": `import { Html, Text } from "@react-email/components";
import { label } from "./parts";
export default function Main() { return <Html><Text>{label()}</Text></Html>; }
`,
      "parts/index.ts": `import { suffix } from "./b";\nexport const prefix = "ping";\nexport function label() { return prefix + suffix(); }\n`,
      "parts/b.ts": `import { prefix } from "./index";\nexport function suffix() { return "-" + prefix.length; }\n`,
    };
    const created = await create(user, { name: "Cycle", files, entry: "main.tsx" });
    expect(created.status).toBe(201);
    const rendered = await render(user, created.body.template.id);
    expect(rendered.body.html).toContain("<p");
    expect(rendered.body.html).toContain(">ping-4</p>");
    expect((await source(user, created.body.template.id)).body.source.entry).toBe("main.tsx");
  });

  it("derives the variables from the entry's props type; a type imported from another file counts as untyped (PreviewProps)", async () => {
    const user = await createUser("monthly");
    const created = await create(user, {
      name: "Typed elsewhere",
      files: {
        "email.tsx": `import { Html, Text } from "@react-email/components";
import type { Props } from "./types";
export default function E({ name, count }: Props) { return <Html><Text>{name} {count}</Text></Html>; }
E.PreviewProps = { name: "Ada", count: 2 };
`,
        "types.ts": "export interface Props { name: string; count: number }\n",
      },
    });
    expect(created.status).toBe(201);
    expect(created.body.template.variables).toEqual({
      $schema: DIALECT,
      type: "object",
      properties: { name: { type: "string" }, count: { type: "number" } },
      additionalProperties: true,
    });
  });

  it("refuses each path shape outside the rules, with one entry per path", async () => {
    const user = await createUser("monthly");
    const file = GREETING;
    const result = await create(user, {
      name: "Paths",
      files: {
        "": file,
        "/email.tsx": file,
        "C:\\email.tsx": file,
        "components\\footer.tsx": file,
        "components//footer.tsx": file,
        "components/": file,
        "../email.tsx": file,
        "components/../../email.tsx": file,
        "./email.tsx": file,
        "email.css": file,
        "components/.tsx": file,
        "my email.tsx": file,
        "café.tsx": file,
        [`${"a".repeat(197)}.ts`]: file,
        [`${"a".repeat(198)}.ts`]: file,
      },
    });
    expect(outcome(result)).toEqual(
      invalid([
        { field: "files.", message: "is empty: name the file, e.g. email.tsx" },
        { field: "files./email.tsx", message: "must be relative: no leading /" },
        { field: "files.C:\\email.tsx", message: 'may hold only letters, digits, -, _, ., @ and / (not ":")' },
        { field: "files.components\\footer.tsx", message: "must separate folders with /, not \\" },
        { field: "files.components//footer.tsx", message: "has an empty folder name (// or a trailing /)" },
        { field: "files.components/", message: "has an empty folder name (// or a trailing /)" },
        { field: "files.../email.tsx", message: "must not contain .. (a template's files stay inside it)" },
        {
          field: "files.components/../../email.tsx",
          message: "must not contain .. (a template's files stay inside it)",
        },
        {
          field: "files../email.tsx",
          message: "must not contain . as a folder name (write components/footer.tsx, not ./components/footer.tsx)",
        },
        { field: "files.email.css", message: "must end in .tsx, .ts, .jsx, .js" },
        { field: "files.components/.tsx", message: "needs a name before .tsx" },
        { field: "files.my email.tsx", message: 'may hold only letters, digits, -, _, ., @ and / (not " ")' },
        { field: "files.café.tsx", message: 'may hold only letters, digits, -, _, ., @ and / (not "é")' },
        { field: `files.${"a".repeat(198)}.ts`, message: "is longer than 200 characters" },
      ]),
    );
  });

  it("refuses a bad name, description, entry, count or size of files, and unknown fields", async () => {
    const user = await createUser("monthly");
    const cases: [unknown, { field: string; message: string }[]][] = [
      [{ files: { "email.tsx": GREETING } }, [{ field: "name", message: "name must be a string" }]],
      [
        { name: " ", description: "d".repeat(2001), files: { "email.tsx": GREETING } },
        [
          { field: "name", message: "name must not be empty" },
          { field: "description", message: "description must be at most 2000 characters" },
        ],
      ],
      [
        { name: "n".repeat(201), files: { "email.tsx": GREETING } },
        [{ field: "name", message: "name must be at most 200 characters" }],
      ],
      [{ name: "None", files: {} }, [{ field: "files", message: "must hold at least one file" }]],
      [
        { name: "Many", files: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`f${i}.tsx`, GREETING])) },
        [{ field: "files", message: "must hold at most 20 files (it holds 21)" }],
      ],
      [
        { name: "Big", files: { "email.tsx": GREETING, "big.ts": `// ${"x".repeat(500_000)}` } },
        [
          {
            field: "files",
            message: `must hold at most 500,000 characters of source in all (they hold ${(GREETING.length + 500_003).toLocaleString("en-US")})`,
          },
        ],
      ],
      [
        { name: "No entry", files: { "a.tsx": GREETING, "b.tsx": GREETING } },
        [{ field: "entry", message: "is required when none of the files is email.tsx" }],
      ],
      [
        { name: "Bad entry", files: { "a.tsx": GREETING }, entry: "b.tsx" },
        [{ field: "entry", message: 'must be one of the files ("b.tsx" is not)' }],
      ],
      [
        { name: "Not source", files: { "email.tsx": 1 } },
        [{ field: "files.email.tsx", message: "must be the file's source, a string" }],
      ],
      [
        { name: "Code", code: GREETING, files: { "email.tsx": GREETING } },
        [{ field: "code", message: "code is not a recognised field" }],
      ],
    ];
    for (const [body, expected] of cases) expect(outcome(await create(user, body))).toEqual(invalid(expected));
    expect(await counter(user, "api_calls")).toBe(cases.length);
    expect(await getDb()`select id from templates where owner_account_id = ${user.accountId}`).toEqual([]);
  });

  it("refuses a forbidden import in any file, naming the file, the import, its line and column", async () => {
    const user = await createUser("monthly");
    const withFooter = (footer: string) => ({ name: "Imports", files: { ...GRAPH, "components/footer.tsx": footer } });
    expect(
      outcome(
        await create(
          user,
          withFooter(
            `import { Text } from "@react-email/components";\nimport fs from "fs";\nexport function Footer() { return <Text>{String(fs)}</Text>; }\n`,
          ),
        ),
      ),
    ).toEqual(
      invalid([
        {
          field: "files.components/footer.tsx",
          message: `line 2, column 16: Import of "fs" is not allowed: ${NOT_ALLOWED}`,
        },
      ]),
    );
    expect(
      outcome(
        await create(
          user,
          withFooter(
            `import { CodeBlock } from "@react-email/components";\nexport function Footer() { return <CodeBlock />; }\n`,
          ),
        ),
      ),
    ).toEqual(
      invalid([
        {
          field: "files.components/footer.tsx",
          message: "line 1, column 10: CodeBlock is not available in uploaded templates; use CodeInline or <pre>",
        },
      ]),
    );
    expect(
      outcome(
        await create(user, withFooter(`export { brand } from "./nope";\nexport function Footer() { return null; }\n`)),
      ),
    ).toEqual(
      invalid([
        {
          field: "files.components/footer.tsx",
          message:
            'line 1, column 23: Import of "./nope" names none of the template\'s files (it would be components/nope, components/nope.tsx, .ts, .jsx or .js, or an index file in components/nope/)',
        },
      ]),
    );
    expect(
      outcome(
        await create(
          user,
          withFooter(`import { x } from "../../outside";\nexport function Footer() { return null; }\n`),
        ),
      ),
    ).toEqual(
      invalid([
        {
          field: "files.components/footer.tsx",
          message: 'line 1, column 19: Import of "../../outside" leads outside the template\'s files',
        },
      ]),
    );
    expect(await getDb()`select id from templates where owner_account_id = ${user.accountId}`).toEqual([]);
  });

  it("refuses a compile error naming its file, line and column", async () => {
    const user = await createUser("monthly");
    const result = await create(user, {
      name: "Broken",
      files: { ...GRAPH, "components/footer.tsx": `export function Footer() {\n  return <p>{oops</p>;\n}\n` },
    });
    expect(outcome(result)).toEqual(
      invalid([
        {
          field: "files.components/footer.tsx",
          message:
            'line 2, column 22: Syntax error: Error transforming components/footer.tsx: Unexpected token, expected ","',
        },
      ]),
    );
    const noDefault = await create(user, { name: "No default", files: { "email.tsx": "export const x = 1;\n" } });
    expect(outcome(noDefault)).toEqual(
      invalid([
        {
          field: "files.email.tsx",
          message:
            "line 1, column 1: The template must have a default export: the email component (e.g. `export default function Email(props) { ... }`)",
        },
      ]),
    );
  });

  it("refuses $ref as a key in a default of the props, which tools reading the schema would follow; a $ref member is a name", async () => {
    const user = await createUser("monthly");
    const beacon = `import { Html, Text } from "@react-email/components";
type Props = { logo?: { $ref: string }; shipping?: { address?: { street: string; extra?: { $ref: string } } } };
export default function Beacon({ logo = { $ref: "http://127.0.0.1:9911/beacon" } }: Props) {
  return <Html><Text>{logo?.$ref}</Text></Html>;
}
`;
    const refused = (at: string) =>
      invalid([
        {
          field: "files.email.tsx",
          message: `$ref cannot be a key in a default, as at ${at} (JSON Schema tools would follow it as a reference)`,
        },
      ]);
    expect(outcome(await create(user, { name: "Beacon", files: { "email.tsx": beacon } }))).toEqual(
      refused("variables.logo.$ref"),
    );
    expect(await getDb()`select id from templates where owner_account_id = ${user.accountId}`).toEqual([]);

    // Without the default the same props type saves: `$ref` as a member's name is no reference.
    const named = beacon.replace(` = { $ref: "http://127.0.0.1:9911/beacon" }`, "");
    const created = await create(user, { name: "Named", files: { "email.tsx": named } });
    expect(created.status).toBe(201);
    expect(created.body.template.variables.properties.logo).toEqual({
      type: "object",
      properties: { $ref: { type: "string" } },
      required: ["$ref"],
      additionalProperties: true,
    });
    const { id } = created.body.template;
    const nested = beacon.replace(
      `{ logo = { $ref: "http://127.0.0.1:9911/beacon" } }`,
      `{ logo = { $ref: "" }, shipping: { address = { street: "", extra: { $ref: "/etc/hostname" } } } = {} }`,
    );
    expect(outcome(await replace(user, id, { name: "Named", files: { "email.tsx": nested } }))).toEqual(
      refused("variables.logo.$ref"),
    );
    const deep = nested.replace(`logo = { $ref: "" }, `, "");
    expect(outcome(await replace(user, id, { name: "Named", files: { "email.tsx": deep } }))).toEqual(
      refused("variables.shipping.address.extra.$ref"),
    );
    expect((await source(user, id)).body.source.code).toBe(named);
  });

  it("answers 422 RENDER_ERROR when the trial render fails, storing nothing", async () => {
    const user = await createUser("monthly");
    const result = await create(user, {
      name: "Throws",
      files: { ...GRAPH, "copy.ts": `export const signOff: string = (() => { throw new Error("no copy"); })();\n` },
    });
    expect(outcome(result)).toEqual({
      status: 422,
      body: {
        error: "Template render failed",
        code: "RENDER_ERROR",
        message: "The trial render failed: Template threw: Error: no copy",
        success: false,
      },
    });
    expect(await getDb()`select id from templates where owner_account_id = ${user.accountId}`).toEqual([]);
  });

  it("refuses a JSX tag that is never closed naming the tag and the line it was opened on", async () => {
    const user = await createUser("monthly");
    const unclosed = `import { Html, Text } from "@react-email/components";
export default function Note() {
  return (
    <Html>
      <Text>Hello
    </Html>
  );
}
`;
    expect(outcome(await create(user, { name: "Unclosed", files: { "email.tsx": unclosed } }))).toEqual(
      invalid([
        {
          field: "files.email.tsx",
          message: "line 5, column 8: Syntax error: `<Text>` opened on line 5 is never closed",
        },
      ]),
    );
  });

  it("names the line and column tsc names for the editor's starter with its first </Text> deleted, and the tag a closer of another name closes", async () => {
    const user = await createUser("monthly");
    const withoutText = STARTER_TEMPLATE.replace("          </Text>\n", "");
    expect(withoutText).not.toBe(STARTER_TEMPLATE);
    expect(outcome(await create(user, { name: "Starter", files: { "email.tsx": withoutText } }))).toEqual(
      invalid([
        {
          field: "files.email.tsx",
          message: "line 16, column 12: Syntax error: `<Text>` opened on line 16 is never closed",
        },
      ]),
    );
    // Sucrase compiled this one, closing <Text> with </Heading>.
    const wrongCloser = STARTER_TEMPLATE.replace("          </Text>\n", "          </Heading>\n");
    expect(outcome(await create(user, { name: "Starter", files: { "email.tsx": wrongCloser } }))).toEqual(
      invalid([
        {
          field: "files.email.tsx",
          message: "line 18, column 13: Syntax error: `<Text>` opened on line 16 is closed by `</Heading>`",
        },
      ]),
    );
    // And this one, showing "Text>" in the email: what typing </Text> after the editor's own </Text> made.
    const twice = STARTER_TEMPLATE.replace("          </Text>\n", "          </Text>Text>\n");
    expect(outcome(await create(user, { name: "Starter", files: { "email.tsx": twice } }))).toEqual(
      invalid([
        {
          field: "files.email.tsx",
          message: "line 18, column 22: Syntax error: `>` cannot appear in JSX text: write `{'>'}` or `&gt;`",
        },
      ]),
    );
    expect(await getDb()`select id from templates where owner_account_id = ${user.accountId}`).toEqual([]);
  });

  it("answers 422 RENDER_ERROR naming the required variables PreviewProps lacks when the trial render fails", async () => {
    const user = await createUser("monthly");
    const order = (previewProps: string) => `import { Html, Text } from "@react-email/components";
export default function Order({ customer, items, total }: { customer: string; items: string[]; total: number; note?: string }) {
  return <Html><Text>{customer}: {items.map((item) => item).join(", ")} for {total.toFixed(2)}</Text></Html>;
}
${previewProps}
`;
    const renderError = (message: string) => ({
      status: 422,
      body: { error: "Template render failed", code: "RENDER_ERROR", message, success: false },
    });
    expect(
      outcome(
        await create(user, {
          name: "Order",
          files: { "email.tsx": order('Order.PreviewProps = { customer: "Ada" };') },
        }),
      ),
    ).toEqual(
      renderError(
        "PreviewProps lacks the required variables items, total: the example render failed with: Template threw: TypeError: cannot read property 'map' of undefined",
      ),
    );
    expect(
      outcome(
        await create(user, {
          name: "Order",
          files: { "email.tsx": order('Order.PreviewProps = { customer: "Ada", items: ["Pen"] };') },
        }),
      ),
    ).toEqual(
      renderError(
        "PreviewProps lacks the required variable total: the example render failed with: Template threw: TypeError: cannot read property 'toFixed' of undefined",
      ),
    );
    expect(outcome(await create(user, { name: "Order", files: { "email.tsx": order("") } }))).toEqual(
      renderError(
        "PreviewProps is not set, so it lacks the required variables customer, items, total: the example render failed with: Template threw: TypeError: cannot read property 'map' of undefined",
      ),
    );
    expect(await getDb()`select id from templates where owner_account_id = ${user.accountId}`).toEqual([]);
  });

  it("answers 403 LIBRARY_LIMIT_REACHED once the free plan's library is full", async () => {
    const user = await createUser("free");
    for (let i = 0; i < 10; i++) {
      await createUserTemplate(user.accountId, {
        name: `Filler ${i}`,
        description: "",
        code: GREETING,
        compiledCode: null,
        variables: OPEN_VARIABLES_SCHEMA,
        previewProps: null,
      });
    }
    expect(outcome(await create(user, { name: "Eleventh", files: { "email.tsx": GREETING } }))).toEqual({
      status: 403,
      body: {
        error: "Library limit reached",
        code: "LIBRARY_LIMIT_REACHED",
        success: false,
        message:
          "Your free plan's library holds 10 templates and it is full. Upgrade to a paid plan for an unlimited library.",
      },
    });
    const [{ n }] = await getDb()<{ n: number }[]>`
      select count(*)::int as n from templates where owner_account_id = ${user.accountId}`;
    expect(n).toBe(10);
  });
});

describe("POST /api/v1/templates/{id}/render, format react", () => {
  it("answers every file of a template of several files, the entry's with the variables applied; together they compile and render as the template does", async () => {
    const user = await createUser("monthly");
    const files = {
      "email.tsx": `import { Html, Text } from "@react-email/components";
import { Footer } from "./components/footer";

export default function Welcome({ name }: { name: string }) {
  return <Html><Text>Welcome, {name}</Text><Footer /></Html>;
}
Welcome.PreviewProps = { name: "Ada" };
`,
      "components/footer.tsx": GRAPH["components/footer.tsx"],
      "components/tokens.ts": GRAPH["components/tokens.ts"],
      "copy.ts": GRAPH["copy.ts"],
    };
    const id = (await create(user, { name: "Welcome", files })).body.template.id;
    const answer = await call(postRender, `/api/v1/templates/${id}/render`, {
      method: "POST",
      params: { id },
      headers: auth(user),
      body: { variables: { name: "Grace" }, format: "react" },
    });
    const react = applyVariablesToSource(files["email.tsx"], { name: "Grace" });
    expect(outcome(answer)).toEqual({
      status: 200,
      body: { success: true, react, files: { ...files, "email.tsx": react }, entry: "email.tsx" },
    });

    // The files written into one folder, as a caller would, compile (each as its own module) and render as the API.
    const Component = await importTsxFiles(answer.body.files, answer.body.entry);
    const html = await renderEmail(createElement(Component));
    expect(html).toBe((await render(user, id, { name: "Grace" })).body.html);
  });
});

describe("line endings", () => {
  const crlf = (text: string) => text.replaceAll("\n", "\r\n");

  it("stores \\n whatever a file was sent with (\\r\\n, or a lone \\r): GET /source and format react answer it", async () => {
    const user = await createUser("monthly");
    const created = await create(user, {
      name: "Welcome",
      files: {
        "email.tsx": crlf(GRAPH["email.tsx"]),
        "components/footer.tsx": crlf(GRAPH["components/footer.tsx"]),
        "components/tokens.ts": GRAPH["components/tokens.ts"].replaceAll("\n", "\r"),
        "copy.ts": GRAPH["copy.ts"],
      },
    });
    const id = created.body.template.id;
    expect(outcome(await source(user, id))).toEqual({
      status: 200,
      body: {
        success: true,
        source: { name: "Welcome", description: "", code: GRAPH["email.tsx"], files: GRAPH, entry: "email.tsx" },
      },
    });
    const react = applyVariablesToSource(GRAPH["email.tsx"], { name: "Grace" });
    const answer = await call(postRender, `/api/v1/templates/${id}/render`, {
      method: "POST",
      params: { id },
      headers: auth(user),
      body: { variables: { name: "Grace" }, format: "react" },
    });
    expect(outcome(answer)).toEqual({
      status: 200,
      body: { success: true, react, files: { ...GRAPH, "email.tsx": react }, entry: "email.tsx" },
    });

    expect((await replace(user, id, { name: "Greeting", files: { "email.tsx": crlf(GREETING) } })).status).toBe(200);
    expect(outcome(await source(user, id))).toEqual({
      status: 200,
      body: { success: true, source: { name: "Greeting", description: "", code: GREETING } },
    });
  });

  it("says where a refused character is in the file as stored", async () => {
    const user = await createUser("monthly");
    const result = await create(user, { name: "NUL", files: { "email.tsx": "const a = 1;\rconst b = 2;\r\n\0" } });
    expect(outcome(result)).toEqual(
      invalid([
        {
          field: "files.email.tsx",
          message: "line 3, column 1: A template's source must not contain the NUL character (\\u0000)",
        },
      ]),
    );
  });
});

describe("PUT /api/v1/templates/{id}", () => {
  it("replaces the files, name and description of the caller's own template; renders use the new code", async () => {
    const user = await createUser("free");
    const created = await create(user, { name: "Welcome", files: GRAPH });
    const id = created.body.template.id;
    expect((await render(user, id, { name: "Grace" })).body.html).toContain("The Acme team");
    const replaced = await replace(user, id, {
      name: "Greeting",
      description: "Now one file",
      files: { "email.tsx": GREETING },
    });
    expect(outcome(replaced)).toEqual({
      status: 200,
      body: {
        success: true,
        template: await ownTemplate(user, id, {
          name: "Greeting",
          description: "Now one file",
          variables: GREETING_VARIABLES,
          example: { name: "Ada" },
          version: 2,
        }),
      },
    });
    expect(replaced.headers.get("x-ratelimit-remaining")).toBe("497");
    const rendered = await render(user, id, { name: "Grace" });
    expect(rendered.body.html).toContain("Hello <!-- -->Grace");
    expect(rendered.body.html).not.toContain("The Acme team");
    expect(outcome(await source(user, id))).toEqual({
      status: 200,
      body: { success: true, source: { name: "Greeting", description: "Now one file", code: GREETING } },
    });
  });

  it("checks the new files as creation does, and keeps the old ones when they fail", async () => {
    const user = await createUser("monthly");
    const id = (await create(user, { name: "Greeting", files: { "email.tsx": GREETING } })).body.template.id;
    const broken = await replace(user, id, { name: "Greeting", files: { "email.tsx": `import x from "os";\n` } });
    expect(outcome(broken)).toEqual(
      invalid([
        { field: "files.email.tsx", message: `line 1, column 15: Import of "os" is not allowed: ${NOT_ALLOWED}` },
      ]),
    );
    expect((await source(user, id)).body.source.code).toBe(GREETING);
    expect(outcome(await replace(user, id, { name: "", files: {} }))).toEqual(
      invalid([
        { field: "name", message: "name must not be empty" },
        { field: "files", message: "must hold at least one file" },
      ]),
    );
  });

  it("answers 404 for a catalogue template, another account's and a malformed id, before compiling anything", async () => {
    const owner = await createUser("monthly");
    const other = await createUser("monthly");
    const { template_id: welcomeId } = await addToLibrary(other, "welcome");
    const ownersId = (await create(owner, { name: "Mine", files: { "email.tsx": GREETING } })).body.template.id;
    const broken = { name: "Taken", files: { "email.tsx": "export default (" } };
    for (const id of [
      welcomeId,
      await catalogueId("receipt"),
      ownersId,
      "not-a-uuid",
      "4b8f5d0e-7c1a-4e2b-9d3f-0a1b2c3d4e5f",
    ]) {
      expect(outcome(await replace(other, id, broken))).toEqual({ status: 404, body: TEMPLATE_NOT_FOUND });
      expect(outcome(await replace(other, id, { name: "Taken", files: { "email.tsx": GREETING } }))).toEqual({
        status: 404,
        body: TEMPLATE_NOT_FOUND,
      });
    }
    expect((await source(owner, ownersId)).body.source.name).toBe("Mine");
  });
});

describe("DELETE /api/v1/templates/{id}", () => {
  it("deletes the caller's own template and its library entry; it then renders 404", async () => {
    const user = await createUser("free");
    await addToLibrary(user, "welcome");
    const id = (await create(user, { name: "Welcome", files: GRAPH })).body.template.id;
    const deleted = await remove(user, id);
    expect(outcome(deleted)).toEqual({ status: 200, body: { success: true } });
    expect(deleted.headers.get("x-ratelimit-remaining")).toBe("498");
    const library = await call(getLibrary, "/api/v1/library", { headers: auth(user) });
    expect(library.body.templates.map((t: { slug: string | null }) => t.slug)).toEqual(["welcome"]);
    expect(outcome(await render(user, id))).toEqual({ status: 404, body: TEMPLATE_NOT_FOUND });
    expect(outcome(await details(user, id))).toEqual({ status: 404, body: TEMPLATE_NOT_FOUND });
    expect(outcome(await source(user, id))).toEqual({ status: 404, body: TEMPLATE_NOT_FOUND });
    expect(outcome(await remove(user, id))).toEqual({ status: 404, body: TEMPLATE_NOT_FOUND });
    expect(await getDb()`select id from templates where id = ${id}`).toEqual([]);
  });

  it("answers 404 for a catalogue template in the library, another account's and a malformed id, deleting nothing", async () => {
    const owner = await createUser("monthly");
    const other = await createUser("monthly");
    const { template_id: welcomeId } = await addToLibrary(other, "welcome");
    const ownersId = (await create(owner, { name: "Mine", files: { "email.tsx": GREETING } })).body.template.id;
    for (const id of [welcomeId, ownersId, "not-a-uuid"]) {
      expect(outcome(await remove(other, id))).toEqual({ status: 404, body: TEMPLATE_NOT_FOUND });
    }
    expect((await call(getLibrary, "/api/v1/library", { headers: auth(other) })).body.pagination.total).toBe(1);
    expect((await render(owner, ownersId)).status).toBe(200);
  });
});

describe("the admin CLI", () => {
  it(
    "template:create takes several --file (paths from their common folder), template:update replaces them",
    { timeout: 120_000 },
    async () => {
      const user = await createUser("monthly");
      const folder = await mkdtemp(path.join(tmpdir(), "letterpress-cli-"));
      await mkdir(path.join(folder, "welcome", "components"), { recursive: true });
      const file = (name: string) => path.join(folder, "welcome", name);
      for (const [name, code] of Object.entries(GRAPH)) await writeFile(file(name), code);
      const created = await adminProcess([
        "template:create",
        "--email",
        user.email,
        "--name",
        "Welcome",
        ...Object.keys(GRAPH).flatMap((name) => ["--file", file(name)]),
      ]);
      expect(created).toEqual({ id: expect.any(String), name: "Welcome" });
      expect((await source(user, created.id)).body.source).toEqual({
        name: "Welcome",
        description: "",
        code: GRAPH["email.tsx"],
        files: GRAPH,
        entry: "email.tsx",
      });
      await writeFile(file("components/footer.tsx"), `export function Footer() {\n  return <p>{oops</p>;\n}\n`);
      await expect(
        admin([
          "template:update",
          "--email",
          user.email,
          "--id",
          created.id,
          ...Object.keys(GRAPH).flatMap((name) => ["--file", file(name)]),
        ]),
      ).rejects.toThrow(`${file("components/footer.tsx")}:2:22: Syntax error`);
      await writeFile(file("main.tsx"), GREETING);
      const updated = await admin([
        "template:update",
        "--email",
        user.email,
        "--id",
        created.id,
        "--file",
        file("main.tsx"),
        "--file",
        file("copy.ts"),
        "--entry",
        file("main.tsx"),
      ]);
      expect(updated).toEqual({ id: created.id, name: "Welcome" });
      expect((await source(user, created.id)).body.source).toEqual({
        name: "Welcome",
        description: "",
        code: GREETING,
        files: { "main.tsx": GREETING, "copy.ts": GRAPH["copy.ts"] },
        entry: "main.tsx",
      });
    },
  );

  it(
    "template:create sets the alias, template:update finds the template by it and changes it; a bad or taken one is refused",
    { timeout: 120_000 },
    async () => {
      const user = await createUser("monthly");
      const folder = await mkdtemp(path.join(tmpdir(), "letterpress-cli-"));
      const file = path.join(folder, "greeting.tsx");
      await writeFile(file, GREETING);
      const base = ["--email", user.email, "--file", file];
      const created = await admin(["template:create", ...base, "--name", "Greeting", "--alias", "greeting"]);
      expect((await details(user, "greeting")).body.template).toMatchObject({ id: created.id, alias: "greeting" });

      const updated = await admin(["template:update", ...base, "--id", "greeting", "--alias", "greeting.v2"]);
      expect(updated).toEqual({ id: created.id, name: "Greeting" });
      expect((await details(user, created.id)).body.template.alias).toBe("greeting.v2");
      await admin(["template:update", ...base, "--id", "greeting.v2"]);
      expect((await details(user, created.id)).body.template.alias).toBe("greeting.v2");

      // --draft saves the draft, its first revision, and renders and sends keep the published version.
      await writeFile(file, GREETING.replace("Hello", "Howdy"));
      await admin(["template:update", ...base, "--id", "greeting.v2", "--draft"]);
      expect((await details(user, created.id)).body.template).toMatchObject({ version: 1, draft: { revision: 1 } });
      expect((await render(user, created.id, { name: "Ada" })).body.html).toContain("Hello <!-- -->Ada");
      const drafted = await admin(["template:create", ...base, "--name", "Drafted", "--alias", "drafted", "--draft"]);
      expect((await details(user, drafted.id)).body.template).toMatchObject({ version: null, draft: { revision: 1 } });

      await expect(admin(["template:create", ...base, "--name", "Other", "--alias", "Bad Alias"])).rejects.toThrow(
        "--alias may hold only a-z, 0-9, -, _ and .",
      );
      await expect(admin(["template:create", ...base, "--name", "Other", "--alias", "greeting.v2"])).rejects.toThrow(
        'Another of your templates has the alias "greeting.v2"',
      );
    },
  );
});

describe("bin/push-templates.mjs (CI)", () => {
  /** The API's template routes behind a real HTTP server, as the script reaches a deployment. */
  async function serveTemplatesApi(): Promise<{ url: string; close: () => void }> {
    const serve = async (request: IncomingMessage, response: ServerResponse) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const [, id] = /^\/api\/v1\/templates(?:\/([^/]+))?$/.exec(request.url ?? "") ?? [];
      const handler = id === undefined ? postTemplate : putTemplate;
      const result = await call(handler, request.url!, {
        method: request.method,
        headers: { "x-api-key": String(request.headers["x-api-key"]) },
        body: Buffer.concat(chunks).toString(),
        params: id === undefined ? {} : { id },
      });
      response.writeHead(result.status, { "content-type": "application/json" }).end(result.text);
    };
    // A failure is left unhandled on purpose: Vitest fails the run with it.
    const server = createServer((request, response) => void serve(request, response));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`, close: () => server.close() };
  }

  /** The lines the script printed, sorted (folders are pushed in the order the file system lists them). */
  const lines = (output: string) => output.split("\n").filter(Boolean).sort();

  it("saves each folder under its alias: created the first time, drafts with --draft, published without", async () => {
    const user = await createUser("monthly");
    const api = await serveTemplatesApi();
    try {
      const root = await mkdtemp(path.join(tmpdir(), "letterpress-ci-"));
      await mkdir(path.join(root, "welcome", "components"), { recursive: true });
      await mkdir(path.join(root, "greeting"));
      for (const [name, code] of Object.entries(GRAPH)) await writeFile(path.join(root, "welcome", name), code);
      await writeFile(path.join(root, "greeting", "email.tsx"), GREETING);
      const push = (...flags: string[]) =>
        run("node", ["bin/push-templates.mjs", root, ...flags], {
          env: { ...process.env, LETTERPRESS_BASE_URL: api.url, LETTERPRESS_API_KEY: user.key },
        });
      const [welcome, greeting] = [path.join(root, "welcome"), path.join(root, "greeting")];

      // A branch's first push: each template is created with only a draft, which live sends refuse.
      const drafted = await push("--draft");
      const welcomeId = (await details(user, "welcome")).body.template.id;
      const greetingId = (await details(user, "greeting")).body.template.id;
      expect(lines(drafted.stdout)).toEqual([
        `${greeting}: created greeting (${greetingId}), draft revision 1`,
        `${welcome}: created welcome (${welcomeId}), draft revision 1`,
      ]);
      expect((await source(user, "welcome")).body.source).toEqual({
        name: "welcome",
        description: "",
        code: GRAPH["email.tsx"],
        files: GRAPH,
        entry: "email.tsx",
      });
      expect((await details(user, "greeting")).body.template).toMatchObject({ alias: "greeting", version: null });

      // The main branch's push publishes them.
      const published = await push();
      expect(lines(published.stdout)).toEqual([
        `${greeting}: saved greeting (${greetingId}), version 1 published`,
        `${welcome}: saved welcome (${welcomeId}), version 1 published`,
      ]);

      // A change pushed from a branch is a draft: renders and sends keep the published version until it is published.
      await writeFile(path.join(greeting, "email.tsx"), GREETING.replace("Hello", "Howdy"));
      expect(lines((await push("--draft")).stdout)).toEqual([
        `${greeting}: saved greeting (${greetingId}), draft revision 2`,
        `${welcome}: saved welcome (${welcomeId}), draft revision 2`,
      ]);
      expect((await render(user, "greeting", { name: "Grace" })).body.html).toContain("Hello <!-- -->Grace");
      const draft = await call(postRender, "/x", {
        method: "POST",
        params: { id: "greeting" },
        headers: auth(user),
        body: { version: "draft", variables: { name: "Grace" } },
      });
      expect(draft.body.html).toContain("Howdy <!-- -->Grace");
      expect(lines((await push()).stdout)).toEqual([
        `${greeting}: saved greeting (${greetingId}), version 2 published`,
        `${welcome}: saved welcome (${welcomeId}), version 1 published`,
      ]);
      expect((await render(user, "greeting", { name: "Grace" })).body.html).toContain("Howdy <!-- -->Grace");
      expect((await call(getLibrary, "/api/v1/library", { headers: auth(user) })).body.pagination.total).toBe(2);

      await writeFile(path.join(greeting, "email.tsx"), `import fs from "fs";\n`);
      const failed = await push().then(
        () => ({ code: 0, stderr: "" }),
        (error: { code: number; stderr: string }) => error,
      );
      expect([failed.code, failed.stderr]).toEqual([
        1,
        `${greeting}: ${JSON.stringify(
          invalid([
            { field: "files.email.tsx", message: `line 1, column 16: Import of "fs" is not allowed: ${NOT_ALLOWED}` },
          ]).body,
        )}\n`,
      ]);
    } finally {
      api.close();
    }
  });

  it("saves a folder pushed before aliases by the id in its .letterpress-id, and gives it the alias", async () => {
    const user = await createUser("monthly");
    const api = await serveTemplatesApi();
    try {
      const created = await create(user, { name: "Old", files: { "email.tsx": GREETING } });
      const id = created.body.template.id;
      const root = await mkdtemp(path.join(tmpdir(), "letterpress-ci-"));
      const folder = path.join(root, "greeting");
      await mkdir(folder);
      await writeFile(path.join(folder, "email.tsx"), GREETING.replace("Hello", "Howdy"));
      await writeFile(path.join(folder, ".letterpress-id"), `${id}\n`);
      const pushed = await run("node", ["bin/push-templates.mjs", root], {
        env: { ...process.env, LETTERPRESS_BASE_URL: api.url, LETTERPRESS_API_KEY: user.key },
      });
      expect(pushed.stdout).toBe(`${folder}: saved greeting (${id}), version 2 published\n`);
      expect((await details(user, "greeting")).body.template).toMatchObject({ id, name: "greeting", version: 2 });
    } finally {
      api.close();
    }
  });

  it("says how to call it when the folder or the key is missing", async () => {
    const refused = await run("node", ["bin/push-templates.mjs"], {
      env: { ...process.env, LETTERPRESS_API_KEY: "" },
    }).then(
      () => ({ code: 0, stderr: "" }),
      (error: { code: number; stderr: string }) => error,
    );
    expect([refused.code, refused.stderr]).toEqual([
      1,
      "Usage: LETTERPRESS_BASE_URL=<base URL of /api/v1> LETTERPRESS_API_KEY=<key> node push-templates.mjs <folder of templates> [--draft]\n",
    ]);
  });
});
