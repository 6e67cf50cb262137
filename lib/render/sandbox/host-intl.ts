/**
 * The host side of the sandbox's Intl (./runtime-intl.ts): answers its JSON requests with Node's own Intl, so
 * plurals, numbers, dates and lists are exactly Node's for every locale. Runs in the sandbox worker (engine.ts).
 *
 * Formatter objects, and what Intl.Locale tells of a tag, are cached by (constructor, locales, options JSON) alone:
 * pure, content-keyed, shared by every sandbox of the worker, bounded (MAX_CACHED_FORMATTERS each, least recently used
 * out). The default time zone is UTC.
 */

/** Longest request taken, in characters: arguments are a few numbers, a tag and an options object, or a short list. */
export const MAX_INTL_REQUEST_CHARS = 32 * 1024;
/** Formatters kept for reuse. */
export const MAX_CACHED_FORMATTERS = 512;
/**
 * Longest language tag taken (RFC 5646 §4.4.1 asks every implementation to take 35 and none in use is longer than
 * 255), and most tags in one locales list: so a cached formatter's key stays small, and no tag of thousands of
 * variants costs Intl tens of milliseconds to refuse.
 */
export const MAX_INTL_TAG_CHARS = 255;
export const MAX_INTL_LOCALES = 32;

type Formatter = { [method: string]: unknown; resolvedOptions(): object };
type Constructor = new (locales?: string[], options?: object) => Formatter;

const CONSTRUCTORS: Record<string, Constructor> = {
  NumberFormat: Intl.NumberFormat as unknown as Constructor,
  DateTimeFormat: Intl.DateTimeFormat as unknown as Constructor,
  PluralRules: Intl.PluralRules as unknown as Constructor,
  RelativeTimeFormat: Intl.RelativeTimeFormat as unknown as Constructor,
  ListFormat: Intl.ListFormat as unknown as Constructor,
};

/** The methods the sandbox may call on each, and how their arguments are read. */
const METHODS: Record<string, Record<string, "numbers" | "dates" | "relative" | "list">> = {
  NumberFormat: { format: "numbers", formatToParts: "numbers", formatRange: "numbers", formatRangeToParts: "numbers" },
  DateTimeFormat: { format: "dates", formatToParts: "dates", formatRange: "dates", formatRangeToParts: "dates" },
  PluralRules: { select: "numbers", selectRange: "numbers" },
  RelativeTimeFormat: { format: "relative", formatToParts: "relative" },
  ListFormat: { format: "list", formatToParts: "list" },
};

const cache = new Map<string, Formatter>();

/** The cached formatters' count, Locale objects' included (tests). */
export function cachedFormatterCount(): number {
  return cache.size + locales.size;
}

/** Empties the caches (tests). */
export function clearFormatterCache(): void {
  cache.clear();
  locales.clear();
}

class RequestError extends Error {
  constructor(
    readonly kind: "TypeError" | "RangeError",
    message: string,
  ) {
    super(message);
  }
}

function readNumber(value: unknown): number | string {
  if (typeof value === "number" || typeof value === "string") return value;
  if (value && typeof value === "object" && "n" in value) {
    const tag = (value as { n: unknown }).n;
    if (tag === "NaN") return NaN;
    if (tag === "Infinity") return Infinity;
    if (tag === "-Infinity") return -Infinity;
    if (tag === "-0") return -0;
  }
  throw new RequestError("TypeError", "Cannot convert the value to a number");
}

function readLocales(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || !value.every((item) => typeof item === "string")) {
    throw new RequestError("TypeError", "Incorrect locale information provided");
  }
  if (value.length > MAX_INTL_LOCALES) {
    throw new RequestError("RangeError", `Intl takes at most ${MAX_INTL_LOCALES} locales at once`);
  }
  if (value.some((tag: string) => tag.length > MAX_INTL_TAG_CHARS)) {
    throw new RequestError("RangeError", "Incorrect locale information provided");
  }
  return value as string[];
}

function readOptions(value: unknown): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "object" || Array.isArray(value)) throw new RequestError("TypeError", "Invalid options");
  const options: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) options[key] = typeof item === "object" ? readNumber(item) : item;
  return options;
}

function formatter(ctor: string, locales: unknown, options: unknown): Formatter {
  const Ctor = Object.hasOwn(CONSTRUCTORS, ctor) ? CONSTRUCTORS[ctor] : undefined;
  if (!Ctor) throw new RequestError("TypeError", `Intl.${ctor} is not available`);
  const key = JSON.stringify([ctor, locales ?? null, options ?? null]);
  const cached = cache.get(key);
  if (cached) {
    cache.delete(key);
    cache.set(key, cached); // most recently used
    return cached;
  }
  let read = readOptions(options);
  // The sandbox's default time zone, whatever the host's.
  if (ctor === "DateTimeFormat" && read?.timeZone === undefined) read = { ...read, timeZone: "UTC" };
  const made = new Ctor(readLocales(locales), read);
  cache.set(key, made);
  if (cache.size > MAX_CACHED_FORMATTERS) cache.delete(cache.keys().next().value!);
  return made;
}

function callMethod(ctor: string, target: Formatter, method: string, args: unknown): unknown {
  const kind = Object.hasOwn(METHODS[ctor], method) ? METHODS[ctor][method] : undefined;
  if (!kind || !Array.isArray(args))
    throw new RequestError("TypeError", `Intl.${ctor}.prototype.${method} is not available`);
  let values: unknown[];
  if (kind === "numbers" || kind === "dates") values = args.map(readNumber);
  else if (kind === "relative") values = [readNumber(args[0]), String(args[1])];
  else {
    const list = args[0];
    if (!Array.isArray(list) || !list.every((item) => typeof item === "string")) {
      throw new RequestError("TypeError", "Iterable yielded a value that is not a string");
    }
    values = [list];
  }
  return (target[method] as (...values: unknown[]) => unknown).apply(target, values);
}

/** What the sandbox's Intl.Locale holds, by (tag, options JSON): making it (maximize() above all) costs ~0.3 ms. */
const locales = new Map<string, Record<string, unknown>>();

function localeInfo(tags: unknown, options: unknown): Record<string, unknown> {
  const key = JSON.stringify([tags ?? null, options ?? null]);
  const cached = locales.get(key);
  if (cached) {
    locales.delete(key);
    locales.set(key, cached); // most recently used
    return cached;
  }
  const made = makeLocaleInfo(tags, options);
  locales.set(key, made);
  if (locales.size > MAX_CACHED_FORMATTERS) locales.delete(locales.keys().next().value!);
  return made;
}

function makeLocaleInfo(tags: unknown, options: unknown): Record<string, unknown> {
  const [tag] = readLocales(tags) ?? [];
  const locale = new Intl.Locale(tag ?? "", readOptions(options) as Intl.LocaleOptions | undefined);
  const withCycles = locale as Intl.Locale & { getHourCycles?: () => string[]; hourCycles?: string[] };
  return {
    tag: locale.toString(),
    maximized: locale.maximize().toString(),
    minimized: locale.minimize().toString(),
    baseName: locale.baseName,
    language: locale.language,
    script: locale.script,
    region: locale.region,
    calendar: locale.calendar,
    caseFirst: locale.caseFirst,
    collation: locale.collation,
    hourCycle: locale.hourCycle,
    numberingSystem: locale.numberingSystem,
    numeric: locale.numeric,
    hourCycles: withCycles.getHourCycles?.() ?? withCycles.hourCycles,
  };
}

function answer(request: unknown): unknown {
  if (!Array.isArray(request)) throw new RequestError("TypeError", "Invalid Intl request");
  const [op, ctor, locales, options, method, args] = request as [string, string, unknown, unknown, string, unknown];
  switch (op) {
    case "new":
      return formatter(ctor, locales, options).resolvedOptions();
    case "call":
      return callMethod(ctor, formatter(ctor, locales, options), method, args);
    case "supported": {
      const Ctor = Object.hasOwn(CONSTRUCTORS, ctor) ? CONSTRUCTORS[ctor] : undefined;
      if (!Ctor) throw new RequestError("TypeError", `Intl.${ctor} is not available`);
      return (Ctor as unknown as typeof Intl.NumberFormat).supportedLocalesOf(
        readLocales(locales) ?? [],
        readOptions(options) as Intl.NumberFormatOptions,
      );
    }
    case "canonical":
      return Intl.getCanonicalLocales(readLocales(locales));
    case "locale":
      return localeInfo(locales, options);
    default:
      throw new RequestError("TypeError", "Invalid Intl request");
  }
}

/**
 * Answers one request of the sandbox's Intl: `{ v }` with the value, or `{ e: [name, message] }` for the error the
 * sandbox throws (RangeError and TypeError keep their names).
 */
export function answerIntlRequest(requestJson: string): string {
  try {
    if (requestJson.length > MAX_INTL_REQUEST_CHARS) {
      throw new RequestError("RangeError", `Intl arguments exceed ${MAX_INTL_REQUEST_CHARS} characters`);
    }
    return JSON.stringify({ v: answer(JSON.parse(requestJson)) });
  } catch (error) {
    const name = error instanceof RequestError ? error.kind : error instanceof Error ? error.name : "Error";
    const message = error instanceof Error ? error.message : String(error);
    return JSON.stringify({ e: [name === "RangeError" || name === "TypeError" ? name : "Error", message] });
  }
}
