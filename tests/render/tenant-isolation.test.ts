/**
 * Nothing one account's input leaves in a shared cache or a long-lived object reaches another account's work: one
 * test per row of the table "What is shared between accounts, and why it is safe" (docs/architecture.md) that holds
 * data derived from a user's input. Each has two accounts, and the second must never see the first's input.
 */
import { render } from "@react-email/render";
import { createElement } from "react";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { POST as postRender } from "@/app/api/v1/templates/[id]/render/route";
import { renderDraft } from "@/lib/dashboard/preview";
import { stopCatalogueWorkers } from "@/lib/render/workers/catalogue-pool";
import { checkCompatibility } from "@/lib/render/analysis/compatibility";
import { disposeSandboxes, getSandboxStats } from "@/lib/render/sandbox";
import { answerIntlRequest, cachedFormatterCount, clearFormatterCache } from "@/lib/render/sandbox/host-intl";
import {
  applyVariablesOffThread,
  compileTemplateFilesOffThread,
  compileTemplateOffThread,
  stopCompileWorkers,
} from "@/lib/render/sandbox/compile-pool";
import { createTemplateFromSource, replaceTemplateFromSource } from "@/lib/templates/user-templates";
import { importTsx } from "../support/tsx";
import { auth, call, catalogueId, createUser, type TestUser } from "../support/api";

let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  [alice, bob] = [await createUser("monthly"), await createUser("monthly")];
});

afterAll(() => Promise.all([disposeSandboxes(), stopCompileWorkers(), stopCatalogueWorkers()]));

function renderCall(caller: TestUser, id: string, body: unknown) {
  return call(postRender, `/api/v1/templates/${id}/render`, {
    method: "POST",
    params: { id },
    headers: auth(caller),
    body,
  });
}

async function create(owner: TestUser, code: string): Promise<string> {
  return (await createTemplateFromSource(owner.accountId, { name: "Isolation", description: "", code })).id;
}

/** Tries to leave its `secret` wherever one render could hand it to another: every write is caught, and counted. */
const WRITER = `import * as React from "react";
import * as Components from "@react-email/components";
import { Html, Text } from "@react-email/components";

export default function Writer({ secret = "" }: { secret?: string }) {
  const attempts: Array<() => void> = [
    () => { (globalThis as any).tenantLeak = secret; },
    () => { (Object.prototype as any).tenantLeak = secret; },
    () => { Object.defineProperty(Object.prototype, "tenantLeak", { get: () => secret }); },
    () => { (Array.prototype as any).tenantLeak = secret; },
    () => { (Array.prototype as any).map = () => [secret]; },
    () => { (String.prototype as any).tenantLeak = secret; },
    () => { (Function.prototype as any).tenantLeak = secret; },
    () => { (React as any).tenantLeak = secret; },
    () => { (React as any).createElement = () => secret; },
    () => { (Components as any).tenantLeak = secret; },
    () => { (Components as any).Text = () => secret; },
    () => { (JSON as any).stringify = () => secret; },
    () => { (Math as any).max = () => secret; },
  ];
  let refused = 0;
  for (const attempt of attempts) {
    try { attempt(); } catch { refused++; }
  }
  return <Html><Text>{\`\${refused} of \${attempts.length} writes refused\`}</Text></Html>;
}

Writer.PreviewProps = { secret: "preview" };
`;

/** Reads every place WRITER writes to; natively (in Node, where nothing wrote) it reads them untouched. */
const READER = `import * as React from "react";
import * as Components from "@react-email/components";
import { Head, Html, Text } from "@react-email/components";

export default function Reader({ name = "there" }: { name?: string }) {
  const seen = [
    typeof (globalThis as any).tenantLeak,
    typeof ({} as any).tenantLeak,
    typeof ([] as any).tenantLeak,
    typeof ("" as any).tenantLeak,
    typeof (function () {} as any).tenantLeak,
    typeof (React as any).tenantLeak,
    typeof (Components as any).tenantLeak,
    [1, 2].map((n) => n * 2).join(","),
    JSON.stringify({ n: 1 }),
    String(Math.max(1, 2)),
  ].join(" ");
  return <Html><Head /><Text>Hello {name}</Text><Text>{seen}</Text></Html>;
}

Reader.PreviewProps = { name: "Bob" };
`;

const HELLO = `import { Html, Text } from "@react-email/components";
export default function Hello({ name = "there" }: { name?: string }) {
  return <Html><Text>Hello {name}</Text></Html>;
}
`;

describe("the template sandbox", () => {
  it("one account's template writing to globalThis, shared imports and built-ins leaves nothing for another account's render", async () => {
    const variables = { name: "Bob" };
    const Reader = await importTsx(READER);
    const element = createElement(Reader, variables);
    const expected = {
      status: 200,
      body: { success: true, html: await render(element), text: await render(element, { plainText: true }) },
    };
    const bobsReader = await create(bob, READER);
    const read = async (id: string) => {
      const result = await renderCall(bob, id, { variables, plain_text: true });
      return { status: result.status, body: result.body };
    };
    const before = await read(bobsReader);

    const alicesWriter = await create(alice, WRITER);
    const written = [];
    for (const secret of ["alice-secret-1", "alice-secret-2"]) {
      const result = await renderCall(alice, alicesWriter, { variables: { secret } });
      written.push({ status: result.status, body: result.body });
    }

    // Bob's template warm from before, and one whose sandbox starts after Alice's renders.
    const after = await read(bobsReader);
    const fresh = await read(await create(bob, READER));
    const refused = {
      status: 200,
      body: { success: true, html: expect.stringContaining(">13 of 13 writes refused<") },
    };
    expect({ before, written, after, fresh }).toEqual({
      before: expected,
      written: [refused, refused],
      after: expected,
      fresh: expected,
    });
  });

  it("never renders one account's template in a warm context of another template, another version or another account's draft", async () => {
    /** How many sandboxes `work` started: 0 when it rendered in a warm one. */
    const contextsStarted = async (work: () => Promise<unknown>) => {
      const before = getSandboxStats().contextsCreated;
      await work();
      return getSandboxStats().contextsCreated - before;
    };
    const hello = (caller: TestUser, id: string) => async () => {
      const result = await renderCall(caller, id, { variables: { name: "Ada" } });
      expect({ status: result.status, body: result.body }).toEqual({
        status: 200,
        body: { success: true, html: expect.stringContaining("Hello <!-- -->Ada") },
      });
    };
    const draft = (caller: TestUser) => async () => {
      const rendered = await renderDraft(caller.accountId, { code: HELLO }, null);
      expect(rendered).toEqual({
        ok: true,
        html: expect.stringContaining("Hello <!-- -->there"),
        props: {},
        variables: expect.any(Object),
        compatibility: checkCompatibility(rendered.ok ? rendered.html : ""),
      });
    };
    const alicesHello = await create(alice, HELLO);
    const aliceFirst = await contextsStarted(hello(alice, alicesHello));
    const aliceAgain = await contextsStarted(hello(alice, alicesHello));
    // The same code, byte for byte, in another account's template.
    const bobsHello = await create(bob, HELLO);
    const bobSameCode = await contextsStarted(hello(bob, bobsHello));
    // The same code again, as a later version of the template (a save of the same code as the latest publishes nothing
    // new, so another version comes between).
    const save = (code: string) =>
      replaceTemplateFromSource(alice.accountId, alicesHello, { name: "Isolation", description: "", code });
    await save(`${HELLO}\n// another version\n`);
    await save(HELLO);
    const aliceNextVersion = await contextsStarted(hello(alice, alicesHello));
    const aliceDraft = await contextsStarted(draft(alice));
    const aliceDraftAgain = await contextsStarted(draft(alice));
    const bobDraftSameCode = await contextsStarted(draft(bob));
    expect({
      aliceFirst,
      aliceAgain,
      bobSameCode,
      aliceNextVersion,
      aliceDraft,
      aliceDraftAgain,
      bobDraftSameCode,
    }).toEqual({
      aliceFirst: 1,
      aliceAgain: 0,
      bobSameCode: 1,
      aliceNextVersion: 1,
      aliceDraft: 1,
      aliceDraftAgain: 0,
      bobDraftSameCode: 1,
    });
  });
});

describe("the variables checker, kept per template version", () => {
  /** A template whose one variable, `name`, takes one of `tiers`. */
  const tiered = (name: string, tiers: string[]) => `import { Html, Text } from "@react-email/components";
export default function Tiered({ ${name} = "${tiers[0]}" }: { ${name}?: ${tiers.map((tier) => `"${tier}"`).join(" | ")} }) {
  return <Html><Text>{${name}}</Text></Html>;
}
`;
  const refusal = (name: string, tiers: string[]) => ({
    status: 400,
    body: {
      error: "Invalid request body",
      code: "VALIDATION_ERROR",
      success: false,
      details: [
        { field: `variables.${name}`, message: `must be one of ${tiers.map((tier) => `"${tier}"`).join(", ")}` },
      ],
    },
  });
  const rendered = (warnings: unknown[]) => ({
    status: 200,
    body: { success: true, html: expect.any(String), warnings },
  });

  it("checks each template's variables against its own schema, never another template's or another version's", async () => {
    const check = async (caller: TestUser, id: string, variables: Record<string, unknown>) => {
      const result = await renderCall(caller, id, { variables });
      return { status: result.status, body: result.body };
    };
    const alicesTiers = await create(alice, tiered("aliceTier", ["gold", "silver"]));
    const bobsTiers = await create(bob, tiered("bobTier", ["red", "blue"]));
    const alices = await check(alice, alicesTiers, { aliceTier: "blue" });
    const bobs = await check(bob, bobsTiers, { bobTier: "gold" });
    // A slip of Alice's variable's name: Alice is told which she meant; Bob's template does not know it.
    const alicesSlip = await check(alice, alicesTiers, { aliceTier: "gold", aliceTie: "x" });
    const bobsSlip = await check(bob, bobsTiers, { bobTier: "blue", aliceTie: "x" });
    await replaceTemplateFromSource(alice.accountId, alicesTiers, {
      name: "Isolation",
      description: "",
      code: tiered("aliceTier", ["bronze"]),
    });
    const alicesNextVersion = await check(alice, alicesTiers, { aliceTier: "gold" });
    expect({ alices, bobs, alicesSlip, bobsSlip, alicesNextVersion }).toEqual({
      alices: refusal("aliceTier", ["gold", "silver"]),
      bobs: refusal("bobTier", ["red", "blue"]),
      alicesSlip: rendered([
        {
          field: "variables.aliceTie",
          message: "not a variable of this template; did you mean aliceTier?",
          kind: "variables",
        },
      ]),
      bobsSlip: rendered([
        { field: "variables.aliceTie", message: "not a variable of this template", kind: "variables" },
      ]),
      alicesNextVersion: refusal("aliceTier", ["bronze"]),
    });
  });
});

describe("the catalogue render workers", () => {
  it("keep nothing of one account's variables for another account's render", async () => {
    const welcome = await catalogueId("welcome");
    const bobsRender = async () => {
      const result = await renderCall(bob, welcome, { variables: {}, plain_text: true });
      return { status: result.status, body: result.body };
    };
    const before = await bobsRender();
    const secret = "alice-secret-name";
    const alices = await renderCall(alice, welcome, { variables: { userName: secret }, plain_text: true });
    const after = await bobsRender();
    expect({ alices: { status: alices.status, showsHers: alices.body.html.includes(secret) }, before, after }).toEqual({
      alices: { status: 200, showsHers: true },
      before: {
        status: 200,
        body: {
          success: true,
          locale: "en",
          html: expect.not.stringContaining(secret),
          text: expect.not.stringContaining(secret),
        },
      },
      after: before,
    });
  });
});

describe("the email client check, kept by content (compatibility.ts)", () => {
  it("finds in another account's document only what is in it, as a fresh checker does", async () => {
    // Alice's styles are in the elements a finding names; Bob's document shares her tags but not her styles.
    const alices = `<div style="display:flex;font-family:alice-secret"><p style="font-family:alice-secret">x</p></div>`;
    const bobs = `<div style="display:flex"><p>y</p></div>`;
    expect(JSON.stringify(checkCompatibility(alices))).toContain("alice-secret");
    const after = checkCompatibility(bobs);
    vi.resetModules();
    const fresh = (await import("@/lib/render/analysis/compatibility")).checkCompatibility(bobs);
    expect({ after, hers: JSON.stringify(after).includes("alice-secret") }).toEqual({ after: fresh, hers: false });
  });
});

describe("the compile workers (sources without <Tailwind>)", () => {
  const BOBS = `import { Body, Html, Section, Text } from "@react-email/components";

interface Line { label: string; amount: number }
type Props = { customer?: string; plan?: "free" | "pro"; lines?: Line[] };

export default function Invoice({ customer = "there", plan = "free", lines = [] }: Props) {
  return (
    <Html>
      <Body>
        <Text>Hi {customer}, you are on {plan}.</Text>
        <Section>{lines.map((line) => <Text key={line.label}>{line.label}: {line.amount}</Text>)}</Section>
      </Body>
    </Html>
  );
}
`;
  const BOBS_FILES = {
    "email.tsx": `import { Html } from "@react-email/components";
import { Footer } from "./footer";
export default function Email({ team = "Acme" }: { team?: string }) {
  return <Html><Footer team={team} /></Html>;
}
`,
    "footer.tsx": `import { Text } from "@react-email/components";
export function Footer({ team }: { team: string }) {
  return <Text>Sent by {team}</Text>;
}
`,
  };
  const bobsVariables = { customer: "Bob", lines: [{ label: "Seats", amount: 3 }] };

  /** Alice's sources: secrets in types, strings and names, and every way a compile can fail part way through. */
  const ALICES = [
    `import { Html, Text } from "@react-email/components";
interface AliceSecretProps { aliceSecretField?: "alice-secret-a" | "alice-secret-b"; aliceNested?: { deep: number[] } }
export default function AliceSecret({ aliceSecretField = "alice-secret-a" }: AliceSecretProps) {
  const aliceSecretConst = "alice-secret-const";
  return <Html><Text className="alice-secret-class">{aliceSecretField}{aliceSecretConst}</Text></Html>;
}
AliceSecret.PreviewProps = { aliceSecretField: "alice-secret-b" };
`,
    "export default function AliceBroken() {\n  return <div>{aliceSecretOops</div>;\n}\n",
    `import fs from "fs";\nexport default function AliceFs() { return <p>{String(fs)}</p>; }\n`,
    `type AliceType<T> = { [K in keyof T]: T[K] extends string ? "alice-secret" : never };\nexport const x: AliceType<{ a: string }> = { a: "alice-secret" };\n`,
  ];

  const bobsCompiles = async () => ({
    single: await compileTemplateOffThread(bob.accountId, BOBS),
    files: await compileTemplateFilesOffThread(bob.accountId, BOBS_FILES, "email.tsx", null),
    react: await applyVariablesOffThread(bob.accountId, BOBS, bobsVariables),
  });

  it("give another account's source byte for byte what a fresh pool gives it", async () => {
    await stopCompileWorkers();
    const alone = await bobsCompiles();
    // Both workers see all of Alice's sources (the three jobs of each run at once), then Bob's run on them.
    for (const source of ALICES) {
      await Promise.all([
        compileTemplateOffThread(alice.accountId, source),
        compileTemplateFilesOffThread(alice.accountId, { "email.tsx": source, "other.tsx": source }, "email.tsx", null),
        applyVariablesOffThread(alice.accountId, source, { aliceSecretField: "alice-secret-props" }),
      ]);
    }
    const afterAlice = await bobsCompiles();
    expect(alone).toEqual({
      single: { ok: true, code: expect.any(String), variables: expect.any(Object) },
      files: { ok: true, code: expect.any(String), variables: expect.any(Object) },
      react: { ok: true, source: expect.any(String) },
    });
    expect(afterAlice).toEqual(alone);
  });
});

describe("the sandbox's Intl formatters, kept by content (host-intl.ts)", () => {
  it("answers another account's Intl requests as an empty cache does", () => {
    const bobs = [
      ["call", "NumberFormat", ["fr"], { style: "currency", currency: "EUR" }, "format", [1234.5]],
      ["call", "DateTimeFormat", ["de"], { dateStyle: "full" }, "format", [Date.UTC(2026, 2, 1, 23, 30)]],
      ["call", "PluralRules", ["pl"], null, "select", [5]],
      ["new", "ListFormat", ["ja"], { type: "disjunction" }],
    ].map((request) => JSON.stringify(request));
    clearFormatterCache();
    const alone = bobs.map(answerIntlRequest);
    clearFormatterCache();
    // Alice's formatters, among them the very options Bob uses and others that differ from his in one option only.
    for (const currency of ["EUR", "USD", "JPY"]) {
      answerIntlRequest(
        JSON.stringify(["call", "NumberFormat", ["fr"], { style: "currency", currency }, "format", [9]]),
      );
    }
    answerIntlRequest(
      JSON.stringify(["call", "DateTimeFormat", ["de"], { dateStyle: "full", timeZone: "Asia/Tokyo" }, "format", [0]]),
    );
    answerIntlRequest(JSON.stringify(["call", "PluralRules", ["pl"], { type: "ordinal" }, "select", [5]]));
    expect(bobs.map(answerIntlRequest)).toEqual(alone);
    expect(cachedFormatterCount()).toBe(8);
  });
});
