/**
 * `use-intl/format-message` for the sandbox's Intl bundle (scripts/build-sandbox-runtime.ts aliases it here, as
 * next-intl's own plugin aliases it to `use-intl/format-message/format-only` for precompiled messages): use-intl's
 * formatMessage (production build, 4.15.0) with the same results and errors, made cheap for the sandbox.
 *
 * Why: use-intl builds the merged formats object and serializes every argument, that object included, as the memo
 * key on every `t()` call, cache hit or not. Interpreted by QuickJS that was 0.12–0.2 ms a call, most of a localized
 * render (docs/performance.md). Here the merged formats are made once per (global formats, formats, time zone) and the
 * message format is looked up by (those merged formats, locale, message) in nested maps, with no key to build.
 * Upstream ask: use-intl memoizing the converted formats.
 * tests/render/format-message.test.ts holds this to use-intl's own on a table of messages.
 */
import { IntlMessageFormat } from "intl-messageformat";
import { isValidElement } from "react";
import { IntlError, IntlErrorCode } from "use-intl/core";

/* eslint-disable @typescript-eslint/no-explicit-any */
type AnyObject = Record<string, any>;
type FormatOptions = {
  cache: { message: Record<string, unknown> };
  formats?: AnyObject;
  formatters: AnyObject & { getDateTimeFormat: (locales: unknown, options?: AnyObject) => unknown };
  globalFormats?: AnyObject;
  locale: string;
  timeZone?: string;
};
type Converted = { key: string; formats: AnyObject };

/** Merged formats a sandbox keeps (it starts over past them): a template has a handful of format sets. */
const MAX_CONVERTED_FORMATS = 64;
const converted = new Map<string, Converted>();
const NO_FORMATS_KEY = JSON.stringify([null, null, null]);

/** use-intl's convertFormatsToIntlMessageFormat, once per its inputs' content. */
function convertFormats(globalFormats: AnyObject | undefined, formats: AnyObject | undefined, timeZone?: string) {
  // Most translators have neither formats nor a time zone: their key, without serializing it on every call.
  const key =
    globalFormats == null && formats == null && timeZone == null
      ? NO_FORMATS_KEY
      : JSON.stringify([globalFormats ?? null, formats ?? null, timeZone ?? null]);
  const known = converted.get(key);
  if (known) return known;
  const dateTime = { ...globalFormats?.dateTime, ...formats?.dateTime };
  const all: AnyObject = {
    date: { ...IntlMessageFormat.formats.date, ...dateTime },
    time: { ...IntlMessageFormat.formats.time, ...dateTime },
    number: { ...globalFormats?.number, ...formats?.number },
  };
  if (timeZone)
    for (const kind of ["date", "time"])
      for (const [name, value] of Object.entries(all[kind] as AnyObject)) all[kind][name] = { timeZone, ...value };
  if (converted.size >= MAX_CONVERTED_FORMATS) converted.clear();
  const entry = { key, formats: deepFreeze(all) };
  converted.set(key, entry);
  return entry;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/**
 * use-intl's `formatters.getMessageFormat`, which its formatMessage installs on first use and a template holding its
 * own `_formatters` may call: memoized by its arguments' JSON in the translator's cache, as use-intl's.
 */
function messageFormatter(cache: FormatOptions["cache"], formatters: AnyObject) {
  return (...args: [string, string, AnyObject?, AnyObject?]) => {
    const key = JSON.stringify(args);
    let made = cache.message[key];
    if (made === undefined) {
      made = new IntlMessageFormat(args[0], args[1], args[2], { formatters, ...args[3] } as never);
      cache.message[key] = made;
    }
    return made;
  };
}

/**
 * The formatters one message's IntlMessageFormat asks for each of its elements: use-intl's (a date in the translator's
 * time zone unless it names one, as use-intl's own formatMessage does), each remembered for this message by the
 * options object IntlMessageFormat passes for the element (the same one on every call: its syntax tree's or its merged
 * formats'), so that a `#`, a plural or a date does not serialize its arguments on every call. A remembered formatter
 * serves only while the options still hold the same values; options with nested objects go to use-intl's memo.
 */
function elementFormatters(formatters: FormatOptions["formatters"], timeZone: string | undefined): AnyObject {
  type Made = { kind: string; locales: string; values: unknown[]; formatter: unknown };
  const made = new Map<unknown, Made>();
  const flatValues = (options: AnyObject | undefined): unknown[] | null => {
    if (options === undefined) return [];
    const values: unknown[] = [];
    for (const name of Object.keys(options)) {
      const value = options[name];
      if (value !== null && typeof value === "object") return null;
      values.push(name, value);
    }
    return values;
  };
  const sameValues = (a: unknown[], b: unknown[]) => a.length === b.length && a.every((value, i) => value === b[i]);
  const remembered = (
    kind: string,
    locales: unknown,
    options: AnyObject | undefined,
    make: (locales: unknown, options?: AnyObject) => unknown,
  ) => {
    const values = typeof locales === "string" ? flatValues(options) : null;
    if (!values) return make(locales, options);
    const key = options ?? kind;
    const known = made.get(key);
    if (known && known.kind === kind && known.locales === locales && sameValues(known.values, values))
      return known.formatter;
    const formatter = make(locales, options);
    made.set(key, { kind, locales: locales as string, values, formatter });
    return formatter;
  };
  const getDateTimeFormat = (locales: unknown, options?: AnyObject) =>
    formatters.getDateTimeFormat(locales, { ...options, timeZone: options?.timeZone ?? timeZone });
  // A `#` asks with no options and a plural with a new `{ type }`, in the message's one locale, on every call: each
  // remembered by that alone, with no key to make.
  let plainNumber: { locales: string; formatter: unknown } | undefined;
  const pluralRules = new Map<string, { locales: string; formatter: unknown }>();
  const onlyType = (options: AnyObject) => {
    for (const name in options) if (name !== "type") return false;
    return typeof options.type === "string";
  };
  return {
    ...formatters,
    getNumberFormat: (locales: unknown, options?: AnyObject) => {
      if (options !== undefined || typeof locales !== "string")
        return remembered("number", locales, options, formatters.getNumberFormat);
      if (plainNumber?.locales !== locales)
        plainNumber = { locales, formatter: formatters.getNumberFormat(locales, options) };
      return plainNumber.formatter;
    },
    getDateTimeFormat: (locales: unknown, options?: AnyObject) =>
      remembered("date", locales, options, getDateTimeFormat),
    getPluralRules: (locales: unknown, options?: AnyObject) => {
      if (options === undefined || typeof locales !== "string" || !onlyType(options))
        return formatters.getPluralRules(locales, options);
      const known = pluralRules.get(options.type);
      if (known?.locales === locales) return known.formatter;
      const formatter = formatters.getPluralRules(locales, options);
      pluralRules.set(options.type, { locales, formatter });
      return formatter;
    },
  };
}

type MessageFormat = { format: (values?: AnyObject) => unknown };
type MessageFormats = { count: number; byFormats: Map<Converted, Map<string, Map<string, MessageFormat>>> };

/** Message formats a translators' cache keeps (then it starts over), as use-intl's cache keeps a kind. */
const MAX_MESSAGE_FORMATS = 1000;
/** Each translators' cache's message formats, by merged formats, locale and message: no key to build per call. */
const messageFormats = new WeakMap<object, MessageFormats>();

function messageFormatsOf(
  cache: FormatOptions["cache"],
  merged: Converted,
  locale: string,
): { kept: MessageFormats; byMessage: Map<string, MessageFormat> } {
  let kept = messageFormats.get(cache.message);
  if (!kept || kept.count >= MAX_MESSAGE_FORMATS) {
    kept = { count: 0, byFormats: new Map() };
    messageFormats.set(cache.message, kept);
  }
  let byLocale = kept.byFormats.get(merged);
  if (!byLocale) kept.byFormats.set(merged, (byLocale = new Map()));
  let byMessage = byLocale.get(locale);
  if (!byMessage) byLocale.set(locale, (byMessage = new Map()));
  return { kept, byMessage };
}

function formatMessage(_key: string, message: unknown, values: AnyObject | undefined, options: FormatOptions): unknown {
  if (Array.isArray(message)) throw new IntlError(IntlErrorCode.INVALID_MESSAGE, undefined);
  if (typeof message === "object") throw new IntlError(IntlErrorCode.INSUFFICIENT_PATH, undefined);
  // A message with no values and no ICU escapes is its own text, as use-intl answers it.
  if (typeof message === "string" && !values && !/'[{}<#|']/.test(message) && message) return message;
  const { cache, formatters } = options;
  formatters.getMessageFormat ??= messageFormatter(cache, formatters);
  const formatted = messageFormatFor(message, options).format(values);
  return isValidElement(formatted) || Array.isArray(formatted) || typeof formatted === "string"
    ? formatted
    : String(formatted);
}

/**
 * The IntlMessageFormat formatMessage formats `message` with, made once per (merged formats, locale, message); throws
 * use-intl's INVALID_MESSAGE for what IntlMessageFormat refuses.
 */
export function messageFormatFor(message: unknown, options: FormatOptions): MessageFormat {
  const { cache, formats, formatters, globalFormats, locale, timeZone } = options;
  try {
    const merged = convertFormats(globalFormats, formats, timeZone);
    const localeKey = typeof locale === "string" ? locale : JSON.stringify(locale);
    const { kept, byMessage } = messageFormatsOf(cache, merged, localeKey);
    // IntlMessageFormat takes text or a syntax tree: a number or any other value is refused, as use-intl's is.
    if (typeof message !== "string") throw new TypeError("A message must be provided as a String or AST.");
    let messageFormat = byMessage.get(message);
    if (!messageFormat) {
      messageFormat = new IntlMessageFormat(message, locale, merged.formats, {
        formatters: elementFormatters(formatters, timeZone),
      } as never) as MessageFormat;
      byMessage.set(message, messageFormat);
      kept.count++;
    }
    return messageFormat;
  } catch {
    throw new IntlError(IntlErrorCode.INVALID_MESSAGE, undefined);
  }
}

// `t.raw` is supported, as by use-intl's own.
formatMessage.raw = true;

export default formatMessage;
