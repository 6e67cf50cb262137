import { createHash, randomBytes } from "node:crypto";

// Keys look like `lp_live_<43 base64url chars>`: a recognisable prefix (secret scanners can match it) and 32 random
// bytes. Only the SHA-256 hash is stored, plus a short display fragment so users can tell keys apart.
export const API_KEY_PREFIX = "lp_live_";
const RANDOM_BYTES = 32;
const KEY_PATTERN = /^lp_live_[A-Za-z0-9_-]{43}$/;

export type GeneratedKey = { key: string; hash: string; prefix: string; displayFragment: string };

export function generateApiKey(): GeneratedKey {
  const key = API_KEY_PREFIX + randomBytes(RANDOM_BYTES).toString("base64url");
  return { key, hash: hashApiKey(key), prefix: API_KEY_PREFIX, displayFragment: displayFragment(key) };
}

export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

export function isWellFormedApiKey(value: string): boolean {
  return KEY_PATTERN.test(value);
}

export function displayFragment(key: string): string {
  return `${API_KEY_PREFIX}…${key.slice(-4)}`;
}
