/**
 * Localized templates in the sandbox (issue 49): next-intl / use-intl imports, JSON modules (static and
 * `await import(\`./messages/${locale}.json\`)`), Intl backed by Node's own (a table of locales against Node's Intl),
 * the subject message, and React Email's next-intl guide rendered byte for byte as @react-email/render renders it.
 */
import { execFileSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { render } from "@react-email/render";
import { createElement } from "react";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { AppError } from "../../lib/core/errors";
import { compileTemplateFiles } from "../../lib/render/sandbox/compile";
import {
  MAX_CACHED_FORMATTERS,
  answerIntlRequest,
  cachedFormatterCount,
  clearFormatterCache,
} from "../../lib/render/sandbox/host-intl";
import { disposeSandboxes, renderInSandbox, type SandboxErrorKind } from "../../lib/render/sandbox/index";
import { SANDBOX_INTL_EXPORTS } from "../../lib/render/sandbox/modules";
import { importTsxFiles } from "../support/tsx";

const root = path.resolve(import.meta.dirname, "..", "..");
let keyCounter = 0;
const uniqueKey = (label: string): string => `intl-${label}:${++keyCounter}`;

beforeAll(() => {
  execFileSync(process.execPath, ["--import", "tsx", path.join(root, "scripts/build-sandbox-runtime.ts")], {
    cwd: root,
    stdio: "pipe",
  });
}, 120_000);

afterAll(async () => {
  await disposeSandboxes();
});

function compileFiles(files: Record<string, string>, entry = "email.tsx"): string {
  const result = compileTemplateFiles(files, entry);
  if (!result.ok)
    throw new Error(`compile failed in ${result.path} at ${result.line}:${result.column}: ${result.message}`);
  return result.code;
}

async function renderFiles(
  files: Record<string, string>,
  props: Record<string, unknown> = {},
  extra: { subjectMessage?: string; limits?: { timeoutMs: number } } = {},
) {
  return renderInSandbox({
    owner: "tests",
    cacheKey: uniqueKey("t"),
    compiledCode: compileFiles(files),
    props,
    ...extra,
  });
}

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

/** A template whose body is the JSON of what `compute()` returns (inside the sandbox), in a <pre>. */
const jsonOut = (imports: string, body: string): Record<string, string> => ({
  "email.tsx": `${imports}
export default async function Out(props: Record<string, any>) {
  ${body}
  return <pre>{JSON.stringify(await compute(props))}</pre>;
}`,
});

function readJsonOut(html: string): unknown {
  const match = /<pre>([\s\S]*)<\/pre>/.exec(html);
  if (!match) throw new Error(`no <pre> in ${html}`);
  const text = match[1]
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
  return JSON.parse(text);
}

describe("modules", () => {
  it("next-intl, use-intl and use-intl/core all give use-intl/core's exports", async () => {
    const files = jsonOut(
      `import * as a from "next-intl";
import * as b from "use-intl";
import * as c from "use-intl/core";`,
      `const compute = () => ({ a: Object.keys(a).sort(), same: a === b && b === c, ok: typeof a.createTranslator });`,
    );
    const { html } = await renderFiles(files);
    expect(readJsonOut(html)).toEqual({ a: [...SANDBOX_INTL_EXPORTS].sort(), same: true, ok: "function" });
  });

  it("SANDBOX_INTL_EXPORTS is use-intl/core's export list", async () => {
    const actual = Object.keys(await import("use-intl/core")).filter((key) => key !== "default");
    expect([...SANDBOX_INTL_EXPORTS].sort()).toEqual(actual.sort());
  });

  it("names what is available for another next-intl subpath, or a name next-intl has and the sandbox lacks", () => {
    expect(
      compileTemplateFiles(
        { "email.tsx": `import { getTranslations } from "next-intl/server";\nexport default () => null;` },
        "email.tsx",
      ),
    ).toEqual({
      ok: false,
      path: "email.tsx",
      message:
        'Import of "next-intl/server" is not available in templates: import IntlError, IntlErrorCode, createFormatter, createTranslator, hasLocale, initializeConfig from next-intl, use-intl, use-intl/core (each gives use-intl/core\'s exports)',
      line: 1,
      column: 33,
    });
    expect(
      compileTemplateFiles(
        { "email.tsx": `import { useTranslations } from "next-intl";\nexport default () => null;` },
        "email.tsx",
      ),
    ).toEqual({
      ok: false,
      path: "email.tsx",
      message:
        '"useTranslations" is not available from next-intl in templates (available: IntlError, IntlErrorCode, createFormatter, createTranslator, hasLocale, initializeConfig)',
      line: 1,
      column: 10,
    });
  });
});

describe("JSON modules", () => {
  const messages = {
    "messages/en.json": JSON.stringify({ greeting: { hello: "Hello {name}" } }),
    "messages/fr.json": JSON.stringify({ greeting: { hello: "Bonjour {name}" } }),
  };

  it("a static import gives the parsed value; a dynamic one by template literal a namespace of its keys", async () => {
    const files = {
      ...messages,
      ...jsonOut(
        `import en from "./messages/en.json";`,
        `const compute = async ({ locale }: { locale: string }) => {
          const ns = await import(\`./messages/\${locale}.json\`);
          return { en, keys: Object.keys(ns).sort(), fr: ns.default, greeting: ns.greeting };
        };`,
      ),
    };
    const { html } = await renderFiles(files, { locale: "fr" });
    expect(readJsonOut(html)).toEqual({
      en: { greeting: { hello: "Hello {name}" } },
      keys: ["default", "greeting"],
      fr: { greeting: { hello: "Bonjour {name}" } },
      greeting: { hello: "Bonjour {name}" },
    });
  });

  it("gives every render of a context the same deep-frozen value: a render that writes to it fails, the next reads the file", async () => {
    const files = {
      ...messages,
      ...jsonOut(
        `import en from "./messages/en.json";
         import * as enNamespace from "./messages/en.json";`,
        `const compute = async ({ tamper, locale }: { tamper: boolean; locale: string }) => {
          const ns = await import(\`./messages/\${locale}.json\`);
          const writes: string[] = [];
          for (const write of [() => { (en as any).greeting.hello = "Hacked"; }, () => { (en as any).added = 1; },
            () => { (ns as any).greeting = {}; }, () => { (enNamespace as any).default = {}; }]) {
            if (!tamper) break;
            try { write(); writes.push("written"); } catch (error) { writes.push((error as Error).name); }
          }
          return { writes, en, greeting: ns.greeting, same: locale !== "en" || (ns === enNamespace && ns.default === en) };
        };`,
      ),
    };
    const code = compileFiles(files);
    const cacheKey = uniqueKey("frozen-json");
    const render = (props: Record<string, unknown>) =>
      renderInSandbox({ owner: "tests", cacheKey, compiledCode: code, props }).then(({ html }) => readJsonOut(html));
    const en = { greeting: { hello: "Hello {name}" } };
    expect(await render({ tamper: true, locale: "en" })).toEqual({
      writes: ["TypeError", "TypeError", "TypeError", "TypeError"],
      en,
      greeting: en.greeting,
      same: true,
    });
    expect(await render({ tamper: false, locale: "en" })).toEqual({
      writes: [],
      en,
      greeting: en.greeting,
      same: true,
    });
    expect(await render({ tamper: false, locale: "fr" })).toEqual({
      writes: [],
      en,
      greeting: { hello: "Bonjour {name}" },
      same: true,
    });
  });

  it("a locale with no file rejects like a failed import: caught by the template, or a render error", async () => {
    const caught = {
      ...messages,
      ...jsonOut(
        "",
        `const compute = async ({ locale }: { locale: string }) => {
          try { return await import(\`./messages/\${locale}.json\`); } catch (error) { return String(error); }
        };`,
      ),
    };
    const { html } = await renderFiles(caught, { locale: "../email" });
    expect(readJsonOut(html)).toBe("Error: Cannot find module './messages/../email.json' among the template's files");
    const uncaught = {
      ...messages,
      ...jsonOut("", `const compute = ({ locale }: any) => import(\`./messages/\${locale}.json\`);`),
    };
    const error = await expectSandboxError(renderFiles(uncaught, { locale: "de" }), "threw");
    expect(error.message).toBe(
      "Template threw: Error: Cannot find module './messages/de.json' among the template's files",
    );
  });

  it("keeps the other rules: a template literal of another shape, a computed name, invalid JSON", () => {
    const withImport = (expression: string) => ({
      "email.tsx": `export default async function E({ l }: any) { await import(${expression}); return null; }`,
    });
    expect(compileTemplateFiles(withImport("`./messages/${l}.ts`"), "email.tsx")).toMatchObject({
      ok: false,
      message: "A dynamic import() by template literal must name JSON files of a folder: `./messages/${locale}.json`",
    });
    expect(compileTemplateFiles(withImport("`react${l}.json`"), "email.tsx")).toMatchObject({ ok: false });
    expect(compileTemplateFiles(withImport("l"), "email.tsx")).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^Dynamic import\(\) needs a string literal/),
    });
    expect(
      compileTemplateFiles({ "email.tsx": "export default () => null;", "messages/en.json": '{ "a": ' }, "email.tsx"),
    ).toMatchObject({ ok: false, path: "messages/en.json", message: expect.stringMatching(/^Invalid JSON: /) });
  });
});

describe("Intl against Node's own", () => {
  const LOCALES = ["en", "fr", "de", "es", "pt-BR", "pl", "ar", "ja"];
  const COUNTS = [0, 1, 2, 5, 22, 101];
  const DATE = "2026-03-01T23:30:00Z";
  const ZONES = ["UTC", "America/New_York", "Asia/Tokyo"];
  const MESSAGES = {
    items:
      "{count, plural, zero {zero: # items} one {one: # item} two {two: # items} few {few: # items} many {many: # items} other {other: # items}}",
    decimal: "{n, number}",
    price: "{n, number, ::currency/EUR}",
    day: "{d, date, long}",
    time: "{d, time, short}",
  };

  /** What the sandbox computes; Node computes the same below with its own Intl. */
  const computeBody = `
    const LOCALES = ${JSON.stringify(LOCALES)};
    const COUNTS = ${JSON.stringify(COUNTS)};
    const ZONES = ${JSON.stringify(ZONES)};
    const MESSAGES = ${JSON.stringify(MESSAGES)};
    const compute = () => {
      const out: Record<string, unknown> = {};
      const date = new Date(${JSON.stringify(DATE)});
      for (const locale of LOCALES) {
        for (const timeZone of ZONES) {
          const t = createTranslator({ locale, messages: MESSAGES, timeZone });
          out[locale + " " + timeZone + " t"] = [
            ...COUNTS.map((count) => t("items", { count })),
            t("decimal", { n: 1234.5 }),
            t("price", { n: 1234.5 }),
            t("day", { d: date }),
            t("time", { d: date }),
          ];
          out[locale + " " + timeZone + " Intl"] = [
            ...COUNTS.map((n) => new Intl.PluralRules(locale).select(n)),
            new Intl.NumberFormat(locale).format(1234.5),
            new Intl.NumberFormat(locale, { style: "currency", currency: "EUR" }).format(1234.5),
            new Intl.DateTimeFormat(locale, { dateStyle: "full", timeStyle: "long", timeZone }).format(date),
            date.toLocaleString(locale, { timeZone }),
            (1234.5).toLocaleString(locale),
          ];
        }
      }
      return out;
    };`;

  it("formats plurals, numbers, currencies and dates in every locale of the table exactly as Node does", async () => {
    const { createTranslator } = await import("use-intl/core");
    const expected: Record<string, unknown> = {};
    const date = new Date(DATE);
    for (const locale of LOCALES) {
      for (const timeZone of ZONES) {
        const t = createTranslator({ locale, messages: MESSAGES, timeZone });
        expected[`${locale} ${timeZone} t`] = [
          ...COUNTS.map((count) => t("items", { count })),
          t("decimal", { n: 1234.5 }),
          t("price", { n: 1234.5 }),
          t("day", { d: date }),
          t("time", { d: date }),
        ];
        expected[`${locale} ${timeZone} Intl`] = [
          ...COUNTS.map((n) => new Intl.PluralRules(locale).select(n)),
          new Intl.NumberFormat(locale).format(1234.5),
          new Intl.NumberFormat(locale, { style: "currency", currency: "EUR" }).format(1234.5),
          new Intl.DateTimeFormat(locale, { dateStyle: "full", timeStyle: "long", timeZone }).format(date),
          date.toLocaleString(locale, { timeZone }),
          (1234.5).toLocaleString(locale),
        ];
      }
    }
    const { html } = await renderFiles(jsonOut(`import { createTranslator } from "next-intl";`, computeBody));
    expect(readJsonOut(html)).toEqual(expected);
    // Spot checks of what the table holds: CLDR's categories, not English's.
    expect(expected["pl UTC t"]).toContain("few: 2 items");
    expect(expected["pl UTC t"]).toContain("many: 5 items");
    expect(expected["ar UTC t"]).toContain("zero: 0 items");
    expect((expected["fr UTC t"] as string[])[0]).toBe("one: 0 item");
    expect((expected["ja Asia/Tokyo t"] as string[])[8]).toBe("2026年3月2日");
  });

  it("formats in UTC when no time zone is given", async () => {
    const files = jsonOut(
      "",
      `const compute = () => [new Intl.DateTimeFormat("en", { timeStyle: "full" }).format(new Date("${DATE}")),
        new Intl.DateTimeFormat("en").resolvedOptions().timeZone, new Date("${DATE}").toLocaleString("en")];`,
    );
    const { html } = await renderFiles(files);
    expect(readJsonOut(html)).toEqual(["11:30:00 PM Coordinated Universal Time", "UTC", "3/1/2026, 11:30:00 PM"]);
  });

  it("throws Node's errors as the sandbox's RangeError and TypeError", async () => {
    const files = jsonOut(
      "",
      `const compute = () => {
        const out: string[] = [];
        for (const f of [() => new Intl.NumberFormat("en", { style: "currency" }), () => new Intl.DateTimeFormat("xx-!!"),
          () => new Intl.DateTimeFormat("en").format(NaN), () => new Intl.ListFormat("en").format([1] as any)]) {
          try { f(); out.push("no error"); } catch (error) { out.push((error as Error).name + (error instanceof RangeError || error instanceof TypeError ? "" : "?")); }
        }
        return out;
      };`,
    );
    const { html } = await renderFiles(files);
    expect(readJsonOut(html)).toEqual(["TypeError", "RangeError", "RangeError", "TypeError"]);
  });

  it("gives each formatter one bound format function, as Node does", async () => {
    const compute = () => {
      const numbers = new Intl.NumberFormat("de");
      const dates = new Intl.DateTimeFormat("fr", { timeZone: "UTC", dateStyle: "long" });
      const format = numbers.format;
      const getter = Object.getOwnPropertyDescriptor(Intl.NumberFormat.prototype, "format")!.get!;
      let foreign = "no error";
      try {
        getter.call({});
      } catch (error) {
        foreign = (error as Error).name;
      }
      return [
        numbers.format === numbers.format,
        dates.format === dates.format,
        new Intl.NumberFormat("de").format === format,
        format(1234.5),
        [1000, 2.5].map(numbers.format),
        dates.format(Date.UTC(2026, 2, 1)),
        foreign,
      ];
    };
    const files = jsonOut("", `const compute = ${compute.toString()};`);
    const { html } = await renderFiles(files);
    expect(readJsonOut(html)).toEqual(compute());
    expect(compute()).toEqual([true, true, false, "1.234,5", ["1.000", "2,5"], "1 mars 2026", "TypeError"]);
  });

  it("answers a fresh resolvedOptions() each call, its arrays too, as Node does", async () => {
    const files = jsonOut(
      "",
      `const compute = () => {
        const rules = new Intl.PluralRules("pl");
        const first = rules.resolvedOptions();
        first.pluralCategories.push("changed");
        first.locale = "xx";
        const again = rules.resolvedOptions();
        return [first === again, again.locale, again.pluralCategories];
      };`,
    );
    const { html } = await renderFiles(files);
    expect(readJsonOut(html)).toEqual([false, "pl", new Intl.PluralRules("pl").resolvedOptions().pluralCategories]);
  });

  it("stops a template that loops on Intl calls at its deadline", async () => {
    const files = {
      "email.tsx": `export default function Loop() {
        let s = "";
        for (;;) s = new Intl.NumberFormat("fr", { maximumFractionDigits: 2 }).format(Math.random());
        return s;
      }`,
    };
    const started = Date.now();
    const error = await expectSandboxError(renderFiles(files, {}, { limits: { timeoutMs: 400 } }), "timeout");
    expect(error.message).toBe("Template exceeded the render deadline");
    expect(Date.now() - started).toBeLessThan(400 + 1500);
  });

  it("refuses a request past the size cap, and keeps at most MAX_CACHED_FORMATTERS formatters, by content", () => {
    expect(
      JSON.parse(
        answerIntlRequest(JSON.stringify(["call", "ListFormat", ["en"], null, "format", [["x".repeat(40_000)]]])),
      ),
    ).toEqual({
      e: ["RangeError", "Intl arguments exceed 32768 characters"],
    });
    clearFormatterCache();
    const format = (digits: number) =>
      JSON.parse(
        answerIntlRequest(
          JSON.stringify(["call", "NumberFormat", ["de"], { minimumIntegerDigits: digits }, "format", [7]]),
        ),
      );
    expect(format(3)).toEqual({ v: "007" });
    expect(format(3)).toEqual({ v: "007" });
    expect(cachedFormatterCount()).toBe(1);
    for (let i = 0; i < MAX_CACHED_FORMATTERS + 10; i++) {
      answerIntlRequest(
        JSON.stringify([
          "new",
          "NumberFormat",
          ["en"],
          {
            maximumFractionDigits: i % 20,
            minimumIntegerDigits: 1 + (i % 21),
            notation: "standard",
            useGrouping: i > 300,
          },
        ]),
      );
    }
    expect(cachedFormatterCount()).toBe(MAX_CACHED_FORMATTERS);
  });

  it("refuses a tag over 255 characters and a list of more than 32 locales, caching neither", () => {
    clearFormatterCache();
    const ask = (request: unknown[]) => JSON.parse(answerIntlRequest(JSON.stringify(request))) as unknown;
    let tag = "en-x";
    while (tag.length + 9 <= 255) tag += "-abcdefgh";
    tag += "-abcdefg";
    expect(tag.length).toBe(255);
    expect(ask(["locale", null, [tag], null])).toMatchObject({ v: { tag } });
    const tooLong = `${tag}-a`;
    for (const request of [
      ["new", "NumberFormat", [tooLong], null],
      ["locale", null, [tooLong], null],
      ["canonical", null, [tooLong]],
    ]) {
      expect(ask(request)).toEqual({ e: ["RangeError", "Incorrect locale information provided"] });
    }
    const many = Array.from({ length: 33 }, (_, i) => `en-x-${i}`);
    expect(ask(["new", "NumberFormat", many, null])).toEqual({
      e: ["RangeError", "Intl takes at most 32 locales at once"],
    });
    expect(ask(["new", "NumberFormat", many.slice(0, 32), null])).toMatchObject({ v: { locale: "en" } });
    expect(cachedFormatterCount()).toBe(2);
  });
});

describe("what a context keeps of its renders' formatting", () => {
  it("keeps message trees frozen and Intl answers by content: a render that tries to change them changes nothing", async () => {
    const files = jsonOut(
      `import { createTranslator, _createCache, _createIntlFormatters } from "next-intl";`,
      `const compute = ({ tamper }: { tamper: boolean }) => {
        const cache = _createCache();
        const formatters: any = _createIntlFormatters(cache);
        const messages = { n: "{count, plural, one {# article} other {# articles}}" };
        const t = createTranslator({ locale: "fr", messages, _cache: cache, _formatters: formatters } as any);
        const before = t("n", { count: 2 });
        let tampered = "untouched";
        if (tamper) {
          const ast = formatters.getMessageFormat(messages.n, "fr", undefined, { formatters }).getAst();
          try { ast[0].options.other.value[0].type = 0; ast[0].options.other.value.push({ type: 0, value: "!" }); tampered = "changed"; }
          catch (error) { tampered = (error as Error).name; }
        }
        return { before, tampered, after: t("n", { count: 2 }), number: (1234.5).toLocaleString("fr") };
      };`,
    );
    const code = compileFiles(files);
    const cacheKey = uniqueKey("kept");
    const first = await renderInSandbox({ owner: "tests", cacheKey, compiledCode: code, props: { tamper: true } });
    const second = await renderInSandbox({ owner: "tests", cacheKey, compiledCode: code, props: { tamper: false } });
    const number = new Intl.NumberFormat("fr").format(1234.5);
    expect(readJsonOut(first.html)).toEqual({
      before: "2 articles",
      tampered: "TypeError",
      after: "2 articles",
      number,
    });
    expect(readJsonOut(second.html)).toEqual({
      before: "2 articles",
      tampered: "untouched",
      after: "2 articles",
      number,
    });
  });
});

describe("translators' shared cache", () => {
  it("gives each render its own time zone and locale's formatting, whatever an earlier render of the context used", async () => {
    const messages = {
      when: "{d, date} {d, time, short} {d, date, ::yyyyMMMd}",
      n: "{count, plural, one {# a} other {# b}}",
    };
    const files = jsonOut(
      `import { createTranslator } from "next-intl";`,
      `const compute = ({ locale, timeZone }: { locale: string; timeZone?: string }) => {
        const t = createTranslator({ locale, timeZone, messages: ${JSON.stringify(messages)} });
        return [t("when", { d: new Date("2026-03-01T23:30:00Z") }), t("n", { count: 1 })];
      };`,
    );
    const { createTranslator } = await import("use-intl/core");
    const code = compileFiles(files);
    const cacheKey = uniqueKey("shared");
    for (const props of [
      { locale: "en", timeZone: "Asia/Tokyo" },
      { locale: "en" },
      { locale: "en", timeZone: "America/New_York" },
      { locale: "fr", timeZone: "America/New_York" },
    ]) {
      const t = createTranslator({ messages, ...props, timeZone: props.timeZone ?? "UTC" });
      const expected = [t("when", { d: new Date("2026-03-01T23:30:00Z") }), t("n", { count: 1 })];
      const { html } = await renderInSandbox({ owner: "tests", cacheKey, compiledCode: code, props });
      expect(readJsonOut(html), JSON.stringify(props)).toEqual(expected);
    }
  });
});

describe("translators kept across renders (over a JSON file of the template)", () => {
  const files = {
    "messages/en.json": JSON.stringify({
      mail: { hi: "Hi {name}", n: "{count, plural, one {# item} other {# items}}" },
    }),
    "messages/fr.json": JSON.stringify({
      mail: { hi: "Salut {name}", n: "{count, plural, one {# article} other {# articles}}" },
    }),
    ...jsonOut(
      `import { createTranslator } from "next-intl";`,
      `const compute = async ({ locale, name, count, tamper, tricky, onError }: Record<string, any>) => {
        const messages = await import(\`./messages/\${locale}.json\`);
        let reads = 0;
        const config: any = tricky
          ? { messages, namespace: "mail", get locale() { return reads++ === 0 ? locale : "en"; } }
          : { messages, namespace: "mail", locale, ...(onError ? { onError: () => {} } : {}) };
        const t: any = createTranslator(config);
        let written = "untouched";
        if (tamper) {
          try { t.raw = () => "Hacked"; written = "written"; } catch (error) { written = (error as Error).name; }
        }
        return { hi: t("hi", { name }), n: t("n", { count }), missing: t("nope"), raw: t.raw("hi"), written };
      };`,
    ),
  };

  it("gives each render the translation of its own locale and values, and none can change a kept translator", async () => {
    const code = compileFiles(files);
    const cacheKey = uniqueKey("kept-translators");
    const render = (props: Record<string, unknown>) =>
      renderInSandbox({ owner: "tests", cacheKey, compiledCode: code, props }).then(({ html }) => readJsonOut(html));
    const fr = (name: string, count: number, written = "untouched") => ({
      hi: `Salut ${name}`,
      n: `${count} ${count === 1 ? "article" : "articles"}`,
      missing: "mail.nope",
      raw: "Salut {name}",
      written,
    });
    const en = (name: string, count: number) => ({
      hi: `Hi ${name}`,
      n: `${count} ${count === 1 ? "item" : "items"}`,
      missing: "mail.nope",
      raw: "Hi {name}",
      written: "untouched",
    });
    expect(await render({ locale: "fr", name: "Ada", count: 1, tamper: true })).toEqual(fr("Ada", 1, "TypeError"));
    expect(await render({ locale: "en", name: "Bo", count: 2 })).toEqual(en("Bo", 2));
    expect(await render({ locale: "fr", name: "Cy", count: 5 })).toEqual(fr("Cy", 5));
    // A translator with a setting of its own (here onError) is made for its render alone.
    expect(await render({ locale: "fr", name: "Di", count: 1, onError: true })).toEqual(fr("Di", 1));
    // A config whose locale reads differently the second time gets the translator of what was read once, and the
    // next render of that locale is not given another locale's translator.
    expect(await render({ locale: "fr", name: "Ed", count: 2, tricky: true })).toEqual(fr("Ed", 2));
    expect(await render({ locale: "fr", name: "Flo", count: 3 })).toEqual(fr("Flo", 3));
  });
});

describe("a kept translator's t()", () => {
  const messages = (hi: string, items: [string, string]) =>
    JSON.stringify({
      mail: {
        hi,
        n: `{count, plural, =0 {none} one {# ${items[0]}} other {# ${items[1]}}}`,
        when: "{d, date, long} {d, time, short}",
        sel: "{g, select, female {she} male {he} other {they}}",
        price: "{v, number, eur}",
        b: "<b>{name}</b>!",
        esc: "'{'literal'}' {name}",
        empty: "",
        nested: { deep: "Deep {name}" },
        plain: "Plain text",
      },
      zero: 0,
    });
  const files: Record<string, string> = {
    "messages/en.json": messages("Hi {name}", ["item", "items"]),
    "messages/fr.json": messages("Salut {name}", ["article", "articles"]),
    ...jsonOut(
      `import { createTranslator } from "next-intl";`,
      `const compute = async ({ locale, name, count, at }: Record<string, any>) => {
        const messages = await import(\`./messages/\${locale}.json\`);
        const d = new Date(at);
        const eur = { number: { eur: { style: "currency", currency: "EUR" } } };
        const calls = (t: any) => [
          t("hi", { name }),
          t("hi", {}),
          t("hi", { name, extra: 1 }),
          t("hi", new (class { name = name + " (class)"; })()),
          t("hi", Object.create({ name: "inherited" })),
          ...[0, 1, 2, 5, count].map((c) => t("n", { count: c })),
          t("when", { d }),
          t("sel", { g: "female" }),
          t("sel", { g: "x" }),
          t("price", { v: 12.5 }, eur),
          t("price", { v: 12.5 }),
          t("b", { name, b: (chunks: unknown[]) => "[" + chunks.join("") + "]" }),
          t.rich("b", { name, b: (chunks: unknown[]) => "[" + chunks.join("") + "]" }),
          t("esc", { name }),
          t("empty"),
          t("nested.deep", { name }),
          t("nested"),
          t("nope"),
          t("hi.length"),
          t("hi", { name }, undefined, "fallback"),
          t.has("hi"),
          t.has("nope"),
          t.raw("n"),
          // An accessor of Function.prototype that throws as the key's path reads it.
          t("constructor.caller"),
          t("plain", null),
          t("hi", "ab"),
          // Values are read once, as use-intl copies them, whether they format, throw or hold a function.
          ((reads) => [t("hi", { get name() { reads.n++; return "Getter"; } }), reads.n])({ n: 0 }),
          ((reads) => [t("b", { get name() { reads.n++; return "G"; }, b: (c: unknown[]) => c.join("") }), reads.n])({ n: 0 }),
          t("hi", { get name(): string { throw new Error("no"); } }),
        ];
        const utc = createTranslator({ messages, namespace: "mail", locale, timeZone: "UTC" });
        const tokyo = createTranslator({ messages, namespace: "mail", locale, timeZone: "Asia/Tokyo" });
        const nested = createTranslator({ messages, namespace: "mail.nested", locale, timeZone: "UTC" });
        const missing = createTranslator({ messages, namespace: "nowhere", locale, timeZone: "UTC" });
        const falsy = createTranslator({ messages, namespace: "zero", locale, timeZone: "UTC" });
        return [
          calls(utc),
          calls(tokyo),
          nested("deep", { name }),
          missing("hi", { name }),
          falsy("constructor.name"),
          falsy("toFixed"),
        ];
      };`,
    ),
  };

  it("answers every kind of call as use-intl's own t() does, render after render", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const dir = path.join(root, "node_modules", ".cache", "letterpress-tests", `kept-t-${process.pid}`);
    for (const [file, text] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
      await writeFile(path.join(dir, file), text);
    }
    const Native = await importTsxFiles({ "email.tsx": files["email.tsx"] }, "email.tsx", dir);
    const code = compileFiles(files);
    const cacheKey = uniqueKey("kept-t");
    const cases = [
      { locale: "fr", name: "Ada", count: 22, at: "2026-03-01T23:30:00Z" },
      { locale: "en", name: "Bo", count: 1, at: "2026-07-04T08:05:00Z" },
      { locale: "fr", name: "Cy", count: 101, at: "2026-12-31T12:00:00Z" },
    ];
    for (const props of cases) {
      const native = readJsonOut(await render(createElement(Native, props)));
      const { html } = await renderInSandbox({ owner: "tests", cacheKey, compiledCode: code, props });
      expect(readJsonOut(html)).toEqual(native);
    }
    const fr = readJsonOut(
      (await renderInSandbox({ owner: "tests", cacheKey, compiledCode: code, props: cases[0] })).html,
    );
    expect((fr as unknown[][])[0].slice(0, 10)).toEqual([
      "Salut Ada",
      "mail.hi",
      "Salut Ada",
      "Salut Ada (class)",
      "mail.hi",
      "none",
      "1 article",
      "2 articles",
      "5 articles",
      "22 articles",
    ]);
  });
});

describe("subject", () => {
  it("formats the subject message in props.locale with the props, in the same job", async () => {
    const files = { "email.tsx": `export default function E({ name }: { name: string }) { return <p>{name}</p>; }` };
    const result = await renderFiles(
      files,
      { name: "Ada", locale: "fr", count: 3, total: 1234.5 },
      {
        subjectMessage:
          "{name}, {count, plural, one {# article} other {# articles}} pour {total, number, ::currency/EUR}",
      },
    );
    expect(result.subject).toBe(
      `Ada, 3 articles pour ${new Intl.NumberFormat("fr", { style: "currency", currency: "EUR" }).format(1234.5)}`,
    );
    expect(result.html).toContain("<p>Ada</p>");
    // A warm context of a template that imports no next-intl: the job with a subject gets one with IntlMessageFormat.
    const code = compileFiles(files);
    const cacheKey = uniqueKey("subject");
    const without = await renderInSandbox({ owner: "tests", cacheKey, compiledCode: code, props: { name: "Ada" } });
    expect(without).toEqual({ html: expect.any(String) });
    const withSubject = await renderInSandbox({
      owner: "tests",
      cacheKey,
      compiledCode: code,
      props: { name: "Ada", locale: "pl", count: 5 },
      subjectMessage: "{count, plural, one {# plik} few {# pliki} many {# plików} other {# pliku}}",
    });
    expect(withSubject).toEqual({ html: without.html, subject: "5 plików" });
  });

  it("a subject message missing a value is a render error", async () => {
    const files = { "email.tsx": `export default function E() { return <p>x</p>; }` };
    const error = await expectSandboxError(renderFiles(files, {}, { subjectMessage: "Hi {name}" }), "threw");
    expect(error.message).toMatch(/^Template threw: The subject message could not be formatted: /);
  });
});

describe("React Email's next-intl guide", () => {
  const WELCOME = `import { createTranslator } from "next-intl";
import { Body, Button, Container, Head, Html, Preview, Section, Text } from "@react-email/components";

export default async function WelcomeEmail({ name, locale }: { name: string; locale: string }) {
  const t = createTranslator({
    messages: await import(\`./messages/\${locale}.json\`),
    namespace: "welcome-email",
    locale,
  });

  return (
    <Html>
      <Head />
      <Preview>{t("header")}</Preview>
      <Body style={{ backgroundColor: "#ffffff", fontFamily: "sans-serif" }}>
        <Container style={{ margin: "0 auto", padding: "20px 0 48px" }}>
          <Text style={{ fontSize: "16px" }}>
            {t("hi")} {name}
          </Text>
          <Text style={{ fontSize: "16px" }}>{t("thanks")}</Text>
          <Section style={{ textAlign: "center" }}>
            <Button style={{ backgroundColor: "#5F51E8", color: "#fff", padding: "12px" }} href="https://example.com">
              {t("get-started")}
            </Button>
          </Section>
        </Container>
      </Body>
    </Html>
  );
}
`;
  const MESSAGES = {
    "messages/en.json": JSON.stringify({
      "welcome-email": {
        header: "Welcome to our platform",
        hi: "Hi",
        thanks: "Thanks for signing up! We're excited to have you on board.",
        "get-started": "Get started",
      },
    }),
    "messages/fr.json": JSON.stringify({
      "welcome-email": {
        header: "Bienvenue sur notre plateforme",
        hi: "Bonjour",
        thanks: "Merci de vous être inscrit ! Nous sommes ravis de vous compter parmi nous.",
        "get-started": "Commencer",
      },
    }),
  };

  it("renders in both locales byte for byte as @react-email/render renders it natively with next-intl", async () => {
    const dir = path.join(root, "node_modules", ".cache", "letterpress-tests", `intl-guide-${process.pid}`);
    for (const [file, text] of Object.entries(MESSAGES)) {
      await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
      await writeFile(path.join(dir, file), text);
    }
    const Native = await importTsxFiles({ "email.tsx": WELCOME }, "email.tsx", dir);
    const code = compileFiles({ "email.tsx": WELCOME, ...MESSAGES });
    for (const locale of ["en", "fr"]) {
      const props = { name: "Ada", locale };
      const native = await render(createElement(Native, props));
      const { html } = await renderInSandbox({
        owner: "tests",
        cacheKey: uniqueKey("guide"),
        compiledCode: code,
        props,
      });
      expect(html).toBe(native);
      expect(html).toContain(locale === "fr" ? "Bonjour<!-- --> <!-- -->Ada" : "Hi<!-- --> <!-- -->Ada");
    }
  });
});
