import { render } from "@react-email/render";
import { createElement } from "react";
import { beforeAll, describe, expect, it } from "vitest";
import { POST as postRender } from "@/app/api/v1/templates/[id]/render/route";
import { getDb } from "@/lib/db/client";
import {
  readTailwindStyles,
  tailwindStylesComment,
  type TailwindClassStyle,
  type TailwindStyles,
} from "@/lib/render/sandbox/tailwind-runtime";
import { AppError } from "@/lib/core/errors";
import { createTemplateFromSource, restyleTailwindTemplates } from "@/lib/templates/user-templates";
import { importTsxFiles } from "../support/tsx";
import { auth, call, createUser, type TestUser } from "../support/api";
import { renderWarnings } from "../support/compatibility";

/** React Email's own kind of template: Tailwind with pixelBasedPreset, a theme extended, a footer in its own file. */
const WELCOME = {
  "email.tsx": `import { Body, Button, Container, Head, Heading, Html, Preview, Section, Tailwind, Text, pixelBasedPreset } from "@react-email/components";
import { Footer } from "./components/footer";

type Props = { name?: string; plan?: string; highlight?: boolean };

export default function Welcome({ name = "there", plan = "Free", highlight = false }: Props) {
  return (
    <Html lang="en">
      <Tailwind
        config={{
          presets: [pixelBasedPreset],
          theme: { extend: { colors: { brand: "#007291", "brand-dark": "#004f64" }, spacing: { 18: "72px" } } },
        }}
      >
        <Head />
        <Preview>Welcome to Acme</Preview>
        <Body className="bg-white font-sans text-gray-900 m-0">
          <Container className="mx-auto my-[40px] max-w-[465px] rounded border border-solid border-[#eaeaea] p-[20px]">
            <Heading className="text-2xl font-bold text-brand sm:text-3xl md:text-4xl">Welcome, {name}</Heading>
            <Text className={highlight ? "text-lg bg-[#123456] text-white p-[13px]" : "text-sm text-gray-500"}>
              You are on the {plan} plan.
            </Text>
            <Section className="mt-8 mb-18 px-4 py-2 sm:px-8 text-center">
              <Button className="rounded bg-brand px-5 py-3 text-center text-xs font-semibold text-white no-underline hover:bg-brand-dark" href="https://example.com/start">
                Get started
              </Button>
            </Section>
            <Footer />
          </Container>
        </Body>
      </Tailwind>
    </Html>
  );
}

Welcome.PreviewProps = { name: "Ada", plan: "Pro", highlight: true } satisfies Props;
`,
  "components/footer.tsx": `import { Hr, Link, Text } from "@react-email/components";

export function Footer() {
  return (
    <>
      <Hr className="mx-0 my-[26px] w-full border border-solid border-[#eaeaea]" />
      <Text className="text-[12px] leading-[24px] text-[#666666] md:text-sm" style={{ fontStyle: "italic" }}>
        Sent by <Link className="text-blue-600 underline" href="https://example.com">Acme</Link>, 1 Main St.
      </Text>
    </>
  );
}
`,
};

/** Without pixelBasedPreset (rem units), with a class on an element outside Tailwind's components and no <head> rules. */
const PLAIN = {
  "email.tsx": `import { Html, Tailwind, Text } from "@react-email/components";

const config = { theme: { extend: { colors: { accent: "#ff6600" } } } };

export default function Plain({ items = [] }: { items?: string[] }) {
  return (
    <Tailwind config={config}>
      <Html>
        <div className="p-4 bg-accent/50 text-accent rounded-lg shadow-md">
          {items.map((item) => (
            <Text key={item} className="m-0 text-base tracking-tight first-word">{item}</Text>
          ))}
        </div>
      </Html>
    </Tailwind>
  );
}

Plain.PreviewProps = { items: ["one", "two"] };
`,
};

let user: TestUser;

beforeAll(async () => {
  user = await createUser("monthly");
});

function renderCall(id: string, body: unknown) {
  return call(postRender, `/api/v1/templates/${id}/render`, {
    method: "POST",
    params: { id },
    headers: auth(user),
    body,
  });
}

async function expectSameAsReactEmail(files: Record<string, string>, variables: Record<string, unknown>) {
  const { id } = await createTemplateFromSource(user.accountId, {
    name: "Tailwind",
    description: "",
    files,
    entry: "email.tsx",
  });
  const result = await renderCall(id, { variables });
  const Native = await importTsxFiles(files, "email.tsx");
  const html = await render(createElement(Native, variables));
  expect(result.status).toBe(200);
  expect(result.body).toEqual({ success: true, html, ...renderWarnings(html) });
  return html;
}

/** Where and why saving `files` was refused: a refused source where it points, or a trial render that failed. */
async function refusedSave(files: Record<string, string>) {
  const failure = await createTemplateFromSource(user.accountId, { name: "T", description: "", files }).catch(
    (error: unknown) => error,
  );
  expect(failure).toBeInstanceOf(AppError);
  const { code, message, options } = failure as AppError;
  return code === "RENDER_ERROR" ? { message } : { ...options.source };
}

/** What the template's one paragraph holds in each of two renders in a row (the second in the same warm sandbox). */
async function paragraphOfTwoRenders(id: string): Promise<string[]> {
  const texts = [];
  for (let i = 0; i < 2; i++) {
    const { status, body } = await renderCall(id, { variables: {} });
    expect(status).toBe(200);
    texts.push(/<p[^>]*>(.*?)<\/p>/.exec((body as { html: string }).html)![1]);
  }
  return texts;
}

describe("<Tailwind> in user templates", () => {
  it("renders as @react-email/render renders it: pixelBasedPreset, theme extend, arbitrary values, responsive classes, a sibling file", async () => {
    const html = await expectSameAsReactEmail(WELCOME, { name: "Grace", plan: "Team", highlight: true });
    // The comparison is with Tailwind at work: classes inlined, the hover rule in <head> under its renamed class.
    expect(html).toContain("background-color:rgb(18,52,86);color:rgb(255,255,255);padding:13px");
    expect(html).toMatch(/<style>[^<]*\.hover_bg-brand-dark:hover\{background-color:rgb\(0,79,100\)!important\}/);
    expect(html).toContain('class="hover_bg-brand-dark"');
    await expectSameAsReactEmail(WELCOME, { name: "Lin" });
  });

  it("keeps a class of its own next to a hover class that Tailwind renames", async () => {
    const html = await expectSameAsReactEmail(
      {
        "email.tsx": `import { Head, Html, Tailwind, Text } from "@react-email/components";

export default function Note() {
  return (
    <Html>
      <Tailwind>
        <Head />
        <Text className="hover:bg-black">Hover</Text>
        <Text className="gmail-fix">Plain</Text>
      </Tailwind>
    </Html>
  );
}
`,
      },
      {},
    );
    expect(html).toContain('class="gmail-fix"');
  });

  it("renders a template saved before its styles headed the code, when its code made its own Tailwind", async () => {
    const { id } = await createTemplateFromSource(user.accountId, { name: "Earlier", description: "", files: WELCOME });
    const db = getDb();
    const [{ compiled_code: code }] = await db<{ compiled_code: string }[]>`
      select compiled_code from templates where id = ${id}`;
    const styles = readTailwindStyles(code)!;
    // The code as it was saved then: the module wrapped, its styles (a class list per config) an array literal.
    const earlier = `(function (require) {
${code.slice(code.indexOf("*/\n") + 3)}
}).call(this, (function (require) {
  var components = require("@react-email/components");
  var view = Object.assign({}, components, { Tailwind: components.Tailwind.withStyles(${JSON.stringify(styles.map(([key, classes]) => [key, classes]))}) });
  Object.defineProperty(view, "__esModule", { value: true });
  Object.defineProperty(view, "default", { value: view });
  return function (specifier) { return specifier === "@react-email/components" ? view : require(specifier); };
})(require));
`;
    await db`update templates set compiled_code = ${earlier}, version = version + 1 where id = ${id}`;
    const variables = { name: "Grace", plan: "Team", highlight: true };
    const html = await render(createElement(await importTsxFiles(WELCOME, "email.tsx"), variables));
    const result = await renderCall(id, { variables });
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ success: true, html, ...renderWarnings(html) });
  });

  it("gives a template no Tailwind that keeps anything between calls or renders", async () => {
    const files = {
      "email.tsx": `import { Html, Tailwind, Text } from "@react-email/components";
export default function E() {
  const make = (Tailwind as unknown as { withStyles: (styles: unknown) => unknown }).withStyles;
  let fromText = "refused";
  try {
    fromText = String(make('[["{}",[]]]') === make('[["{}",[]]]'));
  } catch {}
  return <Html><Text>{fromText} {String(make([["{}", []]]) === make([["{}", []]]))}</Text></Html>;
}
`,
    };
    const { id } = await createTemplateFromSource(user.accountId, { name: "Memo", description: "", files });
    expect(await paragraphOfTwoRenders(id)).toEqual(["refused<!-- --> <!-- -->false", "refused<!-- --> <!-- -->false"]);
  });

  it("keeps nothing a render leaves on Tailwind, which the sandbox makes once for all its renders", async () => {
    const files = {
      "email.tsx": `import { Html, Tailwind, Text } from "@react-email/components";
export default function E() {
  const shared = Tailwind as unknown as { seen?: number; prototype?: { seen?: number } };
  let wrote = "frozen";
  try {
    shared.seen = (shared.seen ?? 0) + 1;
    wrote = "wrote";
  } catch {}
  return <Html><Tailwind><Text className="p-4">{wrote} {String(shared.seen)} {typeof shared.prototype}</Text></Tailwind></Html>;
}
`,
    };
    const { id } = await createTemplateFromSource(user.accountId, { name: "Leak", description: "", files });
    expect(await paragraphOfTwoRenders(id)).toEqual([
      "frozen<!-- --> <!-- -->undefined<!-- --> <!-- -->undefined",
      "frozen<!-- --> <!-- -->undefined<!-- --> <!-- -->undefined",
    ]);
  });

  it("renders a config given as a const, without a <head>", async () => {
    await expectSameAsReactEmail(PLAIN, { items: ["a", "b", "c"] });
  });

  it("refuses a config that is not written as a literal, naming its file, line and column", async () => {
    const files = {
      "email.tsx": `import { Html, Tailwind } from "@react-email/components";
import { theme } from "./theme";
export default function E() {
  return <Tailwind config={{ theme }}><Html /></Tailwind>;
}
`,
      "theme.ts": `export const theme = { extend: {} };\n`,
    };
    expect(await refusedSave(files)).toEqual({
      path: "email.tsx",
      line: 4,
      column: 30,
      message:
        "The Tailwind config must be written as a literal object in the <Tailwind> element or in a const of the same file (strings, numbers, arrays, objects and pixelBasedPreset), so that its CSS is made when the template is saved",
    });
  });

  it("refuses a config whose consts of consts would make it huge, naming its file, line and column", async () => {
    const doublings = Array.from({ length: 20 }, (_, i) => `const a${i + 1} = [a${i}, a${i}];`).join("\n");
    const files = {
      "email.tsx": `import { Html, Tailwind } from "@react-email/components";
const a0 = "x";
${doublings}
export default function E() {
  return <Tailwind config={{ theme: { extend: { spacing: a20 } } }}><Html /></Tailwind>;
}
`,
    };
    expect(await refusedSave(files)).toEqual({
      path: "email.tsx",
      line: 24,
      column: 28,
      message: "The Tailwind config must hold at most 10,000 values (a const counts each time it is used)",
    });
  });

  it("refuses at render a class not written whole in the template's source", async () => {
    const files = {
      "email.tsx": `import { Head, Html, Tailwind, Text } from "@react-email/components";
export default function E({ tone = "red" }: { tone?: string }) {
  return <Html><Tailwind><Head /><Text className={"text-" + tone + "-500"}>Hi</Text></Tailwind></Html>;
}
E.PreviewProps = { tone: "red" };
`,
    };
    expect((await refusedSave(files)).message).toContain('The class "text-red-500" is not written whole');
  });

  it("refuses classes that combine through CSS variables, naming them and the <Tailwind> they are styled by", async () => {
    const files = {
      "email.tsx": `import { Head, Html, Tailwind, Text } from "@react-email/components";
export default function E() {
  return (
    <Html>
      <Tailwind>
        <Head />
        <Text className="p-4 shadow-md ring-2">Hi</Text>
      </Tailwind>
    </Html>
  );
}
`,
    };
    expect(await refusedSave(files)).toEqual({
      path: "email.tsx",
      line: 5,
      column: 7,
      message:
        "Tailwind classes shadow-md and ring-2 combine through CSS variables, which user templates do not support yet; use one of them or inline the style",
    });
  });

  it("renders classes that share CSS variables without changing each other's style, as @react-email/render does", async () => {
    const files = {
      "email.tsx": `import { Head, Html, Tailwind, Text } from "@react-email/components";
export default function E({ tilted = true }: { tilted?: boolean }) {
  return (
    <Html>
      <Tailwind>
        <Head />
        <Text className="border border-solid border-gray-300 shadow-md">Boxed</Text>
        <Text className={tilted ? "translate-x-2 rotate-3 blur-sm" : "border-solid border"}>Tilted</Text>
      </Tailwind>
    </Html>
  );
}
`,
    };
    const html = await expectSameAsReactEmail(files, { tilted: true });
    expect(html).toContain("border-style:solid;border-width:1px");
    await expectSameAsReactEmail(files, { tilted: false });
  });
});

describe("one account's Tailwind classes never reach another's styles", () => {
  const attackerTemplate = (config: string, className: string) => ({
    "email.tsx": `import { Head, Html, Tailwind, Text, pixelBasedPreset } from "@react-email/components";
export default function E() {
  return <Html><Tailwind${config}><Head /><Text className="${className}">A</Text></Tailwind></Html>;
}
`,
  });
  const victimTemplate = (config: string) => ({
    "email.tsx": `import { Head, Html, Section, Tailwind, Text, pixelBasedPreset } from "@react-email/components";
export default function E() {
  return <Html><Tailwind${config}><Head /><Section className="group"><Text className="p-4">B</Text></Section></Tailwind></Html>;
}
`,
  });

  it.each([
    [
      "the same config",
      " config={{ presets: [pixelBasedPreset] }}",
      "group-hover:content-['</style><img_src=https://attacker.example/p.png>']",
      "attacker.example",
    ],
    ["no config", "", "group-hover:bg-[url(https://private.a.example/SECRET)]", "private.a.example"],
  ])("with %s, a group class of B's gets no rule made for A's group-hover class", async (_, config, theirs, secret) => {
    const [a, b] = [await createUser("monthly"), await createUser("monthly")];
    await createTemplateFromSource(a.accountId, {
      name: "A",
      description: "",
      files: attackerTemplate(config, theirs),
    });
    const files = victimTemplate(config);
    const { id } = await createTemplateFromSource(b.accountId, { name: "B", description: "", files });
    const result = await call(postRender, `/api/v1/templates/${id}/render`, {
      method: "POST",
      params: { id },
      headers: auth(b),
      body: {},
    });
    expect(result.status).toBe(200);
    expect(result.body.html).not.toContain(secret);
    // Byte for byte what React Email makes of B alone (this test file's own Tailwind never saw A's class).
    const html = await render(createElement(await importTsxFiles(files, "email.tsx"), {}));
    expect(result.body).toEqual({ success: true, html, ...renderWarnings(html) });
  });

  it("writes no CSS that can close its <style> element", async () => {
    const a = await createUser("monthly");
    const className = "group-hover:content-['</style><img_src=https://attacker.example/p.png>'] group";
    const files = attackerTemplate(" config={{ presets: [pixelBasedPreset] }}", className);
    const { id } = await createTemplateFromSource(a.accountId, { name: "A", description: "", files });
    const result = await call(postRender, `/api/v1/templates/${id}/render`, {
      method: "POST",
      params: { id },
      headers: auth(a),
      body: {},
    });
    expect(result.status).toBe(200);
    const html = result.body.html as string;
    expect(html.match(/<\/style/gi)).toEqual(["</style"]);
    expect(html).toContain(`--tw-content:"<\\/style><img src=https://attacker.example/p.png>"`);
  });

  it("template:restyle makes a stored template's styles again from its source, dropping a rule made for another's class", async () => {
    const b = await createUser("monthly");
    const files = victimTemplate(" config={{ presets: [pixelBasedPreset] }}");
    const { id } = await createTemplateFromSource(b.accountId, { name: "B", description: "", files });
    const db = getDb();
    const [{ compiled_code: clean }] = await db<{ compiled_code: string }[]>`
      select compiled_code from templates where id = ${id}`;
    // As a compile worker shared with another account's template made it before: a rule for `group` of theirs.
    const leaked = readTailwindStyles(clean)!.map(([key, classes, classNames]) => [
      key,
      classes.map(([name, style]): [string, TailwindClassStyle] =>
        name === "group"
          ? [
              name,
              {
                style: {},
                className: "group",
                css: ":is(:where(.group):hover .x){background-image:url(https://private.a.example/SECRET)!important}",
                order: 0,
              },
            ]
          : [name, style],
      ),
      classNames,
    ]) as TailwindStyles;
    const stale = `${tailwindStylesComment(leaked)}${clean.slice(clean.indexOf("*/\n") + 3)}`;
    // The template's own code and its version 1 (the versions migration copied the code), and a draft of it.
    await db`update templates set compiled_code = ${stale}, version = version + 1 where id = ${id}`;
    await db`update template_versions set compiled_code = ${stale} where template_id = ${id}`;
    await db`
      insert into template_drafts (template_id, revision, code, files, entry, compiled_code, variables)
      select id, 1, code, files, entry, ${stale}, variables from templates where id = ${id}`;
    const renderB = (version?: number | "draft") =>
      call(postRender, `/api/v1/templates/${id}/render`, {
        method: "POST",
        params: { id },
        headers: auth(b),
        body: { version },
      });
    for (const version of [undefined, 1, "draft"] as const)
      expect((await renderB(version)).body.html).toContain("private.a.example");

    expect(await restyleTailwindTemplates(b.accountId)).toEqual({ restyled: 3, failed: [] });
    const html = await render(createElement(await importTsxFiles(files, "email.tsx"), {}));
    for (const version of [undefined, 1, "draft"] as const)
      expect(await renderB(version)).toMatchObject({ status: 200, body: { success: true, html } });
    // Nothing left to make again.
    expect(await restyleTailwindTemplates(b.accountId)).toEqual({ restyled: 0, failed: [] });
  });

  it("template:restyle compiles a localized template with its fallbacks merged in, as its save did", async () => {
    const c = await createUser("monthly");
    const files = {
      "email.tsx": `import { Html, Tailwind, Text } from "@react-email/components";
import { createTranslator } from "next-intl";
export default async function Hello({ locale = "en" }: { locale?: string }) {
  const messages = (await import(\`./messages/\${locale}.json\`)).default;
  const t = createTranslator({ locale, messages });
  return <Html><Tailwind><Text className="text-sm">{t("title")} {t("body")}</Text></Tailwind></Html>;
}`,
      "messages/en.json": JSON.stringify({ title: "Hello", body: "Welcome" }),
      "messages/fr.json": JSON.stringify({ body: "Bienvenue" }),
    };
    const { id } = await createTemplateFromSource(c.accountId, { name: "C", description: "", files });
    const db = getDb();
    // Saved code that restyling must make again (any difference from what the source compiles to).
    await db`update templates set compiled_code = compiled_code || ${"\n// stale"}, version = version + 1 where id = ${id}`;
    expect(await restyleTailwindTemplates(c.accountId)).toEqual({ restyled: 1, failed: [] });
    const result = await call(postRender, `/api/v1/templates/${id}/render`, {
      method: "POST",
      params: { id },
      headers: auth(c),
      body: { locale: "fr", plain_text: true },
    });
    expect(result).toMatchObject({ status: 200, body: { success: true, locale: "fr" } });
    expect(result.body.text).toBe("Hello Bienvenue");
  });
});
