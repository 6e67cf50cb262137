/**
 * `use-intl/format-message` for the sandbox's Intl bundle (scripts/build-sandbox-runtime.ts aliases it here, as
 * next-intl's own plugin aliases it to `use-intl/format-message/format-only` for precompiled messages): use-intl's
 * formatMessage (production build, 4.15.0) with the same results and errors, made cheap for the sandbox.
 *
 * Why: use-intl builds the merged formats object and serializes every argument, that object included, as the memo
 * key on every `t()` call, cache hit or not. Interpreted by QuickJS that was 0.12–0.2 ms a call, most of a localized
 * render (docs/performance.md). Here the merged formats are made once per (global formats, formats, time zone) and the
 * message format is looked up by (message, locale, that key). Upstream ask: use-intl memoizing the converted formats.
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

/** use-intl's convertFormatsToIntlMessageFormat, once per its inputs' content. */
function convertFormats(globalFormats: AnyObject | undefined, formats: AnyObject | undefined, timeZone?: string) {
  const key = JSON.stringify([globalFormats ?? null, formats ?? null, timeZone ?? null]);
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

function formatMessage(_key: string, message: unknown, values: AnyObject | undefined, options: FormatOptions): unknown {
  if (Array.isArray(message)) throw new IntlError(IntlErrorCode.INVALID_MESSAGE, undefined);
  if (typeof message === "object") throw new IntlError(IntlErrorCode.INSUFFICIENT_PATH, undefined);
  // A message with no values and no ICU escapes is its own text, as use-intl answers it.
  if (typeof message === "string" && !values && !/'[{}<#|']/.test(message) && message) return message;
  const { cache, formats, formatters, globalFormats, locale, timeZone } = options;
  formatters.getMessageFormat ??= messageFormatter(cache, formatters);
  let messageFormat: { format: (values?: AnyObject) => unknown };
  try {
    const merged = convertFormats(globalFormats, formats, timeZone);
    const key = JSON.stringify(["sandbox", message, locale, merged.key]);
    messageFormat = cache.message[key] as typeof messageFormat;
    if (!messageFormat) {
      messageFormat = new IntlMessageFormat(message as string, locale, merged.formats, {
        formatters: {
          ...formatters,
          getDateTimeFormat: (locales: unknown, dateTimeOptions?: AnyObject) =>
            formatters.getDateTimeFormat(locales, {
              ...dateTimeOptions,
              timeZone: dateTimeOptions?.timeZone ?? timeZone,
            }),
        },
      } as never);
      cache.message[key] = messageFormat;
    }
  } catch {
    throw new IntlError(IntlErrorCode.INVALID_MESSAGE, undefined);
  }
  const formatted = messageFormat.format(values);
  return isValidElement(formatted) || Array.isArray(formatted) || typeof formatted === "string"
    ? formatted
    : String(formatted);
}

// `t.raw` is supported, as by use-intl's own.
formatMessage.raw = true;

export default formatMessage;
