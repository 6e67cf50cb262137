import "server-only";
import { generateApiKey } from "@/lib/api-keys";
import { getDb } from "@/lib/db/client";

export type ApiKeyRecord = {
  id: string;
  name: string;
  display_fragment: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
};

/** Returns the plaintext key: the only time it exists outside the caller's hands. */
export async function createApiKey(accountId: string, name: string): Promise<ApiKeyRecord & { key: string }> {
  const generated = generateApiKey();
  const [record] = await getDb()<ApiKeyRecord[]>`
    insert into api_keys (account_id, name, key_hash, prefix, display_fragment)
    values (${accountId}, ${name}, ${generated.hash}, ${generated.prefix}, ${generated.displayFragment})
    returning id, name, display_fragment, created_at, last_used_at, revoked_at`;
  return { ...record, key: generated.key };
}

export async function listApiKeys(accountId: string): Promise<ApiKeyRecord[]> {
  return getDb()<ApiKeyRecord[]>`
    select id, name, display_fragment, created_at, last_used_at, revoked_at
    from api_keys where account_id = ${accountId} order by created_at desc`;
}

/** Revokes a key; `accountId` restricts it to that account's keys (the CLI, an operator tool, omits it). */
export async function revokeApiKey(id: string, accountId?: string): Promise<ApiKeyRecord | null> {
  const db = getDb();
  const [record] = await db<ApiKeyRecord[]>`
    update api_keys set revoked_at = coalesce(revoked_at, now())
    where id = ${id} ${accountId ? db`and account_id = ${accountId}` : db``}
    returning id, name, display_fragment, created_at, last_used_at, revoked_at`;
  return record ?? null;
}
