import "server-only";
import { generateApiKey, type ApiKeyKind, type ApiKeyScope } from "@/lib/api-keys/service";
import { insertAuditEntry } from "@/lib/audit/service";
import { getDb } from "@/lib/db/client";
import { AppError } from "@/lib/core/errors";

export type ApiKeyRecord = {
  id: string;
  name: string;
  kind: ApiKeyKind;
  scope: ApiKeyScope;
  /** The sending domain the key is bound to; null: any of the account's. */
  domain: string | null;
  display_fragment: string;
  created_at: Date;
  last_used_at: Date | null;
  expires_at: Date | null;
  revoked_at: Date | null;
};

export type NewApiKey = {
  name: string;
  kind?: ApiKeyKind;
  scope?: ApiKeyScope;
  /** One of the account's sending domains. */
  domain?: string | null;
  expiresAt?: Date | null;
  /** The person who created it in the dashboard; null for the CLI's. */
  createdBy?: string | null;
};

const RECORD_COLUMNS = (db: ReturnType<typeof getDb>) =>
  db`id, name, kind, scope, domain, display_fragment, created_at, last_used_at, expires_at, revoked_at`;

/** Returns the plaintext key: the only time it exists outside the caller's hands. */
export async function createApiKey(accountId: string, options: NewApiKey): Promise<ApiKeyRecord & { key: string }> {
  const db = getDb();
  const kind = options.kind ?? "live";
  const generated = generateApiKey(kind);
  const domain = options.domain ? options.domain.trim().toLowerCase() : null;
  const record = await db.begin(async (tx) => {
    // The domain is the account's, checked in the statement that stores the key.
    const [created] = await tx<ApiKeyRecord[]>`
      insert into api_keys (account_id, name, key_hash, prefix, display_fragment, kind, scope, domain, expires_at,
                            created_by)
      select ${accountId}, ${options.name}, ${generated.hash}, ${generated.prefix}, ${generated.displayFragment},
             ${kind}, ${options.scope ?? "full_access"}, ${domain}, ${options.expiresAt ?? null},
             ${options.createdBy ?? null}
      where ${domain}::text is null
         or exists (select 1 from sending_domains where account_id = ${accountId} and lower(domain) = ${domain})
      returning ${RECORD_COLUMNS(db)}`;
    if (created) await insertAuditEntry(tx, keyEntry(accountId, "api_key.created", created));
    return created;
  });
  if (!record) {
    throw new AppError("DOMAIN_NOT_FOUND", { message: `${domain} is not one of this account's sending domains` });
  }
  return { ...record, key: generated.key };
}

export async function listApiKeys(accountId: string): Promise<ApiKeyRecord[]> {
  const db = getDb();
  return db<ApiKeyRecord[]>`
    select ${RECORD_COLUMNS(db)} from api_keys where account_id = ${accountId} order by created_at desc, id`;
}

/** The dashboard's list: each key with its creator's email (null for the CLI's, or once that person is gone). */
export async function listApiKeysWithCreator(
  accountId: string,
): Promise<(ApiKeyRecord & { created_by_email: string | null })[]> {
  const db = getDb();
  return db<(ApiKeyRecord & { created_by_email: string | null })[]>`
    select k.id, k.name, k.kind, k.scope, k.domain, k.display_fragment, k.created_at, k.last_used_at, k.expires_at,
           k.revoked_at, p.email as created_by_email
    from api_keys k left join people p on p.id = k.created_by
    where k.account_id = ${accountId} order by k.created_at desc, k.id`;
}

/** Revokes a key; `accountId` restricts it to that account's keys (the CLI, an operator tool, omits it). */
export async function revokeApiKey(id: string, accountId?: string): Promise<ApiKeyRecord | null> {
  const db = getDb();
  return db.begin(async (tx) => {
    // The old revoked_at tells a first revocation, the one logged, from a repeated one.
    const [record] = await tx<(ApiKeyRecord & { account_id: string; was_revoked: boolean })[]>`
      update api_keys k set revoked_at = coalesce(k.revoked_at, now())
      from api_keys prior
      where prior.id = k.id and k.id = ${id} ${accountId ? tx`and k.account_id = ${accountId}` : tx``}
      returning k.id, k.name, k.kind, k.scope, k.domain, k.display_fragment, k.created_at, k.last_used_at,
                k.expires_at, k.revoked_at, k.account_id, prior.revoked_at is not null as was_revoked`;
    if (!record) return null;
    const { account_id: owner, was_revoked: wasRevoked, ...key } = record;
    if (!wasRevoked) await insertAuditEntry(tx, keyEntry(owner, "api_key.revoked", key));
    return key;
  });
}

/** A key's entry: its name and display fragment, never its hash. */
function keyEntry(accountId: string, action: "api_key.created" | "api_key.revoked", key: ApiKeyRecord) {
  return {
    accountId,
    action,
    target: { type: "api_key", id: key.id, label: key.name },
    details: { display_fragment: key.display_fragment, kind: key.kind, scope: key.scope },
  };
}

/**
 * Whether the key of this hash is one of ours that is past its expiry and not revoked: asked only of a key the
 * credential check refused, to tell its caller it expired (a revoked key is not told apart from an unknown one).
 */
export async function isExpiredApiKey(keyHash: string): Promise<boolean> {
  const [row] = await getDb()<{ id: string }[]>`
    select id from api_keys where key_hash = ${keyHash} and revoked_at is null and expires_at <= now()`;
  return row !== undefined;
}
