import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/core/errors";
import {
  MAX_LOCALE_CHARS,
  MAX_MERGED_MESSAGES_CHARS,
  MAX_MESSAGE_ELEMENTS,
  MAX_MESSAGE_NESTING,
} from "@/lib/core/limits";
import { canonicalTag, MAX_KEPT_CANONICAL_TAGS, templateFilesProblems } from "@/lib/templates/files";
import { checkMessages, localizedFiles, messageProblem, resolveLocale } from "@/lib/templates/messages";

const code = { "email.tsx": "export default () => null;" };
const json = (value: unknown) => JSON.stringify(value);

describe("messages files among a template's files", () => {
  it("allows messages/<tag>.json with a canonical tag, and no other .json", () => {
    expect(
      templateFilesProblems({ ...code, "messages/en.json": "{}", "messages/pt-BR.json": "{}" }, undefined),
    ).toEqual([]);
    expect(
      templateFilesProblems(
        {
          ...code,
          "data.json": "{}",
          "messages/pt-br.json": "{}",
          "messages/xx_YY.json": "{}",
          "messages/a/en.json": "{}",
        },
        undefined,
      ),
    ).toEqual([
      {
        field: "files.data.json",
        message: "must be messages/<tag>.json (<tag> a BCP 47 language tag: en, fr, pt-BR): no other .json file",
        path: "data.json",
      },
      {
        field: "files.messages/pt-br.json",
        message: "must write its tag as pt-BR: messages/pt-BR.json",
        path: "messages/pt-br.json",
      },
      {
        field: "files.messages/xx_YY.json",
        message: 'names no BCP 47 language tag ("xx_YY"): write en, fr, pt-BR, zh-Hant',
        path: "messages/xx_YY.json",
      },
      {
        field: "files.messages/a/en.json",
        message: "must be messages/<tag>.json (<tag> a BCP 47 language tag: en, fr, pt-BR): no other .json file",
        path: "messages/a/en.json",
      },
    ]);
  });

  it("counts locales apart from the 20 code files and their characters, each file at most 100 KB", () => {
    const many = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`messages/en-x-n${100 + i}.json`, "{}"]));
    const twenty = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`f${i}.tsx`, "x"]));
    expect(templateFilesProblems({ ...twenty, ...many, "f0.tsx": "x", "email.tsx": "x" }, "f0.tsx")).toEqual([
      { field: "files", message: "must hold at most 20 files (it holds 21)" },
    ]);
    const nineteen = Object.fromEntries(Array.from({ length: 19 }, (_, i) => [`f${i}.tsx`, "x"]));
    expect(templateFilesProblems({ ...nineteen, ...many, "email.tsx": "x" }, undefined)).toEqual([]);
    expect(templateFilesProblems({ ...code, ...many, "messages/en.json": "{}" }, undefined)).toEqual([
      { field: "files", message: "must hold messages for at most 50 locales (it holds 51)" },
    ]);
    const big = json({ a: "é".repeat(51_200) }); // 102,400 bytes of é, and 8 more
    expect(templateFilesProblems({ ...code, "messages/en.json": big }, undefined)).toEqual([
      {
        field: "files.messages/en.json",
        message: "must be at most 100 KB (it is 102,408 bytes)",
        path: "messages/en.json",
      },
    ]);
    // 500,000 characters of code, and messages besides.
    expect(
      templateFilesProblems(
        { "email.tsx": "x".repeat(500_000), "messages/en.json": json({ a: "b".repeat(90_000) }) },
        undefined,
      ),
    ).toEqual([]);
  });

  it("never takes a messages file as the entry", () => {
    expect(templateFilesProblems({ ...code, "messages/en.json": "{}" }, "messages/en.json")).toEqual([
      { field: "entry", message: 'must be one of the files ("messages/en.json" is not)' },
    ]);
  });
});

describe("checkMessages", () => {
  it("answers the locales, the default and a warning per missing key", () => {
    const files = {
      ...code,
      "messages/en.json": json({ subject: "Hi {name}", welcome: { title: "Welcome", body: "Hello" }, bye: "Bye" }),
      "messages/fr.json": json({ welcome: { body: "Bonjour" } }),
      "messages/fr-CA.json": json({ bye: "Salut" }),
    };
    expect(checkMessages(files, undefined)).toEqual({
      ok: true,
      messages: {
        defaultLocale: "en",
        locales: [
          { tag: "en", subject: "Hi {name}" },
          { tag: "fr", subject: "Hi {name}" },
          { tag: "fr-CA", subject: "Hi {name}" },
        ],
      },
      warnings: [
        { field: "files.messages/fr.json", message: "missing subject: falls back to en" },
        { field: "files.messages/fr.json", message: "missing welcome.title: falls back to en" },
        { field: "files.messages/fr.json", message: "missing bye: falls back to en" },
        { field: "files.messages/fr-CA.json", message: "missing subject: falls back to en" },
        { field: "files.messages/fr-CA.json", message: "missing welcome.title: falls back to en" },
        { field: "files.messages/fr-CA.json", message: "missing welcome.body: falls back to fr" },
      ],
    });
  });

  it("chooses default_locale, else en, else the first tag", () => {
    const files = { ...code, "messages/de.json": "{}", "messages/fr.json": "{}" };
    expect(checkMessages(files, undefined)).toEqual({
      ok: true,
      messages: { defaultLocale: "de", locales: [{ tag: "de" }, { tag: "fr" }] },
      warnings: [],
    });
    expect(checkMessages(files, "FR")).toMatchObject({ ok: true, messages: { defaultLocale: "fr" } });
    expect(checkMessages(files, "es")).toEqual({
      ok: false,
      problems: [{ field: "default_locale", message: "default_locale must be one of the template's locales (de, fr)" }],
    });
    expect(checkMessages(files, "not a tag")).toEqual({
      ok: false,
      problems: [{ field: "default_locale", message: "default_locale must be a BCP 47 language tag (en, pt-BR)" }],
    });
    expect(checkMessages(code, "en")).toEqual({
      ok: false,
      problems: [
        {
          field: "default_locale",
          message: "default_locale needs the template's messages: a messages/<tag>.json file per locale",
        },
      ],
    });
    expect(checkMessages(code, undefined)).toEqual({ ok: true, messages: null, warnings: [] });
  });

  it("refuses malformed JSON, shapes and ICU messages, naming the file and the key", () => {
    const check = (content: string) => checkMessages({ ...code, "messages/en.json": content }, undefined);
    const refused = (message: string) => ({ ok: false, problems: [{ field: "files.messages/en.json", message }] });
    expect(check("{")).toEqual(refused(expect.stringMatching(/^is not valid JSON: /) as unknown as string));
    expect(check("[]")).toEqual(refused('must hold a JSON object of messages ({ "welcome": { "title": "…" } })'));
    expect(check(json({ welcome: { title: "Hi {name" } }))).toEqual(
      refused("welcome.title: is not a valid ICU message (EXPECT_ARGUMENT_CLOSING_BRACE at character 4)"),
    );
    expect(check(json({ a: { b: 1 } }))).toEqual(
      refused("a.b must be a message (a string) or an object of messages, not number"),
    );
    expect(check(json({ a: ["x"] }))).toEqual(
      refused("a must be a message (a string) or an object of messages, not an array"),
    );
    expect(check(json({ "a.b": "x" }))).toEqual(refused('has the key "a.b": a key must be non-empty, with no "."'));
    expect(check(json({ a: { b: { c: { d: { e: { f: { g: "x" } } } } } } }))).toMatchObject({ ok: true });
    expect(check(json({ a: { b: { c: { d: { e: { f: { g: { h: "x" } } } } } } } }))).toMatchObject({ ok: true });
    expect(check(json({ a: { b: { c: { d: { e: { f: { g: { h: { i: "x" } } } } } } } } }))).toEqual(
      refused("nests objects more than 8 deep (at a.b.c.d.e.f.g.h)"),
    );
  });
});

describe("messages built to explode", () => {
  const nested = (depth: number): string =>
    depth === 0 ? "x" : `{n${depth}, plural, one {${nested(depth - 1)}} other {${nested(depth - 1)}}}`;

  it("bounds plural and select nesting and the elements of one message", () => {
    expect(messageProblem(nested(MAX_MESSAGE_NESTING))).toBeNull();
    expect(messageProblem(nested(MAX_MESSAGE_NESTING + 1))).toBe(
      `nests plural and select more than ${MAX_MESSAGE_NESTING} deep`,
    );
    const select = (cases: number) =>
      `{k, select, ${Array.from({ length: cases }, (_, i) => `c${i} {x}`).join(" ")} other {y}}`;
    expect(messageProblem(select(200))).toBeNull();
    expect(messageProblem(select(MAX_MESSAGE_ELEMENTS))).toBe(
      `has more than ${MAX_MESSAGE_ELEMENTS} elements (text, arguments, tags and plural or select options)`,
    );
  });

  it("parses in time linear in the input, however deep it nests", () => {
    const deep = "{a, select, other {".repeat(6000) + "x" + "}}".repeat(6000);
    const tags = "<b>".repeat(30_000) + "x" + "</b>".repeat(30_000);
    for (const message of [deep, tags, "{".repeat(100_000), "'{".repeat(50_000)]) {
      const started = performance.now();
      expect(messageProblem(message)).toEqual(expect.any(String));
      expect(performance.now() - started).toBeLessThan(500);
    }
  });
});

describe("what a save of many locales answers and keeps", () => {
  /** messages/<tag>.json for en, then en-x-00, en-x-00-01, …: each tag the parent of the next, each with its own keys. */
  function chain(locales: number, keys: number): Record<string, string> {
    const files: Record<string, string> = { ...code };
    let tag = "en";
    for (let l = 0; l < locales; l++) {
      files[`messages/${tag}.json`] = json(
        Object.fromEntries(Array.from({ length: keys }, (_, k) => [`l${l}k${k}`, "x"])),
      );
      tag = l === 0 ? "en-x-00" : `${tag}-${l.toString(36).padStart(2, "0")}`;
    }
    return files;
  }

  it("names 20 missing keys per locale, then says how many more", () => {
    const keys = Object.fromEntries(Array.from({ length: 25 }, (_, k) => [`k${k}`, "x"]));
    const checked = checkMessages(
      { ...code, "messages/en.json": json(keys), "messages/fr.json": json({ k0: "y" }), "messages/fr-CA.json": "{}" },
      undefined,
    );
    if (!checked.ok) throw new Error("refused");
    const fr = checked.warnings.filter(({ field }) => field === "files.messages/fr.json");
    expect(fr).toHaveLength(21);
    expect(fr[0]).toEqual({ field: "files.messages/fr.json", message: "missing k1: falls back to en" });
    expect(fr[20]).toEqual({ field: "files.messages/fr.json", message: "missing 4 more keys: each falls back to en" });
    const frCA = checked.warnings.filter(({ field }) => field === "files.messages/fr-CA.json");
    expect(frCA[0]).toEqual({ field: "files.messages/fr-CA.json", message: "missing k0: falls back to fr" });
    expect(frCA[1]).toEqual({ field: "files.messages/fr-CA.json", message: "missing k1: falls back to en" });
    expect(frCA[20]).toEqual({
      field: "files.messages/fr-CA.json",
      message: "missing 5 more keys: each falls back to the nearest parent locale that has it, else en",
    });
    expect(checked.warnings).toHaveLength(42);
  });

  it("refuses messages whose fallbacks merged would pass the cap, and merges a chain of 50 in linear time", () => {
    const files = chain(50, 1000);
    expect(templateFilesProblems(files, "email.tsx")).toEqual([]);
    // The time it takes is read against a chain of 10 checked just before, on this machine as it is now.
    const timed = (check: () => unknown) => {
      const started = performance.now();
      check();
      return performance.now() - started;
    };
    const tenLocales = chain(10, 1000);
    const [, ten] = [1, 2, 3]
      .map(() => timed(() => expect(checkMessages(tenLocales, "en").ok).toBe(true)))
      .sort((a, b) => a - b);
    const fifty = timed(() =>
      expect(checkMessages(files, "en")).toEqual({
        ok: false,
        problems: [
          {
            field: "files",
            message: `holds messages that, each locale merged with its fallbacks, come to more than ${MAX_MERGED_MESSAGES_CHARS.toLocaleString("en")} characters: fewer locales, or complete ones`,
          },
        ],
      }),
    );
    // Stopped at the cap: the whole would be about 4 times the cap (quadratic in the chain's length), some 30 times
    // the chain of 10; stopped, about 8 times.
    expect(fifty / ten).toBeLessThan(15);
    const fits = chain(50, 20);
    const checked = checkMessages(fits, "en");
    expect(checked.ok).toBe(true);
    const merged = localizedFiles(fits, "en");
    const deepest = Object.keys(fits).sort((a, b) => b.length - a.length)[0];
    expect(Object.keys(JSON.parse(merged[deepest]) as object)).toHaveLength(50 * 20);
  });

  it("refuses a subject message over 2,000 characters, naming its file", () => {
    expect(
      checkMessages(
        {
          ...code,
          "messages/en.json": json({ subject: "Hi" }),
          "messages/fr.json": json({ subject: "x".repeat(2001) }),
        },
        undefined,
      ),
    ).toEqual({
      ok: false,
      problems: [
        {
          field: "files.messages/fr.json",
          message: "subject: is longer than 2,000 characters (a subject line is at most 998)",
        },
      ],
    });
    expect(checkMessages({ ...code, "messages/en.json": json({ subject: "x".repeat(2000) }) }, undefined).ok).toBe(
      true,
    );
  });
});

describe("localizedFiles", () => {
  it("merges default ← parents ← tag into each messages file, leaving code files as they are", () => {
    const files = {
      ...code,
      "messages/en.json": json({ a: "A", g: { x: "X", y: "Y" } }),
      "messages/fr.json": json({ g: { x: "FX" } }),
      "messages/fr-CA.json": json({ a: "CA" }),
    };
    expect(localizedFiles(files, "en")).toEqual({
      ...code,
      "messages/en.json": json({ a: "A", g: { x: "X", y: "Y" } }),
      "messages/fr.json": json({ a: "A", g: { x: "FX", y: "Y" } }),
      "messages/fr-CA.json": json({ a: "CA", g: { x: "FX", y: "Y" } }),
    });
    expect(localizedFiles(code, null)).toBe(code);
  });

  it("gives __proto__ keys no meaning", () => {
    const files = {
      ...code,
      "messages/en.json": '{"__proto__": {"polluted": "yes"}, "a": "A"}',
      "messages/fr.json": "{}",
    };
    const merged = JSON.parse(localizedFiles(files, "en")["messages/fr.json"]) as Record<string, unknown>;
    expect(Object.keys(merged)).toEqual(["__proto__", "a"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("resolveLocale", () => {
  const locales = ["de", "en", "fr", "pt-BR", "zh-Hant"];
  it("looks up fr-CA → fr → the default, canonically", () => {
    expect(resolveLocale("fr-CA", locales, "en")).toBe("fr");
    expect(resolveLocale("fr", locales, "en")).toBe("fr");
    expect(resolveLocale("PT-br", locales, "en")).toBe("pt-BR");
    expect(resolveLocale("pt", locales, "en")).toBe("en");
    expect(resolveLocale("zh-Hant-TW", locales, "en")).toBe("zh-Hant");
    expect(resolveLocale("ja", locales, "de")).toBe("de");
    expect(resolveLocale(undefined, locales, "de")).toBe("de");
  });

  it("refuses a malformed tag with field locale", () => {
    let thrown: unknown;
    try {
      resolveLocale("en_US!", locales, "en");
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AppError);
    expect((thrown as AppError).options.details).toEqual([
      { field: "locale", message: "locale must be a BCP 47 language tag (en, fr-CA, pt-BR)" },
    ]);
  });
});

describe("canonicalTag, whose answers are kept by the tag's text", () => {
  const intl = (tag: string) => {
    try {
      return Intl.getCanonicalLocales(tag)[0] ?? null;
    } catch {
      return null;
    }
  };
  const table = [
    "pt-br",
    "PT-BR",
    "fr",
    "en-us",
    "zh-hant-tw",
    "de-DE-u-co-phonebk",
    "x",
    "fr_FR",
    "",
    "en-",
    "a".repeat(70),
  ];

  it("answers as Intl does, asked once, again, and after more tags than it keeps", () => {
    const first = table.map(canonicalTag);
    expect(first).toEqual(table.map(intl));
    expect(table.map(canonicalTag)).toEqual(first);
    for (let i = 0; i <= MAX_KEPT_CANONICAL_TAGS; i++) canonicalTag(`x-${i.toString(36)}`);
    expect([...table].reverse().map(canonicalTag)).toEqual([...table].reverse().map(intl));
    expect(canonicalTag("b".repeat(MAX_LOCALE_CHARS + 1))).toBeNull();
  });
});
