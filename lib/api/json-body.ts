import "server-only";
import { readBody } from "@/lib/api/body";
import { errors, type ValidationDetail } from "@/lib/core/errors";
import {
  MAX_BODY_BYTES,
  MAX_JSON_DEPTH,
  MAX_JSON_KEY_CHARS,
  MAX_JSON_KEYS,
  MAX_JSON_NUMBER_CHARS,
  MAX_JSON_VALUES,
} from "@/lib/core/limits";

// A request's JSON, read within the limits of lib/core/limits.ts. JSON.parse of a body that fits 10 MB can hold the
// event loop for seconds (700,000 object keys: about 0.9 s, and as long again for each pass over the result), so the
// text is counted first, in one linear pass over its bytes, and refused before it is parsed past any cap
// (docs/performance.md, "JSON bodies").

/** A request's JSON body: `{}` when it is empty; 400 past a cap of lib/core/limits.ts or when it is not JSON. */
export async function readJsonBody(request: Request): Promise<unknown> {
  const bytes = await readBody(request, MAX_BODY_BYTES);
  const shape = jsonTextProblem(bytes);
  if (shape) throw errors.validation([shape]);
  const text = bytes.toString("utf8");
  if (text.trim() === "") return {};
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw errors.malformedJson((error as Error).message);
  }
  const problem = findJsonProblem(json);
  if (problem) throw errors.validation([problem]);
  return json;
}

const tooManyValues: ValidationDetail = {
  field: "body",
  message: `holds more than ${MAX_JSON_VALUES.toLocaleString("en-US")} JSON values (objects, arrays, strings, numbers, booleans and nulls)`,
};
const tooManyKeys: ValidationDetail = {
  field: "body",
  message: `holds more than ${MAX_JSON_KEYS.toLocaleString("en-US")} object keys (in all its objects)`,
};
const numberTooLong: ValidationDetail = {
  field: "body",
  message: `holds a number longer than ${MAX_JSON_NUMBER_CHARS} characters`,
};

const [COMMA, COLON, OPEN_BRACE, CLOSE_BRACE, OPEN_BRACKET, CLOSE_BRACKET, QUOTE, BACKSLASH] = [
  44, 58, 123, 125, 91, 93, 34, 92,
];
/** What a byte outside strings starts or is part of (0: nothing counted). */
const [WHITESPACE, STRING, NUMBER, ITEM, KEY, CLOSE] = [1, 2, 3, 4, 5, 6];
const BYTE_CLASS = new Uint8Array(256);
for (const c of " \t\n\r") BYTE_CLASS[c.charCodeAt(0)] = WHITESPACE;
for (const c of "0123456789-+.eE") BYTE_CLASS[c.charCodeAt(0)] = NUMBER;
BYTE_CLASS[QUOTE] = STRING;
for (const c of [COMMA, OPEN_BRACE, OPEN_BRACKET]) BYTE_CLASS[c] = ITEM;
BYTE_CLASS[COLON] = KEY;
for (const c of [CLOSE_BRACE, CLOSE_BRACKET]) BYTE_CLASS[c] = CLOSE;
/** Bytes of a string without a quote or a backslash after which the rest of it is skipped with indexOf (memchr). */
const PLAIN_RUN = 32;

/**
 * The first cap of lib/core/limits.ts that a JSON text (as UTF-8 bytes) passes, in one pass over it without parsing it,
 * or null. Outside strings (a multi-byte character's bytes are never ASCII): every value but the first is preceded by a
 * comma or opens a container (`commas + openings + 1`), less one for each empty container; every key is followed by a
 * colon; a number is a run of its characters (`true` and `false` make runs of one `e`). Exact for valid JSON; a
 * malformed text gets some count and then JSON.parse's error. The pass stops at the first cap passed.
 */
export function jsonTextProblem(bytes: Uint8Array): ValidationDetail | null {
  const end = bytes.length;
  let values = 1;
  let keys = 0;
  let last = 0;
  for (let i = 0; i < end; i++) {
    const c = bytes[i];
    switch (BYTE_CLASS[c]) {
      case WHITESPACE:
        // A run at once: one pass of the switch per byte takes three times as long on pretty-printed JSON.
        while (i + 1 < end && BYTE_CLASS[bytes[i + 1]] === WHITESPACE) i++;
        continue;
      case STRING: {
        let plain = 0;
        for (i++; i < end; i++) {
          const s = bytes[i];
          if (s === QUOTE) break;
          if (s === BACKSLASH) {
            i++;
            plain = 0;
          } else if (++plain === PLAIN_RUN) {
            // A long string (an attachment's base64): on to its next quote, which ends it unless an odd run of
            // backslashes escapes it. bytes[i] is no backslash, so the run starts after it.
            const quote = bytes.indexOf(QUOTE, i + 1);
            if (quote === -1) return null;
            let backslashes = 0;
            while (bytes[quote - 1 - backslashes] === BACKSLASH) backslashes++;
            i = quote;
            if (backslashes % 2 === 0) break;
            plain = 0;
          }
        }
        break;
      }
      case NUMBER: {
        const start = i;
        while (i + 1 < end && BYTE_CLASS[bytes[i + 1]] === NUMBER) i++;
        if (i + 1 - start > MAX_JSON_NUMBER_CHARS) return numberTooLong;
        break;
      }
      case ITEM:
        // At most the last container opened is empty and not yet taken off the count.
        if (++values > MAX_JSON_VALUES + 1) return tooManyValues;
        break;
      case KEY:
        if (++keys > MAX_JSON_KEYS) return tooManyKeys;
        break;
      case CLOSE:
        if ((c === CLOSE_BRACE && last === OPEN_BRACE) || (c === CLOSE_BRACKET && last === OPEN_BRACKET)) values--;
        break;
    }
    last = c;
  }
  return values > MAX_JSON_VALUES ? tooManyValues : null;
}

/** A container being walked: its keys (null for an array, walked by index) and the position of the next child. */
type Frame = { container: Record<string, unknown> | unknown[]; keys: string[] | null; next: number };

/**
 * The first part of a parsed body that nests too deep, holds text that is not valid Unicode, a key longer than
 * MAX_JSON_KEY_CHARS or a `__proto__` key, or the body holding more than MAX_JSON_VALUES values. Iterative on purpose,
 * and it keeps only the containers on the way down: the field's path is spelled out only for the problem it reports.
 */
function findJsonProblem(body: unknown): ValidationDetail | null {
  const frames: Frame[] = [];
  const field = () => frames.map(({ keys, next }) => (keys ? keys[next - 1] : String(next - 1))).join(".") || "body";
  let value = body;
  for (let visited = 1; ; visited++) {
    if (visited > MAX_JSON_VALUES) return tooManyValues;
    if (typeof value === "string") {
      // Unpaired UTF-16 surrogates are valid JSON escapes but not text: PostgreSQL's jsonb refuses them and its text
      // columns would store U+FFFD instead, so a body holding one is refused rather than silently altered.
      if (!value.isWellFormed())
        return { field: field(), message: "must be valid Unicode text: it holds an unpaired surrogate" };
    } else if (value !== null && typeof value === "object") {
      if (frames.length >= MAX_JSON_DEPTH)
        return { field: field(), message: `nests deeper than ${MAX_JSON_DEPTH} levels` };
      const keys = Array.isArray(value) ? null : Object.keys(value);
      if (keys?.some((key) => key.length > MAX_JSON_KEY_CHARS))
        return { field: field(), message: `holds a key longer than ${MAX_JSON_KEY_CHARS} characters` };
      if (keys?.some((key) => !key.isWellFormed()))
        return { field: field(), message: "holds a key that is not valid Unicode text (an unpaired surrogate)" };
      // Copying such an object into another sets that object's prototype instead of a key: the value would be lost.
      if (keys?.includes("__proto__")) {
        return {
          field: frames.length > 0 ? `${field()}.__proto__` : "__proto__",
          message: "__proto__ cannot be a key (JavaScript objects would drop it)",
        };
      }
      frames.push({ container: value as Frame["container"], keys, next: 0 });
    }
    let frame = frames.at(-1);
    while (frame && frame.next >= (frame.keys ?? (frame.container as unknown[])).length) {
      frames.pop();
      frame = frames.at(-1);
    }
    if (!frame) return null;
    value = frame.keys
      ? (frame.container as Record<string, unknown>)[frame.keys[frame.next]]
      : (frame.container as unknown[])[frame.next];
    frame.next++;
  }
}
