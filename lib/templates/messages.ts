import { parse, TYPE, type MessageFormatElement } from "@formatjs/icu-messageformat-parser";
import {
  MAX_MERGED_MESSAGES_CHARS,
  MAX_MESSAGE_ELEMENTS,
  MAX_MESSAGE_NESTING,
  MAX_MESSAGES_DEPTH,
  MAX_MISSING_KEY_WARNINGS,
  MAX_SUBJECT_MESSAGE_CHARS,
} from "../core/limits";
import { errors } from "../core/errors";
import { canonicalTag, LOCALE_MESSAGE, messagesPath, messagesTag, type TemplateFiles } from "./files";

// A template's messages per locale (`messages/<tag>.json`): checked when it is saved (checkMessages, run on a compile
// worker: lib/render/sandbox/compile-pool.ts), merged with their fallbacks in every compile job (localizedFiles, on
// the same worker), and the locale a render or send asks for resolved among them (resolveLocale). No server-only
// import: the compile worker's bundle holds this file.

/** A locale of a saved template: its tag, and its top-level `subject` message (after fallbacks) when it has one. */
export type TemplateLocale = { tag: string; subject?: string };

/** What the save stores of a template's messages: its locales (alphabetical) and its default locale. */
export type TemplateLocales = { locales: TemplateLocale[]; defaultLocale: string };

export type MessagesProblem = { field: string; message: string };

export type MessagesCheck =
  | { ok: true; messages: TemplateLocales | null; warnings: MessagesProblem[] }
  | { ok: false; problems: MessagesProblem[] };

type Messages = { [key: string]: string | Messages };

/** The tags of a template's messages files, alphabetical (as the API lists them). */
export function messagesTags(files: TemplateFiles): string[] {
  return Object.keys(files)
    .map(messagesTag)
    .filter((tag): tag is string => tag !== null)
    .sort();
}

/**
 * The default locale of a template with messages: `requested` (the body's `default_locale`, compared canonically),
 * else `en` when it has it, else its first tag in alphabetical order. A problem (field `default_locale`) when
 * `requested` is malformed or none of its locales, or named for a template without messages.
 */
export function chooseDefaultLocale(
  tags: string[],
  requested: string | undefined,
): { tag: string | null } | { problem: MessagesProblem } {
  if (requested !== undefined) {
    const canonical = canonicalTag(requested);
    if (canonical === null)
      return {
        problem: { field: "default_locale", message: "default_locale must be a BCP 47 language tag (en, pt-BR)" },
      };
    if (tags.length === 0)
      return {
        problem: {
          field: "default_locale",
          message: "default_locale needs the template's messages: a messages/<tag>.json file per locale",
        },
      };
    if (!tags.includes(canonical))
      return {
        problem: {
          field: "default_locale",
          message: `default_locale must be one of the template's locales (${tags.join(", ")})`,
        },
      };
    return { tag: canonical };
  }
  if (tags.length === 0) return { tag: null };
  return { tag: tags.includes("en") ? "en" : tags[0] };
}

/**
 * Checks every messages file of a template: JSON objects nested at most MAX_MESSAGES_DEPTH deep whose leaves are ICU
 * MessageFormat strings of bounded shape (MAX_MESSAGE_NESTING, MAX_MESSAGE_ELEMENTS), each problem with its file's
 * field and the key; then one warning per key of the default locale that another locale lacks. One pass over each
 * file and each message: the parser reads a message once, and one nested too deep for its recursion is refused.
 */
export function checkMessages(files: TemplateFiles, requestedDefault: string | undefined): MessagesCheck {
  const tags = messagesTags(files);
  const chosen = chooseDefaultLocale(tags, requestedDefault);
  if ("problem" in chosen) return { ok: false, problems: [chosen.problem] };
  if (chosen.tag === null) return { ok: true, messages: null, warnings: [] };
  const defaultLocale = chosen.tag;
  const problems: MessagesProblem[] = [];
  const parsed = new Map<string, Messages>();
  for (const tag of tags) {
    const field = `files.${messagesPath(tag)}`;
    const result = parseMessagesFile(files[messagesPath(tag)]);
    if (typeof result === "string") problems.push({ field, message: result });
    else parsed.set(tag, result);
  }
  if (problems.length > 0) return { ok: false, problems };
  const defaults = parsed.get(defaultLocale)!;
  const warnings: MessagesProblem[] = [];
  for (const tag of tags) {
    if (tag === defaultLocale) continue;
    const field = `files.${messagesPath(tag)}`;
    const chain = fallbackChain(tag, parsed.keys(), defaultLocale);
    const missing = missingKeys(defaults, parsed.get(tag)!, "");
    // A save's answer stays small however many keys a locale lacks: the first few by name, then how many more.
    for (const key of missing.slice(0, MAX_MISSING_KEY_WARNINGS)) {
      warnings.push({ field, message: `missing ${key}: falls back to ${fallbackFor(key, chain, parsed)}` });
    }
    const more = missing.length - MAX_MISSING_KEY_WARNINGS;
    if (more > 0) {
      const counted = more === 1 ? "1 more key: it falls" : `${more} more keys: each falls`;
      const to = chain.length === 1 ? defaultLocale : `the nearest parent locale that has it, else ${defaultLocale}`;
      warnings.push({ field, message: `missing ${counted} back to ${to}` });
    }
  }
  const mergedByTag = mergeLocales(parsed, defaultLocale);
  if (mergedByTag === null) {
    return {
      ok: false,
      problems: [
        {
          field: "files",
          message: `holds messages that, each locale merged with its fallbacks, come to more than ${MAX_MERGED_MESSAGES_CHARS.toLocaleString("en")} characters: fewer locales, or complete ones`,
        },
      ],
    };
  }
  const locales: TemplateLocale[] = [];
  for (const tag of tags) {
    const subject = mergedByTag.get(tag)!.messages.subject;
    if (typeof subject === "string" && subject.length > MAX_SUBJECT_MESSAGE_CHARS) {
      problems.push({
        field: `files.${messagesPath(tag)}`,
        message: `subject: is longer than ${MAX_SUBJECT_MESSAGE_CHARS.toLocaleString("en")} characters (a subject line is at most 998)`,
      });
    }
    locales.push(typeof subject === "string" ? { tag, subject } : { tag });
  }
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, messages: { locales, defaultLocale }, warnings };
}

/** The parsed file, or why it is refused (naming the key). */
function parseMessagesFile(content: string): Messages | string {
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch (error) {
    return `is not valid JSON: ${(error as Error).message}`;
  }
  if (!isObject(value)) return 'must hold a JSON object of messages ({ "welcome": { "title": "…" } })';
  return checkObject(value, "", 1) ?? (value as Messages);
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function checkObject(object: Record<string, unknown>, prefix: string, depth: number): string | null {
  if (depth > MAX_MESSAGES_DEPTH)
    return `nests objects more than ${MAX_MESSAGES_DEPTH} deep (at ${prefix.slice(0, -1)})`;
  for (const [name, value] of Object.entries(object)) {
    const key = prefix + name;
    // next-intl reads a.b as a path: a key holding a dot could never be reached.
    if (name === "" || name.includes("."))
      return `has the key ${JSON.stringify(key)}: a key must be non-empty, with no "."`;
    if (typeof value === "string") {
      const problem = messageProblem(value);
      if (problem) return `${key}: ${problem}`;
    } else if (isObject(value)) {
      const problem = checkObject(value, `${key}.`, depth + 1);
      if (problem) return problem;
    } else {
      return `${key} must be a message (a string) or an object of messages, not ${Array.isArray(value) ? "an array" : value === null ? "null" : typeof value}`;
    }
  }
  return null;
}

/** Why `message` is no ICU message this service formats, or null. */
export function messageProblem(message: string): string | null {
  let elements: MessageFormatElement[];
  try {
    elements = parse(message);
  } catch (error) {
    if (error instanceof RangeError)
      return `nests deeper than a message may (plural and select at most ${MAX_MESSAGE_NESTING} deep)`;
    const { location } = error as { location?: { start: { offset: number } } };
    const where = location ? ` at character ${location.start.offset + 1}` : "";
    return `is not a valid ICU message (${(error as Error).message}${where})`;
  }
  const counted = { elements: 0 };
  return shapeProblem(elements, 0, counted);
}

function shapeProblem(elements: MessageFormatElement[], nesting: number, counted: { elements: number }): string | null {
  for (const element of elements) {
    if (++counted.elements > MAX_MESSAGE_ELEMENTS)
      return `has more than ${MAX_MESSAGE_ELEMENTS} elements (text, arguments, tags and plural or select options)`;
    if (element.type === TYPE.plural || element.type === TYPE.select) {
      if (nesting + 1 > MAX_MESSAGE_NESTING) return `nests plural and select more than ${MAX_MESSAGE_NESTING} deep`;
      for (const option of Object.values(element.options)) {
        if (++counted.elements > MAX_MESSAGE_ELEMENTS)
          return `has more than ${MAX_MESSAGE_ELEMENTS} elements (text, arguments, tags and plural or select options)`;
        const problem = shapeProblem(option.value, nesting + 1, counted);
        if (problem) return problem;
      }
    } else if (element.type === TYPE.tag) {
      const problem = shapeProblem(element.children, nesting, counted);
      if (problem) return problem;
    }
  }
  return null;
}

/** The dotted keys of `defaults`' messages that `messages` lacks, in `defaults`' order. */
function missingKeys(defaults: Messages, messages: Messages | undefined, prefix: string): string[] {
  const missing: string[] = [];
  for (const [name, value] of Object.entries(defaults)) {
    const own = messages && Object.hasOwn(messages, name) ? messages[name] : undefined;
    if (typeof value === "string") {
      if (typeof own !== "string") missing.push(prefix + name);
    } else {
      missing.push(...missingKeys(value, typeof own === "object" ? own : undefined, `${prefix}${name}.`));
    }
  }
  return missing;
}

/** The locales `tag` falls back through, nearest first: its parents among the template's, then the default. */
function fallbackChain(tag: string, tags: Iterable<string>, defaultLocale: string): string[] {
  const known = new Set(tags);
  const chain: string[] = [];
  for (let parent = parentTag(tag); parent !== null; parent = parentTag(parent)) {
    if (known.has(parent) && parent !== defaultLocale) chain.push(parent);
  }
  return [...chain, defaultLocale];
}

/** RFC 4647 lookup's next tag: the last subtag dropped, and a single-letter one before it (`zh-Hant-x-a` → `zh-Hant`). */
function parentTag(tag: string): string | null {
  const subtags = tag.split("-");
  subtags.pop();
  while (subtags.length > 0 && subtags[subtags.length - 1].length === 1) subtags.pop();
  return subtags.length > 0 ? subtags.join("-") : null;
}

function fallbackFor(key: string, chain: string[], parsed: Map<string, Messages>): string {
  const path = key.split(".");
  return (
    chain.find((locale) => {
      let value: string | Messages | undefined = parsed.get(locale);
      for (const name of path) value = isObject(value) && Object.hasOwn(value, name) ? value[name] : undefined;
      return typeof value === "string";
    }) ?? chain[chain.length - 1]
  );
}

/** `base` with `over` merged in, deeply: `over`'s messages win. Null-prototype objects, so no key is special. */
function deepMerge(base: Messages, over: Messages): Messages {
  const out: Messages = Object.create(null) as Messages;
  for (const [name, value] of Object.entries(base)) out[name] = value;
  for (const [name, value] of Object.entries(over)) {
    const under = out[name];
    out[name] = isObject(value) && isObject(under) ? deepMerge(under, value) : value;
  }
  return out;
}

type Merged = { messages: Messages; json: string };

/**
 * Each locale's messages merged with its fallbacks (default ← parents ← the locale), or null once their JSON together
 * passes MAX_MERGED_MESSAGES_CHARS. A locale is merged onto its nearest parent's merge, parents first, so each merge
 * costs what it writes and the whole stops at the cap: a chain of 50 nested private-use tags cannot make it quadratic.
 */
function mergeLocales(parsed: Map<string, Messages>, defaultLocale: string): Map<string, Merged> | null {
  const done = new Map<string, Merged>();
  let total = 0;
  // A parent is a prefix of its child's tag: shorter tags first puts every parent before its children.
  const order = [...parsed.keys()].sort((a, b) => a.length - b.length || (a < b ? -1 : 1));
  const add = (tag: string, messages: Messages): boolean => {
    const json = JSON.stringify(messages);
    total += json.length;
    done.set(tag, { messages, json });
    return total <= MAX_MERGED_MESSAGES_CHARS;
  };
  if (!add(defaultLocale, deepMerge(Object.create(null) as Messages, parsed.get(defaultLocale)!))) return null;
  for (const tag of order) {
    if (tag === defaultLocale) continue;
    const [nearest] = fallbackChain(tag, parsed.keys(), defaultLocale);
    if (!add(tag, deepMerge(done.get(nearest)!.messages, parsed.get(tag)!))) return null;
  }
  return done;
}

/**
 * The files a user template is compiled from: each `messages/<tag>.json` replaced by the deep merge default ←
 * parent(s) ← tag, so that a key a locale lacks holds its parent's message, else the default locale's, and a render
 * never shows a raw key. Files that are not messages, and templates without any, are as given. The messages must
 * have passed checkMessages (a file that does not parse is left as it is, for the compiler to refuse).
 */
export function localizedFiles(files: TemplateFiles, defaultLocale: string | null): TemplateFiles {
  const tags = messagesTags(files);
  if (tags.length === 0 || defaultLocale === null || !tags.includes(defaultLocale)) return files;
  const parsed = new Map<string, Messages>();
  for (const tag of tags) {
    try {
      const value: unknown = JSON.parse(files[messagesPath(tag)]);
      if (!isObject(value)) return files;
      parsed.set(tag, value as Messages);
    } catch {
      return files;
    }
  }
  const mergedByTag = mergeLocales(parsed, defaultLocale);
  if (mergedByTag === null) return files;
  const out: TemplateFiles = {};
  for (const [path, content] of Object.entries(files)) {
    const tag = messagesTag(path);
    out[path] = tag === null ? content : mergedByTag.get(tag)!.json;
  }
  return out;
}

/**
 * The locale a render or send uses: `requested` looked up among `locales` (RFC 4647 §3.4: `fr-CA`, then `fr`, then
 * the default), tags compared as Intl.getCanonicalLocales writes them; the default locale when nothing is asked for or
 * nothing matches. A malformed tag is a 400 with field `locale`.
 */
export function resolveLocale(requested: string | undefined, locales: string[], defaultLocale: string): string {
  if (requested === undefined) return defaultLocale;
  const canonical = canonicalTag(requested);
  if (canonical === null) throw errors.validation([{ field: "locale", message: LOCALE_MESSAGE }]);
  const byCanonical = new Map(locales.map((tag) => [canonicalTag(tag) ?? tag, tag]));
  for (let candidate: string | null = canonical; candidate !== null; candidate = parentTag(candidate)) {
    const found = byCanonical.get(candidate);
    if (found !== undefined) return found;
  }
  return defaultLocale;
}
