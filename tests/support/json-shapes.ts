import { MAX_JSON_KEYS, MAX_JSON_VALUES } from "@/lib/core/limits";

// JSON values as text, of the shapes that once took JSON.parse or the passes after it seconds (issue 43), for the
// tests of the body caps and of what another account waits meanwhile.

const list = (count: number, item: (i: number) => string) => Array.from({ length: count }, (_, i) => item(i)).join(",");

/** An object of `count` keys (`k0`, `k1`, …, or as `key` spells them), each holding 0. */
export const objectOfKeys = (count: number, key = (i: number) => `k${i}`) => `{${list(count, (i) => `"${key(i)}":0`)}}`;

/** The issue's variables: 700,000 keys, about 8 MB. */
export const ISSUE_VARIABLES = objectOfKeys(700_000);

/**
 * Variables at the caps, in the shapes that cost the most for their size: keys in one object, keys one per object
 * (each of another name), distinct strings of a few characters (JSON.parse interns them, as it does keys).
 */
export const VARIABLES_AT_THE_CAPS = {
  keysInOneObject: objectOfKeys(MAX_JSON_KEYS - 10),
  keysOnePerObject: `{"l":[${list(MAX_JSON_KEYS - 10, (i) => `{"k${i}":0}`)}]}`,
  shortStrings: `{"l":[${list(MAX_JSON_VALUES - 20, (i) => `"${i}"`)}]}`,
};
