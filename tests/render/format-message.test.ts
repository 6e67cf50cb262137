/**
 * The sandbox's `use-intl/format-message` (lib/render/sandbox/format-message.ts, which the sandbox's Intl bundle uses
 * in place of use-intl's own) formats every message as use-intl's own does: the same text or the same error code, on
 * a first call and from its cache, for each locale, time zone and formats a translator may carry.
 */
import { describe, expect, it } from "vitest";
import useIntlFormatMessage from "use-intl/format-message";
import { _createCache, _createIntlFormatters } from "use-intl/core";
import sandboxFormatMessage from "@/lib/render/sandbox/format-message";

type Options = { locale: string; timeZone?: string; formats?: object; globalFormats?: object };
const formatters = (format: (...args: never[]) => unknown) => {
  const cache = _createCache();
  const intlFormatters = _createIntlFormatters(cache);
  return (key: string, message: unknown, values: object | undefined, options: Options) => {
    try {
      return {
        text: format(...([key, message, values, { cache, formatters: intlFormatters, ...options }] as never[])),
      };
    } catch (error) {
      return { code: (error as { code?: string }).code };
    }
  };
};

const date = new Date("2026-03-01T23:30:00Z");
const CASES: [string, unknown, object | undefined, Options][] = [
  ["plain", "Hello there", undefined, { locale: "en" }],
  ["empty", "", undefined, { locale: "en" }],
  ["escaped", "It''s '{'literal'}'", undefined, { locale: "en" }],
  ["argument", "Hello {name}", { name: "Ada" }, { locale: "en" }],
  ["plural", "{count, plural, =0 {none} one {# item} other {# items}}", { count: 1 }, { locale: "fr" }],
  [
    "plural many",
    "{count, plural, one {# plik} few {# pliki} many {# plików} other {# pliku}}",
    { count: 22 },
    { locale: "pl" },
  ],
  ["ordinal", "{n, selectordinal, one {#st} two {#nd} few {#rd} other {#th}}", { n: 22 }, { locale: "en" }],
  ["select", "{kind, select, a {Alpha} other {Other}}", { kind: "a" }, { locale: "de" }],
  ["number", "{total, number, ::currency/EUR}", { total: 1234.5 }, { locale: "de" }],
  ["number skeleton", "{total, number, ::compact-short}", { total: 12345 }, { locale: "ja" }],
  ["date skeleton", "{d, date, ::yyyyMMMMd}", { d: date }, { locale: "ar", timeZone: "UTC" }],
  [
    "two plurals",
    "{a, plural, one {# a} other {# as}} {b, plural, one {# b} other {# bs}}",
    { a: 1, b: 5 },
    { locale: "en" },
  ],
  ["percent", "{share, number, percent}", { share: 0.25 }, { locale: "es" }],
  ["date long UTC", "{d, date, long}", { d: date }, { locale: "fr", timeZone: "UTC" }],
  ["date long Tokyo", "{d, date, long}", { d: date }, { locale: "fr", timeZone: "Asia/Tokyo" }],
  ["time", "{d, time, short}", { d: date }, { locale: "pt-BR", timeZone: "America/Sao_Paulo" }],
  [
    "own date format",
    "{d, date, weekdayOnly}",
    { d: date },
    { locale: "en", formats: { dateTime: { weekdayOnly: { weekday: "long" } } } },
  ],
  [
    "global number format",
    "{n, number, precise}",
    { n: 1.23456 },
    { locale: "ja", globalFormats: { number: { precise: { maximumFractionDigits: 3 } } } },
  ],
  ["rich", "<b>Bold</b> {name}", { name: "Ada", b: (chunks: string[]) => `[${chunks.join("")}]` }, { locale: "en" }],
  ["missing value", "Hello {name}", {}, { locale: "en" }],
  ["malformed", "{count, plural, one {x}", { count: 1 }, { locale: "en" }],
  ["nested object", { a: "b" }, undefined, { locale: "en" }],
  ["array", ["a"], undefined, { locale: "en" }],
  // What a key that walks into a message's own properties (`hi.length`) finds.
  ["number message", 12, undefined, { locale: "en" }],
  ["number message with values", 12, { n: 1 }, { locale: "en" }],
];

describe("the sandbox's formatMessage", () => {
  it("answers every case as use-intl's own, on the first call and from its cache", () => {
    const ours = formatters(sandboxFormatMessage as never);
    const theirs = formatters(useIntlFormatMessage as never);
    for (let round = 0; round < 2; round++)
      for (const [key, message, values, options] of CASES)
        expect(ours(key, message, values, options), `${key}, round ${round + 1}`).toEqual(
          theirs(key, message, values, options),
        );
  });

  it("keeps one message's formatting apart per time zone and formats, sharing one cache", () => {
    const ours = formatters(sandboxFormatMessage as never);
    const theirs = formatters(useIntlFormatMessage as never);
    const message = "{d, date, long} {d, time, short}";
    const options: Options[] = [
      { locale: "en", timeZone: "UTC" },
      { locale: "en", timeZone: "Pacific/Auckland" },
      { locale: "en", timeZone: "UTC", formats: { dateTime: { long: { weekday: "long" } } } },
      {
        locale: "en",
        timeZone: "UTC",
        globalFormats: { dateTime: { short: { hour: "numeric", minute: "numeric", hourCycle: "h23" } } },
      },
    ];
    const results = options.map((option) => ours("when", message, { d: date }, option));
    expect(results).toEqual(options.map((option) => theirs("when", message, { d: date }, option)));
    expect(new Set(results.map((result) => result.text)).size).toBe(4);
  });
});
