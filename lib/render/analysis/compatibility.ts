/**
 * Email client support of a rendered document, from the caniemail data set (the `caniemail` package, pinned in
 * package.json): which of its features the contract's clients do not show, or show only in part. Runs on the render
 * workers, after the render, under a deadline of its own (COMPATIBILITY_CHECK in lib/core/limits.ts).
 *
 * caniemail parses what it is given with regular expressions that are not linear on user text (`([a-z-]+)\(` on a CSS
 * value, `url\(…(.*?)…\)`, an inline-style parser's comment pattern), so it never sees the document itself: a linear
 * scan first reduces the document to what the checks read (each distinct element's tag, attribute names, the few
 * attribute values that name a feature, its style declarations; the <style> rules), with every name and value capped,
 * and caniemail checks that reduction, one element per line. Renders of one template with other variables usually
 * reduce to the same text: the findings are kept by a hash of it (pure, keyed by content: docs/architecture.md).
 *
 * Bounded twice. In input: the reduction holds at most COMPATIBILITY_CHECK's distinct elements and style declarations
 * (past the declarations, elements are checked without their style) and characters of <style> rules; caniemail's time
 * grows with each (300 elements of 200 declarations each took it 2 to 10 s). In time: caniemail checks the elements
 * in groups, and past the check's deadline (CPU time of the thread, ./thread-cpu.ts, so that a busy machine slows the
 * check down without skipping it; at most wallClockMs of wall-clock time) it stops and the answer is null: the render
 * answers with a warning that the check was skipped (./warnings.ts) rather than failing, or costing its worker.
 */
import { createHash } from "node:crypto";
import { caniemail, rawData } from "caniemail";
import { COMPATIBILITY_CHECK } from "@/lib/core/limits";
import { currentThreadId, threadCpuMs } from "../workers/thread-cpu";
import { EMAIL_CLIENTS as CLIENTS, type CompatibilityFinding } from "./warnings";

type ClientKey = keyof typeof CLIENTS;
const CLIENT_KEYS = Object.keys(CLIENTS) as ClientKey[];

const {
  elements: MAX_CHECKED_ELEMENTS,
  declarationsPerElement: MAX_DECLARATIONS_PER_ELEMENT,
  declarations: MAX_CHECKED_DECLARATIONS,
  cssChars: MAX_CHECKED_CSS_CHARS,
} = COMPATIBILITY_CHECK;
/**
 * Elements caniemail checks at a time, between looks at the clock, and the characters of their lines at most (a longer
 * line is a group of its own): a group takes it a few milliseconds, a line of the most declarations a few tens.
 */
const ELEMENTS_PER_GROUP = 20;
const CHARS_PER_GROUP = 4000;
/** Characters of reduced <style> rules checked at a time (rules cost caniemail more per character than elements). */
const CSS_CHARS_PER_GROUP = 500;
/** Start tags, and characters, the reduction reads between looks at the clock: either takes it a few ms at most. */
const TAGS_BETWEEN_LOOKS = 64;
const CHARS_BETWEEN_LOOKS = 100_000;
/** Elements named per finding. */
const MAX_ELEMENTS_PER_FINDING = 5;

const featureUrls = new Map(rawData.data.map((feature) => [feature.title, feature.url]));

// caniemail throws when its data has no result for a feature in one of the clients asked about (word-wrap has none for
// Gmail (iOS) and Outlook (macOS) in 2.0.2): nothing is known there, so nothing is reported.
for (const feature of rawData.data) {
  for (const key of CLIENT_KEYS) {
    const [family, platform] = key.split(".");
    const stats = feature.stats as Record<string, Record<string, Record<string, string>> | undefined>;
    stats[family] ??= {};
    stats[family][platform] ??= { "0": "y" };
  }
}

/**
 * The findings for a rendered document, most relevant first (where they first occur), or none; null when the check ran
 * past its deadline and was skipped. Kept by the document's hash (the same render again) and by its reduction's (the
 * same template with other variables); a skipped check is not kept.
 */
export function checkCompatibility(html: string): CompatibilityFinding[] | null {
  const documentKey = `d${hash(html)}`;
  let findings = cachedFindings(documentKey);
  if (!findings) {
    const clock = checkClock();
    const reduced = reduceDocument(html, clock);
    if (!reduced) return null;
    const reducedKey = `r${hash(reduced.html, reduced.css)}`;
    findings = cachedFindings(reducedKey);
    if (!findings) {
      const found = findingsOf(reduced, clock);
      if (!found) return null;
      findings = keepFindings(reducedKey, found);
    }
    keepFindings(documentKey, findings);
  }
  return findings;
}

/**
 * Whether the check is past its deadline: COMPATIBILITY_CHECK.deadlineMs of this thread's CPU time since it began, where
 * Linux tells it, or wallClockMs of wall-clock time, whichever comes first (only the wall clock elsewhere).
 */
function checkClock(): () => boolean {
  const started = performance.now();
  const tid = (threadId ??= currentThreadId());
  const cpuAtStart = tid === 0 ? null : threadCpuMs(tid);
  return () => {
    const wall = performance.now() - started;
    if (wall > COMPATIBILITY_CHECK.wallClockMs) return true;
    const cpu = cpuAtStart === null ? null : threadCpuMs(tid);
    return cpu === null || cpuAtStart === null
      ? wall > COMPATIBILITY_CHECK.deadlineMs
      : cpu - cpuAtStart > COMPATIBILITY_CHECK.deadlineMs;
  };
}

/** This thread's Linux id (a module per thread: the check runs on the render workers' threads). */
let threadId: number | undefined;

// SHA-256, as the project's other content keys: one account's document must not be made to collide with another's,
// whose findings name its elements.
function hash(...texts: string[]): string {
  const digest = createHash("sha256");
  for (const text of texts) digest.update(text).update("\0");
  return digest.digest("base64");
}

const MAX_CACHED = 1000;
const findingsCache = new Map<string, CompatibilityFinding[]>();

function cachedFindings(key: string): CompatibilityFinding[] | undefined {
  const findings = findingsCache.get(key);
  if (findings) {
    findingsCache.delete(key);
    findingsCache.set(key, findings);
  }
  return findings;
}

function keepFindings(key: string, findings: CompatibilityFinding[]): CompatibilityFinding[] {
  findingsCache.set(key, findings);
  if (findingsCache.size > MAX_CACHED) findingsCache.delete(findingsCache.keys().next().value!);
  return findings;
}

type Found = { line: number; unsupported: Set<ClientKey>; partial: Set<ClientKey>; elements: Set<string> };

/** An element's own feature (`<video> element`). */
const ELEMENT_FEATURE = /^<(\w+)> element$/;

/** The findings of the reduced document; null when `late` says the check's deadline passed first. */
function findingsOf({ html, names, labels, css }: ReducedDocument, late: () => boolean): CompatibilityFinding[] | null {
  const found = new Map<string, Found>();
  /** `labelOf`: the element a finding at `line` is on, or null to leave the finding out; `after`: lines before. */
  const add = (
    document: { html: string } | { css: string },
    labelOf: (line: number, feature: string) => string | null,
    after = 0,
  ) => {
    const { issues } = caniemail({ clients: CLIENT_KEYS, ...document });
    for (const [support, byClient] of [
      ["unsupported", issues.errors],
      ["partial", issues.warnings],
    ] as const) {
      for (const [client, list] of byClient) {
        for (const issue of list) {
          const line = after + (issue.position?.start.line ?? 1);
          const label = labelOf(line, issue.title);
          if (label === null) continue;
          let entry = found.get(issue.title);
          if (!entry) {
            entry = { line, unsupported: new Set(), partial: new Set(), elements: new Set() };
            found.set(issue.title, entry);
          }
          entry.line = Math.min(entry.line, line);
          entry[support].add(client as ClientKey);
          if (entry.elements.size < MAX_ELEMENTS_PER_FINDING) entry.elements.add(label);
        }
      }
    }
  };
  // caniemail matches an element's feature by substring (`<tbody>` passes for `<body> element`): only the element the
  // feature names counts.
  const onElement = (line: number, feature: string) => {
    const element = ELEMENT_FEATURE.exec(feature)?.[1];
    return element === undefined || element === names[line - 1] ? labels[line - 1] : null;
  };
  // Each element is a line of its own, checked alone: groups of lines are checked as the whole would be.
  const lines = html ? html.split("\n") : [];
  for (let first = 0; first < lines.length;) {
    if (late()) return null;
    let end = first + 1;
    for (let chars = lines[first].length; end < lines.length && end - first < ELEMENTS_PER_GROUP; end++) {
      chars += lines[end].length + 1;
      if (chars > CHARS_PER_GROUP) break;
    }
    add({ html: lines.slice(first, end).join("\n") }, onElement, first);
    first = end;
  }
  for (const rules of cssGroups(css)) {
    if (late()) return null;
    add({ css: rules }, () => "<style>", labels.length);
  }
  return [...found]
    .sort(([a, x], [b, y]) => x.line - y.line || (a < b ? -1 : a > b ? 1 : 0))
    .map(([feature, entry]) => ({
      feature,
      unsupported: clientNames(entry.unsupported),
      partial: clientNames(entry.partial),
      elements: [...entry.elements],
      url: featureUrls.get(feature) ?? "https://www.caniemail.com/",
    }));
}

/** Reduced rules in groups of whole top-level rules (and at-rules), each of CSS_CHARS_PER_GROUP characters or so. */
function cssGroups(css: string): string[] {
  const groups: string[] = [];
  let start = 0;
  let depth = 0;
  for (let at = 0; at < css.length; at++) {
    const char = css[at];
    if (char === "{") depth++;
    else if (char === "}") depth = Math.max(0, depth - 1);
    if (depth === 0 && (char === "}" || char === ";") && at + 1 - start >= CSS_CHARS_PER_GROUP) {
      groups.push(css.slice(start, at + 1));
      start = at + 1;
    }
  }
  if (start < css.length && css.slice(start).trim()) groups.push(css.slice(start));
  return groups;
}

function clientNames(keys: Set<ClientKey>): string[] {
  return CLIENT_KEYS.filter((key) => keys.has(key)).map((key) => CLIENTS[key]);
}

/**
 * `html`: one distinct element per line (`names[i]` is line i + 1's tag name, `labels[i]` the element as people read
 * it: its tag and style); `css`: the <style>
 * elements' rules. Both made only of capped names and values, so caniemail's checks of them stay small.
 */
type ReducedDocument = { html: string; names: string[]; labels: string[]; css: string };

const VOID_ELEMENTS = new Set([
  "area",
  "base",
  "br",
  "col",
  "embed",
  "hr",
  "img",
  "input",
  "link",
  "meta",
  "source",
  "track",
  "wbr",
]);
/** Elements whose content is text up to their end tag (the HTML parser's raw text and RCDATA elements). */
const TEXT_ELEMENTS = new Set(["style", "script", "title", "textarea", "xmp", "iframe", "noembed", "noframes"]);
/** Attributes whose value names a feature (`<input type="radio">`, the color-scheme meta tag). */
const WORD_VALUED = new Set(["name", "type"]);
const MAX_NAME = 40;

/** One pass over the document: each `<` starts a tag, a comment or something skipped to its end; null when `late`. */
function reduceDocument(html: string, late: () => boolean): ReducedDocument | null {
  let tagsRead = 0;
  let lookedAt = 0;
  const lines: string[] = [];
  const names: string[] = [];
  const labels: string[] = [];
  const seen = new Set<string>();
  let declarationsLeft = MAX_CHECKED_DECLARATIONS;
  const css: string[] = [];
  let cssChars = 0;
  let comment = false;
  let at = html.indexOf("<");
  while (at !== -1 && at < html.length) {
    const next = html.charCodeAt(at + 1);
    if (next === 33 && html.charCodeAt(at + 2) === 45 && html.charCodeAt(at + 3) === 45) {
      comment = true;
      at = after(html, "-->", at + 4);
    } else if (!isLetter(next)) {
      // An end tag, a doctype or processing instruction, or a `<` of text.
      at = next === 47 || next === 33 ? after(html, ">", at) : at + 1;
    } else {
      if (++tagsRead % TAGS_BETWEEN_LOOKS === 0 || at - lookedAt > CHARS_BETWEEN_LOOKS) {
        if (late()) return null;
        lookedAt = at;
      }
      const tag = readTag(html, at);
      at = tag.end;
      if (TEXT_ELEMENTS.has(tag.name)) {
        const close = closingTag(html, tag.name, at);
        if (tag.name === "style" && cssChars < MAX_CHECKED_CSS_CHARS) {
          const rules = reduceStylesheet(html.slice(at, close));
          cssChars += rules.length;
          css.push(rules);
        }
        at = close;
      }
      if (seen.size < MAX_CHECKED_ELEMENTS && !seen.has(tag.line)) {
        // Past the declarations checked, an element is checked without its style (or with the first of it).
        const allowed = Math.min(tag.declarations.length, MAX_DECLARATIONS_PER_ELEMENT, declarationsLeft);
        const line = allowed === tag.declarations.length ? tag.line : lineOf(tag, allowed);
        if (!seen.has(line)) {
          seen.add(line);
          declarationsLeft -= allowed;
          lines.push(line);
          names.push(tag.name);
          labels.push(tag.label);
        }
      }
    }
    at = html.indexOf("<", at);
  }
  if (comment) {
    lines.push("<!---->");
    names.push("");
    labels.push("<!-- comment -->");
  }
  return { html: lines.join("\n"), names, labels, css: css.join("\n") };
}

function after(html: string, token: string, from: number): number {
  const end = html.indexOf(token, from);
  return end === -1 ? html.length : end + token.length;
}

function isLetter(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90);
}

function isWordChar(code: number): boolean {
  return isLetter(code) || (code >= 48 && code <= 57) || code === 45 || code === 95;
}

function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 12 || code === 13;
}

/** Where the text of a `name` element ends: its end tag, in any case, or the document's end. */
function closingTag(html: string, name: string, from: number): number {
  let at = html.indexOf("</", from);
  while (at !== -1) {
    if (html.slice(at + 2, at + 2 + name.length).toLowerCase() === name) return at;
    at = html.indexOf("</", at + 2);
  }
  return html.length;
}

/**
 * A start tag reduced: its name, its line (`<name attributes style="declarations"></name>`), its label, and the parts its
 * line is made of: `open` (up to the style), each reduced style declaration, `close`.
 */
type Tag = { name: string; line: string; label: string; open: string; declarations: string[]; close: string };

/** The tag's line with its first `count` declarations only. */
function lineOf({ open, declarations, close }: Tag, count: number): string {
  return count === 0 ? `${open}${close}` : `${open} style="${declarations.slice(0, count).join(";")}"${close}`;
}

/**
 * The start tag at `start` (its name, reduced line and label) and where it ends. A template's tags mostly repeat, within
 * a document and from one render to the next: each tag's text is reduced once (kept by its text, up to MAX_TAGS).
 */
function readTag(html: string, start: number): Tag & { end: number } {
  // React escapes `>` in attribute values; in markup a template writes itself, a `>` inside a quoted value ends the tag
  // here early, and the rest of it reads as text: the check is told less, never misled into slow work.
  const end = after(html, ">", start);
  const text = html.slice(start, end);
  let tag = tags.get(text);
  if (!tag) {
    tag = reduceTag(text);
    if (text.length <= MAX_CACHED_TAG) {
      if (tags.size >= MAX_TAGS) tags.clear();
      // Copies: a slice of the document (and strings made from it) would keep the whole document alive in the cache.
      tag = {
        name: copy(tag.name),
        line: copy(tag.line),
        label: copy(tag.label),
        open: copy(tag.open),
        declarations: tag.declarations.map(copy),
        close: copy(tag.close),
      };
      tags.set(copy(text), tag);
    }
  }
  return { ...tag, end };
}

const MAX_TAGS = 5000;
const MAX_CACHED_TAG = 2000;
const tags = new Map<string, Tag>();

function copy(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string;
}

/** A start tag's text (`<name …>`) reduced: its name, attribute names, the values that name a feature, its styles. */
function reduceTag(html: string): Tag {
  let at = 1;
  while (at < html.length && !isSpace(html.charCodeAt(at)) && html[at] !== ">" && html[at] !== "/") at++;
  const name = html
    .slice(1, at)
    .toLowerCase()
    .slice(0, MAX_NAME)
    .replace(/[^a-z0-9-]/g, "");
  const attributes = new Map<string, string>();
  let declarations: string[] = [];
  while (at < html.length) {
    const code = html.charCodeAt(at);
    if (code === 62) {
      at++;
      break;
    }
    if (isSpace(code) || code === 47) {
      at++;
      continue;
    }
    const nameStart = at;
    while (at < html.length && !isSpace(html.charCodeAt(at)) && !"=>/".includes(html[at])) at++;
    const attribute = html.slice(nameStart, Math.min(at, nameStart + MAX_NAME)).toLowerCase();
    if (at === nameStart) at++;
    while (at < html.length && isSpace(html.charCodeAt(at))) at++;
    let value = "";
    if (html[at] === "=") {
      at++;
      while (at < html.length && isSpace(html.charCodeAt(at))) at++;
      const quote = html[at];
      if (quote === '"' || quote === "'") {
        const close = html.indexOf(quote, at + 1);
        const end = close === -1 ? html.length : close;
        value = html.slice(at + 1, end);
        at = end + 1;
      } else {
        const valueStart = at;
        while (at < html.length && !isSpace(html.charCodeAt(at)) && html[at] !== ">") at++;
        value = html.slice(valueStart, at);
      }
    }
    if (!/^[a-z_:.\u26a1][a-z0-9_:.\-\u26a1]*$/.test(attribute) || attributes.has(attribute)) continue;
    if (attribute === "style") declarations = reduceDeclarations(value, MAX_DECLARATIONS_PER_ELEMENT);
    else attributes.set(attribute, reduceAttribute(attribute, value));
  }
  let open = `<${name}`;
  for (const [attribute, value] of attributes) open += value === "" ? ` ${attribute}` : ` ${attribute}="${value}"`;
  const close = VOID_ELEMENTS.has(name) ? " />" : `></${name}>`;
  const style = declarations.join(";");
  const line = style ? `${open} style="${style}"${close}` : `${open}${close}`;
  const label = style ? `<${name} style="${style.length > 80 ? `${style.slice(0, 79)}…` : style}">` : `<${name}>`;
  return { name, line, label, open, declarations, close };
}

/** What of an attribute's value a check reads: a link's kind, an image's format, a word; nothing of the others. */
function reduceAttribute(name: string, value: string): string {
  if (name === "href") return value.startsWith("#") ? "#" : /^mailto:/i.test(value) ? "mailto:" : "";
  if (name === "src") return reduceUrl(value);
  if (name === "srcset") {
    return value
      .split(",", 10)
      .map((candidate) => reduceUrl(candidate.trim().split(/\s/, 1)[0]))
      .join(", ");
  }
  if (WORD_VALUED.has(name)) return value.length <= MAX_NAME && /^[\w-]+$/.test(value) ? value.toLowerCase() : "";
  return "";
}

/** An image URL as far as its format shows: a data URI's media type, or a path's extension. */
function reduceUrl(url: string): string {
  if (/^\s*data:/i.test(url)) {
    const start = url.indexOf(":") + 1;
    let end = start;
    while (end < url.length && end - start < MAX_NAME && url[end] !== ";" && url[end] !== ",") end++;
    return `data:${url.slice(start, end).replace(/[^\w.+/-]/g, "")},`;
  }
  const queryAt = url.search(/[?#]/);
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  const dot = path.lastIndexOf(".");
  const extension = dot > path.lastIndexOf("/") ? path.slice(dot + 1) : "";
  return extension.length > 0 && extension.length <= 5 && /^[a-z0-9]+$/i.test(extension) ? `x.${extension}` : "x";
}

const MAX_VALUE = 256;
const MAX_WORD = 64;

/**
 * A style attribute's distinct declarations, `property:value`, each property a CSS name and each value reduced; the
 * first `most` of them.
 */
function reduceDeclarations(style: string, most = Infinity): string[] {
  const declarations = new Set<string>();
  for (const declaration of splitOutside(style, ";")) {
    if (declarations.size >= most) break;
    const colon = declaration.indexOf(":");
    if (colon === -1) continue;
    const property = declaration.slice(0, colon).trim().toLowerCase();
    if (property.length > MAX_WORD || !/^-{0,2}[a-z][a-z0-9-]*$/.test(property)) continue;
    const value = reduceValue(declaration.slice(colon + 1));
    if (value) declarations.add(`${property}:${value}`);
  }
  return [...declarations];
}

/** `text` split at each `separator` outside parentheses and quotes (`url(data:image/png;base64,…)` stays whole). */
function splitOutside(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote = "";
  let start = 0;
  for (let at = 0; at < text.length; at++) {
    const char = text[at];
    if (quote) {
      if (char === quote) quote = "";
    } else if (char === '"' || char === "'") quote = char;
    else if (char === "(") depth++;
    else if (char === ")") depth = Math.max(0, depth - 1);
    else if (char === separator && depth === 0) {
      parts.push(text.slice(start, at));
      start = at + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/**
 * A CSS value as the checks read it: functions, keywords, units and image formats. `url(…)` becomes the image's format;
 * quotes and markup characters go; a word keeps its first MAX_WORD characters and the value its first MAX_VALUE.
 */
function reduceValue(value: string): string {
  let out = "";
  let word = 0;
  let space = false;
  for (let at = 0; at < value.length && out.length < MAX_VALUE; at++) {
    const char = value[at];
    if ((char === "u" || char === "U") && value.slice(at, at + 4).toLowerCase() === "url(") {
      const close = value.indexOf(")", at + 4);
      const end = close === -1 ? value.length : close;
      out += `${space && out ? " " : ""}url(${reduceUrl(
        value
          .slice(at + 4, end)
          .trim()
          .replace(/^["']|["']$/g, ""),
      )})`;
      at = end;
      word = 0;
      space = false;
      continue;
    }
    if (isSpace(value.charCodeAt(at))) {
      space = true;
      word = 0;
      continue;
    }
    if ("\"'<>&*\\".includes(char)) continue;
    if (space && out) out += " ";
    space = false;
    word = isWordChar(value.charCodeAt(at)) ? word + 1 : 0;
    if (word <= MAX_WORD) out += char;
  }
  return out;
}

/**
 * <style> rules reduced as style attributes are: each rule's selector (capped) or at-rule name, and its declarations;
 * a comment anywhere is kept as one empty comment. One pass, tracking braces.
 */
function reduceStylesheet(stylesheet: string): string {
  const { text, comment } = withoutComments(stylesheet);
  let out = "";
  let start = 0;
  let quote = "";
  for (let at = 0; at < text.length && out.length < MAX_CHECKED_CSS_CHARS; at++) {
    const char = text[at];
    if (quote) {
      if (char === quote) quote = "";
    } else if (char === '"' || char === "'") quote = char;
    else if (char === "{" || char === "}" || char === ";") {
      const part = text.slice(start, at).trim();
      start = at + 1;
      if (char === "{") out += `${reducePrelude(part)}{`;
      else if (part.startsWith("@")) out += `${reducePrelude(part)};`;
      else if (part) out += `${reduceDeclarations(part).join(";")};`;
      if (char === "}") out += "}";
    }
  }
  return (comment ? "/**/\n" : "") + out;
}

/** CSS without its comments (each a space), and whether it had any. */
function withoutComments(text: string): { text: string; comment: boolean } {
  const parts: string[] = [];
  let from = 0;
  let at = text.indexOf("/*");
  while (at !== -1) {
    parts.push(text.slice(from, at), " ");
    const end = text.indexOf("*/", at + 2);
    from = end === -1 ? text.length : end + 2;
    at = end === -1 ? -1 : text.indexOf("/*", from);
  }
  parts.push(text.slice(from));
  return { text: parts.join(""), comment: parts.length > 1 };
}

/** A selector or an at-rule's prelude, capped, without the characters a reduced document leaves out. */
function reducePrelude(prelude: string): string {
  return prelude
    .slice(0, MAX_VALUE)
    .replace(/["'<>&\\]/g, "")
    .replace(/\s+/g, " ");
}
