import { createHash, randomBytes } from "node:crypto";
import { crc32 } from "node:zlib";

// A key is `lp_live_` or `lp_test_`, 43 random base62 characters (256 bits) and a 6-character base62 checksum of
// everything before it (CRC-32), as GitHub's tokens are: a secret scanner can match the pattern and check the checksum
// without asking us, and a key with a typo is refused before any database read. Only the SHA-256 hash is stored, plus
// a short display fragment so users can tell keys apart. Keys made before the checksum (`lp_live_` and 43 base64url
// characters) keep working.
export const API_KEY_KINDS = ["live", "test"] as const;
export type ApiKeyKind = (typeof API_KEY_KINDS)[number];

export const API_KEY_SCOPES = ["full_access", "sending_access"] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** What the key a request came with may do; null for a browser session, which has full access to live sending. */
export type ApiKeyGrant = { id: string; kind: ApiKeyKind; scope: ApiKeyScope; domain: string | null };

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const RANDOM_CHARS = 43;
const CHECKSUM_CHARS = 6;
/** The pattern a secret scanner can use (the README documents it). */
export const API_KEY_PATTERN = /^lp_(live|test)_[0-9A-Za-z]{49}$/;
const LEGACY_KEY_PATTERN = /^lp_live_[A-Za-z0-9_-]{43}$/;

export type GeneratedKey = { key: string; hash: string; prefix: string; displayFragment: string };

function apiKeyPrefix(kind: ApiKeyKind): string {
  return `lp_${kind}_`;
}

export function generateApiKey(kind: ApiKeyKind = "live"): GeneratedKey {
  const prefix = apiKeyPrefix(kind);
  const body = prefix + randomBase62(RANDOM_CHARS);
  const key = body + checksum(body);
  return { key, hash: hashApiKey(key), prefix, displayFragment: displayFragment(key) };
}

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

/** The shape of a key and, for a key with a checksum, the checksum: checked before any database read. */
export function isWellFormedApiKey(value: string): boolean {
  return apiKeyProblem(value) === null;
}

/**
 * What makes `value` not a key, in words for the 401's message (never quoting the key), or null when it is well formed:
 * its prefix, its shape, or its checksum.
 */
export function apiKeyProblem(value: string): string | null {
  if (LEGACY_KEY_PATTERN.test(value)) return null;
  const malformed = "The API key is malformed";
  if (!value.startsWith(apiKeyPrefix("live")) && !value.startsWith(apiKeyPrefix("test")))
    return `${malformed}: it does not start with lp_live_ or lp_test_.`;
  if (!API_KEY_PATTERN.test(value))
    return `${malformed}: after its prefix a key has ${RANDOM_CHARS + CHECKSUM_CHARS} letters and digits.`;
  const split = value.length - CHECKSUM_CHARS;
  if (checksum(value.slice(0, split)) !== value.slice(split))
    return `${malformed}: its checksum does not match, so a character was changed or lost in copying.`;
  return null;
}

export function displayFragment(key: string): string {
  return `${key.slice(0, key.indexOf("_", 3) + 1)}…${key.slice(-4)}`;
}

function checksum(text: string): string {
  let value = crc32(text);
  let digits = "";
  for (let i = 0; i < CHECKSUM_CHARS; i++) {
    digits = BASE62[value % 62] + digits;
    value = Math.floor(value / 62);
  }
  return digits;
}

/** Uniform base62 characters: bytes of 248 and over are dropped, so no character is likelier than another. */
function randomBase62(length: number): string {
  let result = "";
  while (result.length < length) {
    for (const byte of randomBytes(length)) {
      if (byte < 248 && result.length < length) result += BASE62[byte % 62];
    }
  }
  return result;
}
