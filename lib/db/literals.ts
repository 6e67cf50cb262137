import { randomBytes } from "node:crypto";

// postgres.js, with statements unprepared (Supabase's transaction pooler requires it), describes every parameterised
// statement before executing it: two round trips per query. On the hot paths (authenticate + meter with the route's
// preload, record a sent email) values are inlined as literals instead, and each statement goes out as one
// simple-protocol query: one round trip. These helpers accept only values of a checked shape, and text only
// dollar-quoted, so no caller-controlled text can reach SQL unquoted.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const HEX_DIGEST = /^[0-9a-f]{64}$/;

export function isUuid(value: unknown): value is string {
  return typeof value === "string" && UUID.test(value);
}

function quote(text: string): string {
  // standard_conforming_strings is on everywhere we run (the default since PostgreSQL 9.1): only quotes need doubling.
  return `'${text.replaceAll("'", "''")}'`;
}

export function uuidLiteral(value: string | null): string {
  if (value === null) return "null::uuid";
  if (!UUID.test(value)) throw new TypeError("not a uuid");
  return `${quote(value)}::uuid`;
}

export function digestLiteral(value: string | null): string {
  if (value === null) return "null::text";
  if (!HEX_DIGEST.test(value)) throw new TypeError("not a hex SHA-256 digest");
  return `${quote(value)}::text`;
}

export function keywordLiteral(value: string | null, allowed: readonly string[]): string {
  if (value === null) return "null::text";
  if (!allowed.includes(value)) throw new TypeError(`not one of ${allowed.join(", ")}`);
  return `${quote(value)}::text`;
}

export function timestampLiteral(value: Date): string {
  if (Number.isNaN(value.getTime())) throw new TypeError("invalid date");
  return `${quote(value.toISOString())}::timestamptz`;
}

export function integerLiteral(value: number): string {
  if (!Number.isSafeInteger(value)) throw new TypeError("not an integer");
  return String(value);
}

export function jsonLiteral(value: unknown): string {
  return `${quote(JSON.stringify(value))}::jsonb`;
}

/**
 * Any text, user-supplied included, as a dollar-quoted literal that nothing inside can end, whatever
 * standard_conforming_strings says. The tag is `$lp$`, or a random one when that would not do (a random tag per
 * literal cost POST /send nine calls into the CSPRNG). Text with a NUL character cannot travel in a simple-protocol
 * query at all (nor be stored as PostgreSQL text): callers refuse it in validation.
 */
export function textLiteral(value: string | null): string {
  if (value === null) return "null::text";
  if (value.includes("\0")) throw new TypeError("text contains a NUL character");
  // The literal ends at the first occurrence of its tag: the text must not contain it, nor end with a start of it
  // that the closing tag would complete (text ending in "$lp" followed by "$lp$").
  const closesEarly = (tag: string) => `${value}${tag}`.indexOf(tag) !== value.length;
  let tag = "$lp$";
  while (closesEarly(tag)) tag = `$lp_${randomBytes(8).toString("hex")}$`;
  return `${tag}${value}${tag}::text`;
}

export function textArrayLiteral(values: readonly string[]): string {
  return values.length === 0 ? "'{}'::text[]" : `array[${values.map(textLiteral).join(", ")}]::text[]`;
}

export function booleanLiteral(value: boolean): string {
  if (typeof value !== "boolean") throw new TypeError("not a boolean");
  return value ? "true" : "false";
}

export function nullableTimestampLiteral(value: Date | null): string {
  return value === null ? "null::timestamptz" : timestampLiteral(value);
}
