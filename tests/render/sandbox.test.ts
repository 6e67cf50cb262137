/**
 * QuickJS template sandbox: equivalence with @react-email/render, hostile
 * templates, warm-context reuse, state isolation, compile errors.
 *
 * beforeAll (re)builds lib/render/sandbox/runtime.generated.js and
 * worker.generated.cjs with scripts/build-sandbox-runtime.ts (deterministic;
 * nothing is built when nothing the bundles read changed), so the tests always
 * exercise the current harness and engine.
 *
 * The native baseline imports the template as a real module: the same TSX
 * is compiled by compileTemplate() and written to a temp .cjs file under
 * os.tmpdir() (test-only; production code never evaluates template code in
 * Node).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import * as React from "react";
import { render } from "@react-email/render";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { httpError } from "../../lib/api/errors";
import { AppError } from "../../lib/core/errors";
import { compileTemplate } from "../../lib/render/sandbox/compile";
import { __sbxUtf8Length } from "../../lib/render/react-email/stream";
import {
  disposeSandboxes,
  getSandboxStats,
  MAX_WARM_MEMORY_BYTES,
  readPreviewProps,
  renderInSandbox,
  SANDBOX_WORKERS,
  type SandboxErrorKind,
} from "../../lib/render/sandbox/index";
import {
  SANDBOX_COMPONENT_EXPORTS,
  SANDBOX_COMPONENT_PACKAGES,
  SANDBOX_TAILWIND_EXPORTS,
} from "../../lib/render/sandbox/modules";

const root = path.resolve(import.meta.dirname, "..", "..");
const requireFromRoot = createRequire(path.join(root, "package.json"));
const DEADLINE_MS = 1000;
const SHORT_DEADLINE_MS = 400;
const HARMLESS = `export default function E() { return <p>Hello</p>; }`;

let tmpDir = "";
let keyCounter = 0;
const uniqueKey = (label: string): string => `test-${label}:${++keyCounter}`;

function compileOrThrow(tsx: string): string {
  const result = compileTemplate(tsx);
  if (!result.ok) throw new Error(`compile failed at ${result.line}:${result.column}: ${result.message}`);
  return result.code;
}

/** Loads compiled template code as a real Node module (tests only). */
function loadNative(code: string): React.ComponentType<Record<string, unknown>> {
  const resolved = code.replace(
    /require\((['"])(react|react\/jsx-runtime|@react-email\/components)\1\)/g,
    (_m, _q, name: string) => `require(${JSON.stringify(requireFromRoot.resolve(name))})`,
  );
  const file = path.join(tmpDir, `template-${++keyCounter}.cjs`);
  writeFileSync(file, resolved);
  const mod = createRequire(file)(file) as { default: React.ComponentType<Record<string, unknown>> };
  return mod.default;
}

async function renderNative(tsx: string, props: Record<string, unknown>): Promise<string> {
  const Component = loadNative(compileOrThrow(tsx));
  return render(React.createElement(Component, props));
}

async function renderSandboxed(
  tsx: string,
  props: Record<string, unknown> = {},
  cacheKey = uniqueKey("t"),
  limits?: { timeoutMs: number },
): Promise<string> {
  return (await renderInSandbox({ owner: "tests", cacheKey, compiledCode: compileOrThrow(tsx), props, limits })).html;
}

/** The render fails with RENDER_ERROR, whose cause is the sandbox's failure of this kind. */
async function expectSandboxError(promise: Promise<unknown>, kind: SandboxErrorKind): Promise<AppError> {
  const error = await promise.then(
    () => {
      throw new Error(`expected a RENDER_ERROR of kind "${kind}", but the render succeeded`);
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe("RENDER_ERROR");
  expect((error as AppError).options.cause, (error as Error).message).toMatchObject({ kind });
  return error as AppError;
}

/* ------------------------------------------------------------------------ */
/* Fixtures                                                                 */
/* ------------------------------------------------------------------------ */

const WELCOME_TSX = `
import * as React from "react";
import {
  Html, Head, Preview, Body, Container, Heading, Text, Button, Img, Hr, Link, Section, Row, Column,
} from "@react-email/components";

type Item = { name: string; price: number };
type WelcomeProps = { name: string; company: string; url: string; items: Item[]; note?: string };

const main = { backgroundColor: "#f6f9fc", fontFamily: "-apple-system, 'Segoe UI', Roboto, sans-serif" };
const container = { backgroundColor: "#ffffff", margin: "0 auto", padding: "20px 0 48px", marginBottom: "64px" };
const button: React.CSSProperties = { backgroundColor: "#656ee8", borderRadius: "5px", color: "#fff", fontSize: "16px", padding: "10px" };

export default function WelcomeEmail({ name, company, url, items, note }: WelcomeProps) {
  const total = items.reduce((sum, item) => sum + item.price, 0);
  return (
    <Html lang="en">
      <Head />
      <Preview>Welcome to {company}, {name}!</Preview>
      <Body style={main}>
        <Container style={container}>
          <Section>
            <Img src="https://example.com/static/logo.png" width="49" height="21" alt={company} />
            <Hr />
            <Heading as="h1">Hi {name},</Heading>
            <Text>Thanks for joining {company}. Your order has {items.length} items ({total.toFixed(2)} EUR).</Text>
            <Section>
              {items.map((item) => (
                <Row key={item.name}>
                  <Column style={{ width: "70%" }}>{item.name}</Column>
                  <Column align="right">{item.price.toFixed(2)}</Column>
                </Row>
              ))}
            </Section>
            {note ? <Text style={{ color: "#8898aa" }}>{note}</Text> : null}
            <Button style={button} href={url}>
              View your dashboard
            </Button>
            <Hr />
            <Text>
              Questions? <Link href="mailto:help@example.com">help@example.com</Link> &middot; Unicode: café 漢字 🎉
            </Text>
            <Img src="https://example.com/static/footer.png" width="120" height="30" alt="" />
          </Section>
        </Container>
      </Body>
    </Html>
  );
}

WelcomeEmail.PreviewProps = {
  name: "Ada",
  company: "Letterpress",
  url: "https://example.com/dashboard",
  items: [{ name: "Pencil", price: 1.5 }, { name: "Paper", price: 3 }],
} satisfies WelcomeProps;
`;

const WELCOME_PROPS = {
  name: "Grace Hopper",
  company: "Letterpress",
  url: "https://example.com/dashboard?ref=welcome&lang=en",
  items: [
    { name: "Ink <black>", price: 12.5 },
    { name: 'Paper "A4" & envelopes', price: 3.25 },
    { name: "Émoji 🚀 / 日本語", price: 0.99 },
  ],
  note: "Lone surrogate: \ud800 and a pair: \ud83d\ude00",
};

/** Hooks, fragments, useId, context, memo, a class component, conditional text. */
const HOOKS_TSX = `
import { createContext, useContext, useId, useMemo, useState, Fragment, memo, Component } from "react";
import { Html, Body, Text, Section, Button } from "@react-email/components";
const Theme = createContext("light");
const Label = memo(function Label({ children }: { children: React.ReactNode }) {
  const id = useId();
  return <span id={id} data-theme={useContext(Theme)}>{children}</span>;
});
class Footer extends Component<{ year: number }> {
  render() { return <Text>© {this.props.year} · {String(this.context)}</Text>; }
}
export default function Hooks({ count, tags }: { count: number; tags: string[] }) {
  const [n] = useState(count * 2);
  const joined = useMemo(() => tags.join(", "), [tags]);
  return (
    <Html>
      <Body>
        <Theme.Provider value="dark">
          <Section>
            <>{n} {count > 1 ? "items" : "item"}</>
            {tags.map((t) => <Fragment key={t}><Label>{t}</Label>{" "}</Fragment>)}
            <Text>{joined}</Text>
            <Button href="https://example.com" target="_self">Go</Button>
          </Section>
        </Theme.Provider>
        <Footer year={2025} />
      </Body>
    </Html>
  );
}
`;

const HELLO_TSX = `
import { Html, Body, Text } from "@react-email/components";
export default function Hello({ name }: { name: string }) {
  return <Html><Body><Text>Hello {name}</Text></Body></Html>;
}
`;

/* ------------------------------------------------------------------------ */

beforeAll(() => {
  tmpDir = mkdtempSync(path.join(os.tmpdir(), "letterpress-sandbox-test-"));
  execFileSync(process.execPath, [requireFromRoot.resolve("tsx/cli"), "scripts/build-sandbox-runtime.ts"], {
    cwd: root,
    stdio: "inherit",
  });
  expect(existsSync(path.join(root, "lib/render/sandbox/runtime.generated.js"))).toBe(true);
  expect(existsSync(path.join(root, "lib/render/sandbox/worker.generated.cjs"))).toBe(true);
}, 30_000);

afterAll(async () => {
  await disposeSandboxes();
  if (tmpDir) rmSync(tmpDir, { recursive: true, force: true });
});

/** A known-good render, used after every hostile template. */
async function expectHealthy(): Promise<void> {
  const html = await renderSandboxed(HELLO_TSX, { name: "after" }, uniqueKey("healthy"));
  expect(html).toContain("Hello <!-- -->after");
}

describe("equivalence with @react-email/render", () => {
  it("renders a realistic template exactly like render()", async () => {
    const native = await renderNative(WELCOME_TSX, WELCOME_PROPS);
    const sandboxed = await renderSandboxed(WELCOME_TSX, WELCOME_PROPS);
    expect(native.startsWith('<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN"')).toBe(true);
    expect(native).not.toContain('rel="preload"');
    expect(sandboxed).toBe(native);
  });

  it("matches for hooks, context, memo, class components and fragments", async () => {
    const props = { count: 3, tags: ["alpha", "<b>", "ünïcode"] };
    expect(await renderSandboxed(HOOKS_TSX, props)).toBe(await renderNative(HOOKS_TSX, props));
  });

  it.each([
    [
      "a fragment root with images",
      `export default function E() { return <><img src="a.png" alt="" /><p>x &amp; y</p><img src="b.png" /></>; }`,
    ],
    ["plain text", `export default function E({ t }: { t: string }) { return t; }`],
    ["null", `export default function E() { return null; }`],
    [
      "Head with Font, style and meta",
      `import { Html, Head, Font, Body, CodeInline, Preview } from "@react-email/components";
       export default function E() {
         return <Html dir="rtl"><Head><Font fontFamily="Roboto" fallbackFontFamily="Verdana" webFont={{ url: "https://x.test/r.woff2", format: "woff2" }} /><style>{"p { color: red }"}</style><title>T</title></Head>
           <Preview>{"p".repeat(200)}</Preview><Body><CodeInline>{"a < b"}</CodeInline><div dangerouslySetInnerHTML={{ __html: "<b>raw</b>" }} /></Body></Html>;
       }`,
    ],
    [
      "a link rel=preload that is not an image",
      `export default function E() { return <div><link rel="preload" as="font" href="f.woff2" /><img src="c.png" /></div>; }`,
    ],
  ])("matches for %s", async (_label, tsx) => {
    const props = { t: "text <with> markup & 🎉" };
    expect(await renderSandboxed(tsx, props)).toBe(await renderNative(tsx, props));
  });

  it("gives the guarded built-ins' answers with optional arguments left out, given as undefined, or many", async () => {
    const tsx = `
      export default function E() {
        const u = undefined;
        const results = [
          [1, 2, 1].lastIndexOf(1), [1, 2, 1].lastIndexOf(1, u), [1, 2, 3].splice(1), [1, 2, 3].splice(1, u),
          [1, 2, 3].toSpliced(1), [1, 2, 3].toSpliced(1, u), [1].concat([2], 3, [4, [5]]), Array.of(1, 2, 3, 4, 5),
          "a".concat("b", "c", "d", "e"), Object.assign({}, { a: 1 }, u, { b: 2 }, { c: 3 }, { d: 4 }),
          String.fromCharCode(72, 105, 33, 33), String.fromCodePoint(0x1f389, 65, 66, 67), String.raw({ raw: ["a", "b", "c", "d"] }, 1, 2, 3),
          String(Reflect.construct(Date, [0]).getTime()), Array.from([1, 2], (x) => x * 2), Array.from([1, 2], u),
          JSON.stringify({ a: [1] }, null, 2), JSON.stringify({ a: 1 }, u, u), "a,b".split(), "a,b".split(",", u), "a,b,c".split(",", 2),
          [3, 1, 2].sort(), [1, 2, 3].indexOf(1, u), [1, 2, 3].slice(u, 2), "abc".slice(1, u), "abc".padStart(5), "abc".padEnd(5, u),
          [1, [2, [3]]].flat(), [1, [2, [3]]].flat(u), [0, 0, 0].fill(7, 1), [1, 2, 3, 4].copyWithin(0, 2), "abc".lastIndexOf("c", u),
          "x".repeat(3), "abc".substr(1), Object.keys({ a: 1, b: 2 }), Reflect.apply(Math.max, null, [1, 5, 3]), new Uint8Array([1, 2, 1]).lastIndexOf(1),
        ];
        return <pre>{JSON.stringify(results)}</pre>;
      }`;
    const native = await renderNative(tsx, {});
    expect(native).toContain("[2,0,[2,3],[],[1],[1,2,3],[1,2,3,4,[5]],[1,2,3,4,5],&quot;abcde&quot;");
    expect(await renderSandboxed(tsx)).toBe(native);
  });

  it("gives every import form the module it names, as Node's require does", async () => {
    const tsx = `
      import React, { useState } from "react";
      import * as ReactNamespace from "react";
      import Components, { Text } from "@react-email/components";
      import * as C from "@react-email/components";
      export default function E({ name }: { name: string }) {
        const [count] = useState(2);
        return React.createElement(C.Html, null, ReactNamespace.createElement(Components.Body, null,
          <Text>{name} {count} {String(ReactNamespace.default === React)} {String(Components.Text === Text)} {String(C.Text === Text)}</Text>));
      }`;
    const native = await renderNative(tsx, { name: "Ada" });
    expect(native).toContain("Ada<!-- --> <!-- -->2<!-- --> <!-- -->true<!-- --> <!-- -->true<!-- --> <!-- -->true");
    expect(await renderSandboxed(tsx, { name: "Ada" })).toBe(native);
  });

  it("matches for several prop sets in the same warm context", async () => {
    const key = uniqueKey("warm-equivalence");
    for (const name of ["A", "Ünïcødé 🎉", "x".repeat(2000), ""]) {
      const props = { ...WELCOME_PROPS, name };
      expect(await renderSandboxed(WELCOME_TSX, props, key)).toBe(await renderNative(WELCOME_TSX, props));
    }
  });

  it("escapes HTML in props", async () => {
    const props = {
      ...WELCOME_PROPS,
      name: "<script>alert(1)</script>",
      url: 'https://x.test/"><script>alert(2)</script>',
    };
    const html = await renderSandboxed(WELCOME_TSX, props);
    expect(html).not.toContain("<script>");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toBe(await renderNative(WELCOME_TSX, props));
  });

  it("reads PreviewProps (JSON-cloned) or null", async () => {
    const key = uniqueKey("preview");
    const code = compileOrThrow(WELCOME_TSX);
    expect(await readPreviewProps({ owner: "tests", cacheKey: key, compiledCode: code })).toEqual({
      name: "Ada",
      company: "Letterpress",
      url: "https://example.com/dashboard",
      items: [
        { name: "Pencil", price: 1.5 },
        { name: "Paper", price: 3 },
      ],
    });
    expect(
      await readPreviewProps({
        owner: "tests",
        cacheKey: uniqueKey("preview"),
        compiledCode: compileOrThrow(HELLO_TSX),
      }),
    ).toBeNull();
  });

  it("provides exactly the component exports listed in modules.ts", async () => {
    const tsx = `
      import * as C from "@react-email/components";
      export default function Probe() { return <p>{Object.keys(C).filter((k) => k !== "default").sort().join(",")}</p>; }`;
    const html = await renderSandboxed(tsx);
    expect(html).toContain(`<p>${[...SANDBOX_COMPONENT_EXPORTS, ...SANDBOX_TAILWIND_EXPORTS].sort().join(",")}</p>`);
    expect(SANDBOX_COMPONENT_PACKAGES.length).toBeGreaterThan(10);
  });
});

describe("an async top-level component (awaited before React renders it)", () => {
  it.each([
    [
      "awaiting a value and a nested async child",
      `import { Html, Body, Text } from "@react-email/components";
       async function Line({ n }: { n: number }) { await null; return <Text>line {n}</Text>; }
       export default async function E({ name, key, ref }: any) {
         const greeting = await Promise.resolve("Hello");
         return <Html><Body><Text>{greeting} {name} {String(key)} {String(ref)}</Text><Line n={1} /><Line n={2} /></Body></Html>;
       }`,
    ],
    ["resolving to null", `export default async function E() { await null; return null; }`],
    ["resolving to text", `export default async function E({ name }: any) { await null; return "Hi " + name; }`],
    ["resolving to a number", `export default async function E() { return 42; }`],
    ["resolving to an empty string", `export default async function E() { return ""; }`],
    ["ending in text after an element", `export default async function E() { return <><p>a &gt; b</p>{"c > d"}</>; }`],
    ["ending in an element after text", `export default async function E() { return <>{"c"}<br /></>; }`],
    [
      "ending in text from a component",
      `function Tail() { return "tail"; }
       export default async function E() { return <><b>x</b><Tail /></>; }`,
    ],
    [
      "ending in an async child's text",
      `async function Tail() { await null; return "tail"; }
       export default async function E() { return <>{"x"}<Tail /></>; }`,
    ],
    [
      "an async child ending in text, then text",
      `async function Inner() { await null; return "in"; }
       export default async function E() { return <><Inner />{"out"}</>; }`,
    ],
    [
      "reading a context before its first await",
      `import { createContext, use } from "react";
       const Theme = createContext("light");
       export default async function E() { const theme = use(Theme); await null; return <p>{theme}</p>; }`,
    ],
  ])("renders exactly like render(): %s", async (_label, tsx) => {
    const props = { name: "Ada <3", key: "k", ref: "r" };
    expect(await renderSandboxed(tsx, props)).toBe(await renderNative(tsx, props));
  });

  it("fails with its own error when it rejects, as React reports it", async () => {
    const tsx = `export default async function E() { await null; throw new Error("no messages for xx"); }`;
    await expect(renderNative(tsx, {})).rejects.toThrow("no messages for xx");
    const error = await expectSandboxError(renderSandboxed(tsx), "threw");
    expect(error.message).toContain("no messages for xx");
    await expectHealthy();
  });
});

describe("hostile templates", () => {
  // Each kind of runaway is stopped by its deadline: the render's own for the plainest, and for the others a shorter one
  // of the caller's (SandboxLimits.timeoutMs), which stops them the same way sooner.
  const cases: Array<{ name: string; tsx: string; kind: SandboxErrorKind; message?: RegExp; deadlineMs?: number }> = [
    {
      name: "reads process.env",
      tsx: `export default function E() { return <p>{(process as any).env.DATABASE_URL}</p>; }`,
      kind: "threw",
      message: /process/,
    },
    {
      name: "calls fetch",
      tsx: `export default function E() { void (globalThis as any).fetch("https://attacker.test"); return <p />; }`,
      kind: "threw",
      message: /not a function/,
    },
    {
      name: "calls require('fs') at run time",
      tsx: `export default function E() { return <p>{String((require as any)("f" + "s"))}</p>; }`,
      kind: "threw",
      message: /Cannot find module 'fs'/,
    },
    {
      name: "uses the Function constructor",
      tsx: `export default function E() { return <p>{(() => {}).constructor("return globalThis")()}</p>; }`,
      kind: "threw",
      message: /not available/,
    },
    { name: "loops forever", tsx: `export default function E() { while (true) {} return <p />; }`, kind: "timeout" },
    {
      name: "loops forever over an expensive built-in",
      tsx: `export default function E() { let s = ""; while (true) { s = "x".repeat(1e7); } return <p>{s}</p>; }`,
      kind: "timeout",
      deadlineMs: SHORT_DEADLINE_MS,
    },
    {
      // QuickJS's interrupt handler is not polled inside one long operation:
      // these are stopped by the main-thread watchdog (worker terminated).
      name: "loops forever over an array spread (watchdog)",
      tsx: `export default function E() { const a = Array.from({ length: 1e6 }, () => 1); while (true) { const b = [...a]; } return <p />; }`,
      kind: "timeout",
      deadlineMs: SHORT_DEADLINE_MS,
    },
    {
      name: "loops forever comparing huge strings (watchdog)",
      tsx: `export default function E() { const s = "x".repeat(1.5e7); const t = "x".repeat(1.5e7); let n = 0; while (true) { if (s === t) n++; } return <p>{n}</p>; }`,
      kind: "timeout",
      deadlineMs: SHORT_DEADLINE_MS,
    },
    {
      name: "never-ending promise chain",
      tsx: `export default function E() { const spin = (): void => { void Promise.resolve().then(spin); }; spin(); return <p />; }`,
      kind: "timeout",
      deadlineMs: SHORT_DEADLINE_MS,
    },
    {
      name: "allocates without bound",
      tsx: `export default function E() { const a: unknown[] = []; while (true) a.push(new Array(1e6).fill(1)); return <p />; }`,
      kind: "memory",
    },
    {
      name: "recurses without bound",
      tsx: `function f(n: number): number { return f(n + 1) + 1; } export default function E() { return <p>{f(0)}</p>; }`,
      kind: "memory",
    },
    {
      name: "renders itself recursively",
      tsx: `function R({ n }: { n: number }): any { return <div><R n={n + 1} /></div>; } export default function E() { return <R n={0} />; }`,
      kind: "memory",
    },
    {
      name: "renders a 50 MB string",
      tsx: `export default function E() { return <p>{"x".repeat(50 * 1024 * 1024)}</p>; }`,
      kind: "output_too_large",
      // The output cap is what is tested: a deadline it cannot reach first when the machine's cores are shared
      // (about 0.5 s alone, past the default 1 s under CI's parallel files).
      deadlineMs: 5_000,
    },
    {
      name: "renders many large strings",
      tsx: `export default function E() { return <div>{Array.from({ length: 100 }, (_, i) => <p key={i}>{"y".repeat(100_000)}</p>)}</div>; }`,
      kind: "output_too_large",
      // The output cap is what is tested: a deadline it cannot reach first when the machine's cores are shared
      // (about 0.5 s alone, past the default 1 s under CI's parallel files).
      deadlineMs: 5_000,
    },
    { name: "exports a non-component", tsx: `const x = 42; export default x;`, kind: "invalid_component" },
  ];

  for (const { name, tsx, kind, message, deadlineMs } of cases) {
    it(`${name} → ${kind}`, { timeout: 20_000 }, async () => {
      const limits = deadlineMs ? { timeoutMs: deadlineMs } : undefined;
      const render = (compiledCode: string) =>
        renderInSandbox({ owner: "tests", cacheKey: uniqueKey("t"), compiledCode, props: {}, limits });
      // The bound is the deadline's: what any render in a new context costs on this machine now (the context's
      // start, the answer's way back; slower when other tests share the cores) is measured first and left out, up to
      // 750 ms, so that a slow moment cannot hide a deadline kept late.
      const [compiledCode, harmless] = [compileOrThrow(tsx), compileOrThrow(HARMLESS)];
      const freshStarted = performance.now();
      await render(harmless);
      const freshContext = performance.now() - freshStarted;
      const started = performance.now();
      const error = await expectSandboxError(render(compiledCode), kind);
      const elapsed = performance.now() - started;
      if (message) expect(error.message).toMatch(message);
      expect(elapsed - Math.min(freshContext, 750)).toBeLessThan((deadlineMs ?? DEADLINE_MS) + 500);
      await expectHealthy();
      expect(getSandboxStats().queued).toBe(0);
    });
  }

  it("sees no Node or host capabilities at run time", async () => {
    const tsx = `
      const g = globalThis as any;
      const names = ["process", "require", "module", "exports", "fetch", "XMLHttpRequest", "WebSocket", "setTimeout",
        "setInterval", "setImmediate", "queueMicrotask", "MessageChannel", "TextEncoder", "Buffer", "global", "eval",
        "BigInt", "WeakRef", "FinalizationRegistry", "__modules", "__letterpressSandbox"];
      export default function Probe() {
        const report = names.map((n) => n + "=" + typeof g[n]).join(";");
        return <p>{report}|{typeof (g.require)}|{typeof process}|{Object.isFrozen(globalThis) ? "frozen" : "open"}</p>;
      }`;
    const html = await renderSandboxed(tsx);
    const report = /<p>([^<]*)<!-- -->\|<!-- -->([^<]*)<!-- -->\|<!-- -->([^<]*)<!-- -->\|<!-- -->([^<]*)<\/p>/.exec(
      html,
    );
    expect(report, html).not.toBeNull();
    for (const entry of report![1]!.split(";")) expect(entry).toMatch(/=undefined$/);
    expect(report![2]).toBe("undefined");
    expect(report![3]).toBe("undefined");
    expect(report![4]).toBe("frozen");
  });
});

describe("warm contexts", () => {
  it("reuses the context per cacheKey (repeat renders are much faster)", async () => {
    const key = uniqueKey("timing");
    const code = compileOrThrow(WELCOME_TSX);
    let t = performance.now();
    await renderInSandbox({ owner: "tests", cacheKey: key, compiledCode: code, props: WELCOME_PROPS });
    const first = performance.now() - t;
    const warm: number[] = [];
    for (let i = 0; i < 30; i++) {
      t = performance.now();
      await renderInSandbox({ owner: "tests", cacheKey: key, compiledCode: code, props: WELCOME_PROPS });
      warm.push(performance.now() - t);
    }
    warm.sort((a, b) => a - b);
    const median = warm[Math.floor(warm.length / 2)]!;
    console.log(
      `[sandbox timing] first render (new context): ${first.toFixed(1)} ms; warm render median ${median.toFixed(2)} ms ` +
        `(min ${warm[0]!.toFixed(2)}, max ${warm[warm.length - 1]!.toFixed(2)}); stats ${JSON.stringify(getSandboxStats())}`,
    );
    expect(getSandboxStats().rendersInWarmContext).toBeGreaterThanOrEqual(30);
  });

  it(
    "keeps the warm contexts' memory under its cap, however many templates render and whatever they allocate",
    { timeout: 60_000 },
    async () => {
      // About 12 MB of strings and objects at once, well within the 64 MB a render may use; freed when the render ends.
      const hungry = compileOrThrow(`
      import { Html, Body, Text } from "@react-email/components";
      export default function Hungry() {
        const text = "x".repeat(8 * 1024 * 1024);
        const rows = [];
        for (let i = 0; i < 128 * 1024; i++) rows.push({ i });
        return <Html><Body><Text>{text.length + rows.length}</Text></Body></Html>;
      }`);
      const hello = compileOrThrow(HELLO_TSX);
      const peaks = { hungry: 0, hello: 0 };
      // Drafts of different code: each is a context of its own.
      for (let i = 0; i < 12; i++) {
        await renderInSandbox({ owner: "tests", cacheKey: uniqueKey("hungry"), compiledCode: hungry, props: {} });
        peaks.hungry = Math.max(peaks.hungry, getSandboxStats().warmMemoryBytes);
      }
      const helloKey = uniqueKey("hello-warm");
      for (let i = 0; i < 36; i++) {
        await renderInSandbox({
          owner: "tests",
          cacheKey: i % 2 === 0 ? helloKey : uniqueKey("hello"),
          compiledCode: hello,
          props: { name: "x" },
        });
        peaks.hello = Math.max(peaks.hello, getSandboxStats().warmMemoryBytes);
      }
      const rendersInWarmContext = getSandboxStats().rendersInWarmContext;
      await renderInSandbox({ owner: "tests", cacheKey: helloKey, compiledCode: hello, props: { name: "x" } });
      expect({
        hungryWithinCap: peaks.hungry <= MAX_WARM_MEMORY_BYTES,
        helloWithinCap: peaks.hello <= MAX_WARM_MEMORY_BYTES,
        // The cap evicts the least recently used: a template in steady use stays warm.
        stillWarm: getSandboxStats().rendersInWarmContext === rendersInWarmContext + 1,
      }).toEqual({ hungryWithinCap: true, helloWithinCap: true, stillWarm: true });
    },
  );
});

describe("limits and cache behaviour", () => {
  it("honours per-call limits", async () => {
    const started = performance.now();
    await expectSandboxError(
      renderInSandbox({
        owner: "tests",
        cacheKey: uniqueKey("short-deadline"),
        compiledCode: compileOrThrow(`export default function E() { while (true) {} return null; }`),
        props: {},
        limits: { timeoutMs: 200 },
      }),
      "timeout",
    );
    // 200 ms deadline + creating the context; far below the 1 s default.
    expect(performance.now() - started).toBeLessThan(900);
    await expectSandboxError(
      renderInSandbox({
        owner: "tests",
        cacheKey: uniqueKey("small-output"),
        compiledCode: compileOrThrow(HELLO_TSX),
        props: { name: "x".repeat(2000) },
        limits: { maxOutputBytes: 1000 },
      }),
      "output_too_large",
    );
  });

  it("serves concurrent first renders of one cacheKey from one context per worker it needs", async () => {
    const code = compileOrThrow(HELLO_TSX);
    const contextsFor = async (names: string[]) => {
      const key = uniqueKey("concurrent");
      const before = getSandboxStats().contextsCreated;
      const results = await Promise.all(
        names.map((name) => renderInSandbox({ owner: "tests", cacheKey: key, compiledCode: code, props: { name } })),
      );
      results.forEach(({ html }, i) => expect(html).toContain(`Hello <!-- -->${names[i]}`));
      return getSandboxStats().contextsCreated - before;
    };
    // An owner sends two renders to a worker at once: two share one context, four use two workers when there are.
    expect([await contextsFor(["a", "b"]), await contextsFor(["a", "b", "c", "d"])]).toEqual([
      1,
      Math.min(2, SANDBOX_WORKERS),
    ]);
  });

  it(
    "lets accounts take turns: one account's queue of slow renders holds another's back by at most two of them a worker",
    { timeout: 20_000 },
    async () => {
      const loop = compileOrThrow(`export default function E() { while (true) {} return null; }`);
      const hello = compileOrThrow(HELLO_TSX);
      const finished: string[] = [];
      const slow = Array.from({ length: 6 }, (_, i) =>
        renderInSandbox({
          owner: "hog",
          cacheKey: uniqueKey("hog"),
          compiledCode: loop,
          props: {},
          // Long enough that the other account's render, a fresh context's, is done within one of them on a busy
          // machine (the files of a test run share its cores).
          limits: { timeoutMs: 600 },
        }).then(
          () => finished.push(`hog ${i}`),
          () => finished.push(`hog ${i}`),
        ),
      );
      const other = renderInSandbox({
        owner: "other",
        cacheKey: uniqueKey("other"),
        compiledCode: hello,
        props: { name: "b" },
      }).then(() => finished.push("other"));
      await Promise.all([...slow, other]);
      // Each worker takes two of the hog's renders at once; the other account's goes behind at most those two, on the
      // least busy worker, and is done before the hog's last two, whatever the number of workers.
      const hogsBefore = finished.slice(0, finished.indexOf("other"));
      expect({
        waitedFor: hogsBefore.length <= 2 * SANDBOX_WORKERS,
        beforeTheLastTwo: !hogsBefore.includes("hog 4") && !hogsBefore.includes("hog 5"),
        all: [...finished].sort(),
      }).toEqual({
        waitedFor: true,
        beforeTheLastTwo: true,
        all: ["hog 0", "hog 1", "hog 2", "hog 3", "hog 4", "hog 5", "other"],
      });
      expect(getSandboxStats().queued).toBe(0);
    },
  );

  it(
    "refuses work past the queue's caps at once (503 SANDBOX_BUSY), per owner, past an owner's fair share of a full queue, and at twice the cap in all",
    { timeout: 20_000 },
    async () => {
      const hello = compileOrThrow(HELLO_TSX);
      let rendered = 0;
      const refusals: Array<{
        owner: string;
        rendersBefore: number;
        status: number;
        headers: Record<string, string>;
        body: unknown;
      }> = [];
      const attempt = (owner: string, cacheKey: string) =>
        renderInSandbox({ owner, cacheKey, compiledCode: hello, props: { name: owner } }).then(
          () => void rendered++,
          (error: unknown) => {
            if (!(error instanceof AppError)) throw error;
            refusals.push({ owner, rendersBefore: rendered, ...httpError(error) });
          },
        );
      const attempts: Promise<void>[] = [];
      const flood = (owner: string, count: number) => {
        const key = uniqueKey(owner);
        for (let i = 0; i < count; i++) attempts.push(attempt(owner, key));
      };
      // One more than an owner may queue: the last is refused.
      flood("flood-a", 33);
      flood("flood-b", 32);
      flood("flood-c", 32);
      // 96 queued in all, by three owners: another owner still gets in, up to its share (96 ÷ 4 owners), no further.
      flood("flood-d", 25);
      // 120 queued: each new owner's share is now 1 render, until 192 are queued; then nobody's work gets in.
      const crowd = uniqueKey("crowd");
      for (let i = 0; i < 73; i++) attempts.push(attempt(`crowd-${i}`, crowd));
      await Promise.all(attempts);
      const busy = (message: string) => ({
        status: 503,
        headers: { "Retry-After": "1" },
        body: { error: "Template sandbox busy", code: "SANDBOX_BUSY", success: false, message },
      });
      const full = busy("The template sandbox is busy with other renders; try again in a moment.");
      expect({ rendered, refusals }).toEqual({
        rendered: 192,
        refusals: [
          {
            owner: "flood-a",
            rendersBefore: 0,
            ...busy("This account already has 32 renders waiting; try again in a moment."),
          },
          { owner: "flood-d", rendersBefore: 0, ...full },
          { owner: "crowd-72", rendersBefore: 0, ...full },
        ],
      });
      expect(getSandboxStats().queued).toBe(0);
      await attempt("crowd-72", crowd);
      expect(rendered).toBe(193);
    },
  );

  it("drops a render whose client went away while it waited, and gives its place to the next", async () => {
    const hello = compileOrThrow(HELLO_TSX);
    const key = uniqueKey("abandoned");
    const outcome = (owner: string, signal?: AbortSignal) =>
      renderInSandbox({ owner, cacheKey: key, compiledCode: hello, props: { name: owner }, signal }).then(
        ({ html }) => (html.includes(`Hello <!-- -->${owner}</p>`) ? "rendered" : html),
        (error: unknown) => (error instanceof AppError ? `${httpError(error).status} ${error.code}` : String(error)),
      );
    const first = new AbortController();
    const last = new AbortController();
    // The owner's 32 places: the first two are sent to the worker at once, the rest wait.
    const running = outcome("owner", first.signal);
    const others = Array.from({ length: 30 }, () => outcome("owner"));
    const waitingOne = outcome("owner", last.signal);
    first.abort(new Error("The client went away"));
    last.abort(new Error("The client went away"));
    const next = outcome("owner");
    expect({
      running: await running,
      others: new Set(await Promise.all(others)),
      waitingOne: await waitingOne,
      next: await next,
      queued: getSandboxStats().queued,
    }).toEqual({
      running: "rendered",
      others: new Set(["rendered"]),
      waitingOne: "Error: The client went away",
      next: "rendered",
      queued: 0,
    });
  });
  it("makes the plain text in the worker, under the render's deadline", { timeout: 20_000 }, async () => {
    const nested = compileOrThrow(
      `export default function E({ n = 1 }: { n?: number }) { return <div dangerouslySetInnerHTML={{ __html: "<div>".repeat(n) + "deep" }} />; }`,
    );
    const small = await renderInSandbox({
      owner: "tests",
      cacheKey: uniqueKey("text"),
      compiledCode: nested,
      props: { n: 3 },
      plainText: true,
    });
    expect(small).toEqual({ html: expect.stringContaining("<div><div><div>deep"), text: "deep" });
    // html-to-text takes minutes on HTML this deeply nested (quadratic): the watchdog stops it like a runaway render.
    const started = performance.now();
    await expectSandboxError(
      renderInSandbox({
        owner: "tests",
        cacheKey: uniqueKey("text"),
        compiledCode: nested,
        props: { n: 150_000 },
        plainText: true,
      }),
      "timeout",
    );
    expect(performance.now() - started).toBeLessThan(DEADLINE_MS * 3);
    expect(await renderSandboxed(HELLO_TSX, { name: "after" })).toContain("Hello <!-- -->after");
  });

  it(
    "renders the requests queued behind a runaway template once the watchdog has replaced the worker",
    { timeout: 20_000 },
    async () => {
      const runaway = compileOrThrow(
        `export default function E() { const a = Array.from({ length: 1e6 }, () => 1); while (true) { const b = [...a]; } return <p />; }`,
      );
      const hello = compileOrThrow(HELLO_TSX);
      const kills = getSandboxStats().watchdogKills;
      const started = performance.now();
      const [stuck, ...queued] = await Promise.allSettled([
        renderInSandbox({ owner: "tests", cacheKey: uniqueKey("runaway"), compiledCode: runaway, props: {} }),
        ...["a", "b", "c"].map((name) =>
          renderInSandbox({ owner: "tests", cacheKey: uniqueKey("queued"), compiledCode: hello, props: { name } }),
        ),
      ]);
      expect(stuck.status).toBe("rejected");
      expect((stuck as PromiseRejectedResult).reason).toMatchObject({
        code: "RENDER_ERROR",
        options: { cause: { kind: "timeout" } },
        message: "Template exceeded the render deadline",
      });
      expect(
        queued.map((r) => (r.status === "fulfilled" ? /Hello <!-- -->(\w)/.exec(r.value.html)?.[1] : r.reason)),
      ).toEqual(["a", "b", "c"]);
      expect(performance.now() - started).toBeLessThan(DEADLINE_MS * 3);
      expect(getSandboxStats().watchdogKills).toBe(kills + 1);
      // The replaced worker's contexts of other accounts are made again as jobs of their own: let those finish.
      await vi.waitFor(() => expect(getSandboxStats().queued).toBe(0), { timeout: 5000 });
    },
  );

  it("recreates the context when the code behind a cacheKey changes", async () => {
    const key = uniqueKey("code-change");
    expect(await renderSandboxed(HELLO_TSX, { name: "v1" }, key)).toContain("Hello <!-- -->v1");
    const changed = HELLO_TSX.replace("Hello {name}", "Bonjour {name}");
    expect(await renderSandboxed(changed, { name: "v2" }, key)).toContain("Bonjour <!-- -->v2");
  });

  it("cuts a huge error message short: it is not copied out of the sandbox or into the response whole", async () => {
    const tsx = `export default function E() { throw new Error("x".repeat(20_000_000)); }`;
    const error = await expectSandboxError(renderSandboxed(tsx), "threw");
    expect(error.message).toBe(`Template threw: Error: ${"x".repeat(1000 - "Template threw: Error: ".length)}…`);
  });

  it("keeps a context after an ordinary template error", async () => {
    const key = uniqueKey("throws");
    const tsx = `export default function E({ fail }: { fail: boolean }) { if (fail) throw new Error("boom"); return <p>fine</p>; }`;
    const error = await expectSandboxError(renderSandboxed(tsx, { fail: true }, key), "threw");
    expect(error.message).toContain("Error: boom");
    const before = getSandboxStats().contextsCreated;
    expect(await renderSandboxed(tsx, { fail: false }, key)).toContain("<p>fine</p>");
    expect(getSandboxStats().contextsCreated).toBe(before);
  });
});

describe("state isolation", () => {
  it("globalThis is frozen: writes throw inside the template", async () => {
    const tsx = `export default function Leak() { (globalThis as any).leak = 1; return <p>wrote</p>; }`;
    const key = uniqueKey("leak-throw");
    const error = await expectSandboxError(renderSandboxed(tsx, {}, key), "threw");
    expect(error.message).toMatch(/not extensible/);
  });

  it("intrinsics reached only through syntax are frozen too: one recipient's values never reach the next render", async () => {
    const tsx = `
      export default function Stash({ secret }: { secret: string }) {
        const protos: any[] = [
          Object.getPrototypeOf(function* () {}),
          Object.getPrototypeOf(async function () {}),
          Object.getPrototypeOf(async function* () {}),
          Object.getPrototypeOf([][Symbol.iterator]()),
          Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]())),
          Object.getPrototypeOf(""[Symbol.iterator]()),
          Object.getPrototypeOf(new Map()[Symbol.iterator]()),
          Object.getPrototypeOf(new Set()[Symbol.iterator]()),
          Object.getPrototypeOf(/a/[Symbol.matchAll]("")),
        ];
        const found = protos.map((proto) => String(proto.stash));
        let refused = 0;
        for (const proto of protos) { try { proto.stash = secret; } catch { refused++; } }
        return <p>{found.join(",")}|{refused}</p>;
      }`;
    const key = uniqueKey("stash");
    const none = Array(9).fill("undefined").join(",");
    expect(await renderSandboxed(tsx, { secret: "alice-token" }, key)).toContain(`<p>${none}<!-- -->|<!-- -->9</p>`);
    expect(await renderSandboxed(tsx, { secret: "bob-token" }, key)).toContain(`<p>${none}<!-- -->|<!-- -->9</p>`);
  });

  it("nothing survives between renders of the same cacheKey", async () => {
    const tsx = `
      let moduleCounter = 0;
      export default function Probe() {
        moduleCounter++;
        const g = globalThis as any;
        const before = [typeof g.leak, typeof (Array.prototype as any).leaked, typeof (Object.prototype as any).leaked, typeof (JSON as any).leaked].join(",");
        for (const attempt of [
          () => { g.leak = 1; },
          () => { (Array.prototype as any).leaked = 1; },
          () => { (Object.prototype as any).leaked = 1; },
          () => { (JSON as any).leaked = 1; },
          () => { (JSON as any).stringify = () => "pwned"; },
        ]) { try { attempt(); } catch {} }
        return <p>{before}|{moduleCounter}|{JSON.stringify({ ok: 1 })}</p>;
      }`;
    const key = uniqueKey("leak");
    const first = await renderSandboxed(tsx, {}, key);
    const second = await renderSandboxed(tsx, {}, key);
    const expected =
      "<p>undefined,undefined,undefined,undefined<!-- -->|<!-- -->1<!-- -->|<!-- -->{&quot;ok&quot;:1}</p>";
    expect(first).toContain(expected);
    expect(second).toContain(expected);
  });

  it("different cacheKeys share nothing", async () => {
    const writer = `
      import * as React from "react";
      export default function W() {
        try { (React as any).createElement = () => null; } catch {}
        try { (globalThis as any).shared = "secret"; } catch {}
        return <p>{typeof (React as any).createElement}</p>;
      }`;
    const reader = `export default function R() { return <p>{typeof (globalThis as any).shared}</p>; }`;
    await renderSandboxed(writer, {}, uniqueKey("writer"));
    expect(await renderSandboxed(reader, {}, uniqueKey("reader"))).toContain("<p>undefined</p>");
  });
});

describe("the sandbox's UTF-8 length of React's chunks", () => {
  it("equals TextEncoder's for ASCII, 2- and 3-byte characters, surrogate pairs and lone surrogates", () => {
    const samples = [
      "",
      "plain ascii <b>",
      "café ÷ ß",
      "\u00a0\u200c\u200b\u200d\u200e\u200f\ufeff".repeat(135),
      "emoji 😀 and 𝄞 pairs",
      "lone \ud800 high, lone \udc00 low, reversed \udc00\ud800, at the end \ud83d",
      "\u007f\u0080\u07ff\u0800\uffff",
    ];
    expect(samples.map(__sbxUtf8Length)).toEqual(samples.map((text) => new TextEncoder().encode(text).byteLength));
  });
});

describe("compileTemplate", () => {
  it("compiles TSX to CommonJS", () => {
    const result = compileTemplate(HELLO_TSX);
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.code).toMatch(/^"use strict";/);
      expect(result.code).toMatch(/require\(["']react\/jsx-runtime["']\)/);
      expect(result.code).toMatch(/require\(["']@react-email\/components["']\)/);
      expect(result.code).toContain("exports.default = Hello");
    }
  });

  it("reports syntax errors with 1-based line and column", () => {
    const result = compileTemplate(`export default function E() {\n  return <p>{format(}</p>;\n}\n`);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.line).toBe(2);
      expect(result.column).toBeGreaterThan(1);
      expect(result.message).toMatch(/^Syntax error/);
    }
    const unterminated = compileTemplate(`const a = 1;\nconst b = "open;\n`);
    expect(unterminated).toMatchObject({ ok: false, line: 2 });
  });

  it.each([
    // The parser stops at the `);` after the tag; the tag is what is wrong.
    ["`<Text>` opened on line 4 is never closed", 4, 8, ["  return (", "    <Html>", "      <Text>Hello", "  );"]],
    // Closed by the wrong tag: the parser stops after `</Html>`.
    ["`<Text>` opened on line 2 is never closed", 2, 18, ["  return (<Html><Text>Hello</Html>);"]],
    // Of two unclosed tags, the inner one, named as written.
    ["`<C.Text>` opened on line 3 is never closed", 3, 6, ["  return (<Html>", "    <C.Text>Hello", "  );"]],
    ["`<>` opened on line 2 is never closed", 2, 11, ["  return (<><Text>Hi</Text>);"]],
    ["`<Img>` opened on line 2 is never closed", 2, 18, ['  return (<Html><Img src="x"></Html>);']],
  ])("names the tag that is never closed: %s", (message, line, column, body) => {
    const source = ["export default function E() {", ...body, "}", ""].join("\n");
    expect(compileTemplate(source)).toEqual({ ok: false, message: `Syntax error: ${message}`, line, column });
  });

  it("names an unclosed tag after a member chain nested deeper than the call stack reaches, the name cut short", () => {
    const chain = `a${".a".repeat(10_000)}`;
    const source = `export default function E() {\n  const x = ${chain}.b;\n  return (<${chain}>\n  );\n}\n`;
    expect(compileTemplate(source)).toEqual({
      ok: false,
      message: `Syntax error: \`<${chain.slice(0, 60)}…>\` opened on line 3 is never closed`,
      line: 3,
      column: 12,
    });
  });

  it("keeps other syntax errors as they are: a quote left open, an unclosed call, one before an unclosed tag", () => {
    const body = (line: string) => `export default function E({ items }: { items: string[] }) {\n${line}\n}\n`;
    expect(compileTemplate(body('  return <div><p className="a>Hi</p></div>;'))).toEqual({
      ok: false,
      message: "Syntax error: Error transforming template.tsx: Unterminated string constant",
      line: 2,
      column: 28,
    });
    expect(compileTemplate(body("  return <div>{items.map((item) => <p key={item}>{item}</p>}</div>;"))).toEqual({
      ok: false,
      message: 'Syntax error: Error transforming template.tsx: Unexpected token, expected ","',
      line: 2,
      column: 21,
    });
    expect(compileTemplate(body("  const x = ;\n  return <p>Hi;"))).toEqual({
      ok: false,
      message: "Syntax error: Error transforming template.tsx: Unexpected token",
      line: 2,
      column: 13,
    });
  });

  it.each([
    [`import fs from "fs";\nexport default function E() { return null; }`, 1, 16, /"fs" is not allowed/],
    [
      `import React from "react";\nimport { readFileSync } from "node:fs";\nexport default function E() { return null; }`,
      2,
      30,
      /"node:fs"/,
    ],
    [`import "./side-effect";\nexport default function E() { return null; }`, 1, 8, /"\.\/side-effect"/],
    [`export { x } from "child_process";\nexport default function E() { return null; }`, 1, 19, /"child_process"/],
    [`export default function E() { const m = require("os"); return null; }`, 1, 49, /"os"/],
    [`export default async function E() { await import("http"); return null; }`, 1, 50, /"http"/],
    [`const n = "fs";\nexport default async function E() { await import(n); return null; }`, 2, 43, /string literal/],
    [`import type { Foo } from "./types";\nexport default function E() { return null; }`, 1, 26, /"\.\/types"/],
    [
      `import { Html, CodeBlock } from "@react-email/components";\nexport default function E() { return null; }`,
      1,
      16,
      /CodeBlock/,
    ],
    [
      `import { Nope as N } from "@react-email/components";\nexport default function E() { return null; }`,
      1,
      10,
      /"Nope" is not exported/,
    ],
    [`export default function E() { return <p>{String(10n)}</p>; }`, 1, 49, /BigInt/],
    [`export function NotDefault() { return null; }`, 1, 1, /default export/],
    // A type is not a component: nothing is exported at run time.
    [`export default interface Props { name: string }`, 1, 1, /default export/],
  ])("rejects %j", (source, line, column, message) => {
    const result = compileTemplate(source);
    expect(result).toMatchObject({ ok: false, line, column });
    if (!result.ok) expect(result.message).toMatch(message);
  });

  it("accepts the allowed modules in every import form", () => {
    const source = `
      import React, { useState } from "react";
      import * as Components from "@react-email/components";
      import { Html as H, type CSSProperties } from "@react-email/components";
      import { jsx } from "react/jsx-runtime";
      export { Text } from "@react-email/components";
      const style: CSSProperties = {};
      export default function E() { const [s] = useState(1); return <H style={style}>{s}{String(!!jsx)}{String(!!Components)}{String(!!React)}</H>; }`;
    expect(compileTemplate(source)).toMatchObject({ ok: true });
  });
});
