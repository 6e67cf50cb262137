/**
 * `Intl` INSIDE the QuickJS sandbox (which has none), backed by the host's own Intl through one host function
 * (./host-intl.ts): so every locale's plural rules and number, date and list formats are exactly Node's. Bundled into
 * runtime.generated.js and installed by runtime-harness.ts before the realm is hardened; never imported by server code.
 *
 * Only JSON text crosses: a request `[op, constructor, locales, options, method, args]` and an answer `{ v }` or
 * `{ e: [name, message] }`. Locales are strings, options plain objects of strings, numbers and booleans, dates their
 * time value, numbers that JSON cannot hold (NaN, ±Infinity, -0) tagged. The host caps the request's size.
 */

/* eslint-disable @typescript-eslint/no-explicit-any */

type AnyObject = Record<PropertyKey, any>;
/** The host function: a request's JSON in, an answer's JSON out. */
export type IntlHost = (request: string) => string;

/** A number as JSON holds it: those it cannot are tagged (the host decodes them the same way). */
export type WireNumber = number | { n: "NaN" | "Infinity" | "-Infinity" | "-0" };

// Captured before the harness wraps built-ins with deadline checks: its own calls are checked once, in call().
const jsonParse = JSON.parse;
const jsonStringify = JSON.stringify;
const objectIs = Object.is;

function wireNumber(value: number): WireNumber {
  if (value !== value) return { n: "NaN" };
  if (value === Infinity) return { n: "Infinity" };
  if (value === -Infinity) return { n: "-Infinity" };
  if (objectIs(value, -0)) return { n: "-0" };
  return value;
}

/** What the format methods take: a number, or a decimal string (as Intl.NumberFormat v3 does). */
function wireNumeric(value: unknown): WireNumber | string {
  if (typeof value === "string") return value;
  return wireNumber(Number(value));
}

/** A date argument: now when undefined, else its time value (ToNumber, as Intl does). */
function wireDate(value: unknown): WireNumber {
  return wireNumber(value === undefined ? Date.now() : Number(value));
}

/** Locales as the host takes them: undefined, or an array of strings (a Locale object gives its tag). */
function wireLocales(locales: unknown): string[] | undefined {
  if (locales === undefined) return undefined;
  if (typeof locales === "string") return [locales];
  if (locales instanceof SandboxLocale) return [locales.toString()];
  if (locales === null || typeof locales !== "object") throw new TypeError("Incorrect locale information provided");
  const list: string[] = [];
  const length = Number((locales as AnyObject).length) || 0;
  for (let i = 0; i < length; i++) {
    const item = (locales as AnyObject)[i];
    if (item instanceof SandboxLocale) list.push(item.toString());
    else if (typeof item === "string") list.push(item);
    else throw new TypeError("Incorrect locale information provided");
  }
  return list;
}

/** Options as the host takes them: the primitive values among the object's properties (own and inherited). */
function wireOptions(options: unknown): AnyObject | undefined {
  if (options === undefined) return undefined;
  if (options === null) throw new TypeError("Cannot convert undefined or null to object");
  if (typeof options !== "object") return {};
  const plain: AnyObject = {};
  for (const key in options as AnyObject) {
    const value = (options as AnyObject)[key];
    if (typeof value === "string" || typeof value === "boolean") plain[key] = value;
    else if (typeof value === "number") plain[key] = wireNumber(value);
  }
  return plain;
}

/** Host answers a context keeps, and the longest request and answer together kept. */
const MAX_KEPT_ANSWERS = 2000;
const MAX_KEPT_ANSWER_CHARS = 4096;
/** Text answers each formatter keeps (then it asks again): a template formats a few values of each. */
const MAX_KEPT_TEXTS_PER_FORMATTER = 64;

const ERRORS: Record<string, ErrorConstructor> = { RangeError, TypeError, SyntaxError };

/** The run's deadline, which every call checks first (the host's work is short, but a loop of calls is not). */
export type IntlDeadline = { deadline: number; expired: boolean };

/** Installs `Intl` and the locale-sensitive methods of Date and Number on `g`, calling `host`. */
export function installIntl(g: AnyObject, host: IntlHost, state: IntlDeadline, deadlineError: () => Error): void {
  const now = Date.now;
  // Answers are a function of the request alone (a date is its time value, now read before the request is made), so
  // this context keeps the latest: use-intl makes its formatters afresh for every render, each a few host calls.
  const answers = new Map<string, string>();
  const checkDeadline = (): void => {
    if (now() > state.deadline) {
      state.expired = true;
      throw deadlineError();
    }
  };
  const call = (request: unknown[]): any => {
    checkDeadline();
    const text = jsonStringify(request);
    let answerText = answers.get(text);
    if (answerText === undefined) {
      answerText = host(text);
      if (text.length + answerText.length <= MAX_KEPT_ANSWER_CHARS) {
        answers.set(text, answerText);
        if (answers.size > MAX_KEPT_ANSWERS) answers.delete(answers.keys().next().value!);
      }
    } else {
      answers.delete(text);
      answers.set(text, answerText); // most recently used
    }
    const answer = jsonParse(answerText) as { v?: unknown; e?: [string, string] };
    if (answer.e) throw new (ERRORS[answer.e[0]] ?? Error)(answer.e[1]);
    return answer.v;
  };
  hostCall = call;

  /**
   * A formatter: its constructor's name, locales and options, the options the host resolved from them, and its latest
   * text answers by method and argument (a function of those alone, like `answers`, without a request to make).
   */
  type Held = {
    ctor: string;
    locales: string[] | undefined;
    options: AnyObject | undefined;
    resolved: AnyObject;
    texts: Map<number | string, string>;
    /** The bound `format` its getter gives. */
    format?: (value: unknown) => string;
  };
  const held = new WeakMap<object, Held>();
  const hold = (self: object, ctor: string, locales: unknown, options: unknown): void => {
    const wire = [ctor, wireLocales(locales), wireOptions(options)] as const;
    const resolved = call(["new", ...wire]) as AnyObject;
    held.set(self, { ctor: wire[0], locales: wire[1], options: wire[2], resolved, texts: new Map() });
  };
  const heldOf = (self: unknown, ctor: string, method: string): Held => {
    const state = typeof self === "object" && self !== null ? held.get(self) : undefined;
    if (!state || state.ctor !== ctor)
      throw new TypeError(`Method Intl.${ctor}.prototype.${method} called on an incompatible receiver`);
    return state;
  };
  const invoke = (self: unknown, ctor: string, method: string, args: unknown[]): any => {
    const formatter = heldOf(self, ctor, method);
    return call(["call", ctor, formatter.locales, formatter.options, method, args]);
  };
  /** `format` and `select` of one number or date (its time value): a plural or a `#` asks the same again and again. */
  const invokeText = (self: unknown, ctor: string, method: string, arg: WireNumber): string => {
    const formatter = heldOf(self, ctor, method);
    // Each constructor formats text by one method alone: the argument is the key (a tagged number by its JSON).
    const key = typeof arg === "number" ? arg : jsonStringify(arg);
    const kept = formatter.texts.get(key);
    if (kept !== undefined) {
      checkDeadline();
      return kept;
    }
    const text = call(["call", ctor, formatter.locales, formatter.options, method, [arg]]) as string;
    if (typeof text === "string" && formatter.texts.size < MAX_KEPT_TEXTS_PER_FORMATTER) formatter.texts.set(key, text);
    return text;
  };
  const resolvedOf = (self: unknown, ctor: string): AnyObject => {
    const state = typeof self === "object" && self !== null ? held.get(self) : undefined;
    if (!state || state.ctor !== ctor)
      throw new TypeError(`Method Intl.${ctor}.prototype.resolvedOptions called on an incompatible receiver`);
    // A fresh object each call, as Node's: its arrays (pluralCategories) copied too, so a caller's change stays its own.
    const copy: AnyObject = {};
    for (const [name, value] of Object.entries(state.resolved)) copy[name] = Array.isArray(value) ? [...value] : value;
    return copy;
  };
  const supportedLocalesOf = (ctor: string) =>
    function supportedLocalesOf(locales: unknown, options?: unknown): string[] {
      return call(["supported", ctor, wireLocales(locales), wireOptions(options)]) as string[];
    };

  class NumberFormat {
    constructor(locales?: unknown, options?: unknown) {
      hold(this, "NumberFormat", locales, options);
    }
    // One bound function per formatter, as Intl's own getter gives: not one made on every `#` of a plural.
    get format(): (value: unknown) => string {
      const formatter = heldOf(this, "NumberFormat", "format");
      return (formatter.format ??= (value: unknown) => {
        const wire = wireNumeric(value);
        return typeof wire === "string"
          ? invoke(this, "NumberFormat", "format", [wire])
          : invokeText(this, "NumberFormat", "format", wire);
      });
    }
    formatToParts(value: unknown): AnyObject[] {
      return invoke(this, "NumberFormat", "formatToParts", [wireNumeric(value)]);
    }
    formatRange(start: unknown, end: unknown): string {
      return invoke(this, "NumberFormat", "formatRange", [wireNumeric(start), wireNumeric(end)]);
    }
    formatRangeToParts(start: unknown, end: unknown): AnyObject[] {
      return invoke(this, "NumberFormat", "formatRangeToParts", [wireNumeric(start), wireNumeric(end)]);
    }
    resolvedOptions(): AnyObject {
      return resolvedOf(this, "NumberFormat");
    }
    static supportedLocalesOf = supportedLocalesOf("NumberFormat");
  }

  class DateTimeFormat {
    constructor(locales?: unknown, options?: unknown) {
      hold(this, "DateTimeFormat", locales, options);
    }
    get format(): (date?: unknown) => string {
      const formatter = heldOf(this, "DateTimeFormat", "format");
      return (formatter.format ??= (date?: unknown) => invokeText(this, "DateTimeFormat", "format", wireDate(date)));
    }
    formatToParts(date?: unknown): AnyObject[] {
      return invoke(this, "DateTimeFormat", "formatToParts", [wireDate(date)]);
    }
    formatRange(start: unknown, end: unknown): string {
      return invoke(this, "DateTimeFormat", "formatRange", [wireDate(start), wireDate(end)]);
    }
    formatRangeToParts(start: unknown, end: unknown): AnyObject[] {
      return invoke(this, "DateTimeFormat", "formatRangeToParts", [wireDate(start), wireDate(end)]);
    }
    resolvedOptions(): AnyObject {
      return resolvedOf(this, "DateTimeFormat");
    }
    static supportedLocalesOf = supportedLocalesOf("DateTimeFormat");
  }

  class PluralRules {
    constructor(locales?: unknown, options?: unknown) {
      hold(this, "PluralRules", locales, options);
    }
    select(value: unknown): string {
      return invokeText(this, "PluralRules", "select", wireNumber(Number(value)));
    }
    selectRange(start: unknown, end: unknown): string {
      return invoke(this, "PluralRules", "selectRange", [wireNumber(Number(start)), wireNumber(Number(end))]);
    }
    resolvedOptions(): AnyObject {
      return resolvedOf(this, "PluralRules");
    }
    static supportedLocalesOf = supportedLocalesOf("PluralRules");
  }

  class RelativeTimeFormat {
    constructor(locales?: unknown, options?: unknown) {
      hold(this, "RelativeTimeFormat", locales, options);
    }
    format(value: unknown, unit: unknown): string {
      return invoke(this, "RelativeTimeFormat", "format", [wireNumber(Number(value)), String(unit)]);
    }
    formatToParts(value: unknown, unit: unknown): AnyObject[] {
      return invoke(this, "RelativeTimeFormat", "formatToParts", [wireNumber(Number(value)), String(unit)]);
    }
    resolvedOptions(): AnyObject {
      return resolvedOf(this, "RelativeTimeFormat");
    }
    static supportedLocalesOf = supportedLocalesOf("RelativeTimeFormat");
  }

  const wireList = (list: unknown): string[] => {
    if (list === undefined) return [];
    const items: string[] = [];
    for (const item of list as Iterable<unknown>) {
      if (typeof item !== "string") throw new TypeError("Iterable yielded a value that is not a string");
      items.push(item);
    }
    return items;
  };

  class ListFormat {
    constructor(locales?: unknown, options?: unknown) {
      hold(this, "ListFormat", locales, options);
    }
    format(list: unknown): string {
      return invoke(this, "ListFormat", "format", [wireList(list)]);
    }
    formatToParts(list: unknown): AnyObject[] {
      return invoke(this, "ListFormat", "formatToParts", [wireList(list)]);
    }
    resolvedOptions(): AnyObject {
      return resolvedOf(this, "ListFormat");
    }
    static supportedLocalesOf = supportedLocalesOf("ListFormat");
  }

  const Intl: AnyObject = {
    NumberFormat,
    DateTimeFormat,
    PluralRules,
    RelativeTimeFormat,
    ListFormat,
    Locale: SandboxLocale,
    getCanonicalLocales(locales?: unknown): string[] {
      return call(["canonical", null, wireLocales(locales)]) as string[];
    },
  };
  Object.defineProperty(Intl, Symbol.toStringTag, { value: "Intl", configurable: true });
  Object.defineProperty(g, "Intl", { value: Intl, writable: true, configurable: true, enumerable: false });

  // The locale-sensitive methods of the built-ins, through the same formatters (as a host's ECMA-402 does).
  const dateMethod = (name: string, defaults: AnyObject, required: "date" | "time" | "any") =>
    function (this: Date, locales?: unknown, options?: unknown): string {
      const time = Date.prototype.getTime.call(this);
      if (time !== time) return "Invalid Date";
      return new DateTimeFormat(locales, withDateDefaults(options, defaults, required)).format(time);
    };
  const withDateDefaults = (options: unknown, defaults: AnyObject, required: "date" | "time" | "any"): AnyObject => {
    const given = wireOptions(options) ?? {};
    const dateKeys = ["weekday", "year", "month", "day", "dateStyle"];
    const timeKeys = ["dayPeriod", "hour", "minute", "second", "fractionalSecondDigits", "timeStyle"];
    const hasDate = dateKeys.some((key) => given[key] !== undefined);
    const hasTime = timeKeys.some((key) => given[key] !== undefined);
    const needsDefaults = required === "date" ? !hasDate : required === "time" ? !hasTime : !hasDate && !hasTime;
    return needsDefaults ? { ...given, ...defaults } : given;
  };
  const numeric = { year: "numeric", month: "numeric", day: "numeric" };
  const clock = { hour: "numeric", minute: "numeric", second: "numeric" };
  Object.defineProperty(Date.prototype, "toLocaleString", {
    value: dateMethod("toLocaleString", { ...numeric, ...clock }, "any"),
    writable: true,
    configurable: true,
  });
  Object.defineProperty(Date.prototype, "toLocaleDateString", {
    value: dateMethod("toLocaleDateString", numeric, "date"),
    writable: true,
    configurable: true,
  });
  Object.defineProperty(Date.prototype, "toLocaleTimeString", {
    value: dateMethod("toLocaleTimeString", clock, "time"),
    writable: true,
    configurable: true,
  });
  Object.defineProperty(Number.prototype, "toLocaleString", {
    value: function (this: number, locales?: unknown, options?: unknown): string {
      return new NumberFormat(locales, options).format(Number.prototype.valueOf.call(this));
    },
    writable: true,
    configurable: true,
  });
}

/** Set by installIntl: Locale objects ask the host too. */
let hostCall: ((request: unknown[]) => any) | null = null;

/** What the host tells of a locale (see ./host-intl.ts). */
type LocaleInfo = Record<string, string | boolean | string[] | undefined> & {
  tag: string;
  maximized: string;
  minimized: string;
};

const localeInfo = new WeakMap<object, LocaleInfo>();

function infoOf(self: unknown): LocaleInfo {
  const info = typeof self === "object" && self !== null ? localeInfo.get(self) : undefined;
  if (!info) throw new TypeError("Method Intl.Locale.prototype called on an incompatible receiver");
  return info;
}

class SandboxLocale {
  constructor(tag: unknown, options?: unknown) {
    if (!hostCall) throw new TypeError("Intl is not available");
    const text = tag instanceof SandboxLocale ? tag.toString() : tag;
    if (typeof text !== "string" && (typeof text !== "object" || text === null)) {
      throw new TypeError("First argument to Intl.Locale constructor can't be empty or missing");
    }
    localeInfo.set(this, hostCall(["locale", null, [String(text)], wireOptions(options)]) as LocaleInfo);
  }
  toString(): string {
    return infoOf(this).tag;
  }
  maximize(): SandboxLocale {
    return new SandboxLocale(infoOf(this).maximized);
  }
  minimize(): SandboxLocale {
    return new SandboxLocale(infoOf(this).minimized);
  }
  getHourCycles(): string[] {
    return [...((infoOf(this).hourCycles as string[] | undefined) ?? [])];
  }
  get baseName(): string {
    return infoOf(this).baseName as string;
  }
  get language(): string {
    return infoOf(this).language as string;
  }
  get script(): string | undefined {
    return infoOf(this).script as string | undefined;
  }
  get region(): string | undefined {
    return infoOf(this).region as string | undefined;
  }
  get calendar(): string | undefined {
    return infoOf(this).calendar as string | undefined;
  }
  get caseFirst(): string | undefined {
    return infoOf(this).caseFirst as string | undefined;
  }
  get collation(): string | undefined {
    return infoOf(this).collation as string | undefined;
  }
  get hourCycle(): string | undefined {
    return infoOf(this).hourCycle as string | undefined;
  }
  get numberingSystem(): string | undefined {
    return infoOf(this).numberingSystem as string | undefined;
  }
  get numeric(): boolean {
    return infoOf(this).numeric === true;
  }
}
