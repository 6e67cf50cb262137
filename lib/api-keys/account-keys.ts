import "server-only";
import { createApiKey, listApiKeys, listApiKeysWithCreator, revokeApiKey, type NewApiKey } from "@/lib/api-keys/data";

// An account's API keys as a service: what the dashboard's API keys page lists, makes and revokes them with. (Not
// service.ts: data.ts imports that one for the key's format.)
export { listApiKeys, listApiKeysWithCreator };
export type { ApiKeyRecord } from "@/lib/api-keys/data";

/**
 * A new key for the account, with its plaintext key (the only time it exists outside the caller's hands).
 * DOMAIN_NOT_FOUND when `key.domain` is not one of the account's sending domains.
 */
export function issueApiKey(accountId: string, key: NewApiKey) {
  return createApiKey(accountId, key);
}

/** Revokes the account's key `id` (never another account's): the key, or null when the account has no such key. */
export function revokeAccountApiKey(accountId: string, id: string) {
  return revokeApiKey(id, accountId);
}
