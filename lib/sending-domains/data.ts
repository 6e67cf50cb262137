import "server-only";
import type postgres from "postgres";
import { getConfig } from "@/lib/core/config";
import { insertAuditEntry } from "@/lib/audit/service";
import { getDb, type Db, type Tx } from "@/lib/db/client";
import { errors } from "@/lib/core/errors";
import { MAX_SENDING_DOMAINS } from "@/lib/core/limits";
import { holdsNul, isUuid } from "@/lib/core/schemas";
import { parseFromAddress } from "@/lib/mail-transport/mailbox";

export type SendingDomain = {
  id: string;
  domain: string;
  verified: boolean;
  default_sender: string | null;
  created_at: Date;
  verified_at: Date | null;
  /** Resend's status for the domain; null when it was never registered with Resend. */
  provider_status: string | null;
  /** Whether opens and clicks of its emails are tracked (Resend's switches for the domain when Resend sends). */
  open_tracking: boolean;
  click_tracking: boolean;
};

/** A DNS record Resend asks the domain's owner to publish (SPF, DKIM, ...), as Resend returned it. */
export type DnsRecord = {
  record: string;
  name: string;
  type: string;
  value: string;
  ttl?: string;
  priority?: number;
  status?: string;
  [key: string]: unknown;
};

export type SendingDomainDetails = SendingDomain & {
  provider_domain_id: string | null;
  /** Resend's status for the domain (not_started, pending, verified, failed, ...); null in the embedded default. */
  provider_status: string | null;
  /** The records to publish; null in the embedded default. */
  dns_records: DnsRecord[] | null;
};

const DOMAIN_PATTERN = /^(?=.{1,253}$)(?!-)[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63})+$/;

/**
 * Refuses the operator's domains to every account: the shared sending domain (everyone sends from it, so no account
 * may own it) and the domain the service sends its own email from, with their parent and sub-domains.
 * `domain` is lower-case.
 */
export function refuseReservedDomain(domain: string): void {
  const { sharedSendingDomain, systemEmailFrom } = getConfig();
  if (sharedSendingDomain && related(domain, sharedSendingDomain)) {
    throw errors.invalidDomain(
      `${domain} is reserved: ${sharedSendingDomain} is this service's shared sending domain, and neither it nor its parent and sub-domains can be added. Every account may send from an address @${sharedSendingDomain} without adding it.`,
    );
  }
  const systemAddress = systemEmailFrom === null ? null : parseFromAddress(systemEmailFrom)!.address;
  const systemDomain = systemAddress?.slice(systemAddress.lastIndexOf("@") + 1).toLowerCase();
  if (systemDomain && related(domain, systemDomain)) {
    throw errors.invalidDomain(
      `${domain} is reserved: this service sends its own email from ${systemDomain}, and neither it nor its parent and sub-domains can be added.`,
    );
  }
}

/** The same domain, or one a parent of the other (lower-case names). */
function related(a: string, b: string): boolean {
  return a === b || a.endsWith(`.${b}`) || b.endsWith(`.${a}`);
}

/**
 * Runs an insert into sending_domains, answering PostgreSQL's refusal of another account's parent or sub-domain
 * (the trigger of 20261124013000_sending_domain_overlap.sql) as DOMAIN_TAKEN.
 */
async function refusingRelatedDomains<T>(domain: string, insert: Promise<T>): Promise<T> {
  try {
    return await insert;
  } catch (error) {
    if ((error as { constraint_name?: unknown }).constraint_name === "sending_domains_overlap") {
      throw errors.domainTaken(domain, true);
    }
    throw error;
  }
}

/**
 * Whether sends from the domain are accepted. With Resend configured only Resend's verification counts: a domain
 * marked verified while DNS was simulated (no RESEND_API_KEY) must be verified through Resend again.
 */
export function isVerifiedForSending(
  domain: { verified: boolean; provider_status?: string | null },
  resendConfigured = getConfig().resend !== null,
): boolean {
  return resendConfigured ? domain.verified && domain.provider_status === "verified" : domain.verified;
}

/** Adds (or updates) a sending domain. `verified` stands in for DNS verification in the embedded default. */
export async function addSendingDomain(
  accountId: string,
  input: {
    domain: string;
    verified: boolean;
    defaultSender?: string;
    providerDomainId?: string | null;
    /** Refuse (409 DOMAIN_EXISTS) rather than update when the account has it, or gets it meanwhile. */
    onlyNew?: boolean;
  },
): Promise<SendingDomain> {
  const domain = input.domain.trim().toLowerCase();
  if (!DOMAIN_PATTERN.test(domain))
    throw errors.invalidDomain(`"${input.domain}" is not a domain name (e.g. mail.example.com)`);
  refuseReservedDomain(domain);
  const defaultSender = input.defaultSender?.trim() || `hello@${domain}`;
  if (!defaultSender.toLowerCase().endsWith(`@${domain}`))
    throw errors.invalidDomain(`The default sender must be an address @${domain}`);
  const row = await refusingRelatedDomains(
    domain,
    upsertOnce<SendingDomain>(accountId, domain, input.onlyNew, async (tx) => {
      const [upserted] = await tx<(SendingDomain & { inserted: boolean })[]>`
        insert into sending_domains (account_id, domain, verified, default_sender, provider_domain_id, verified_at)
        values (${accountId}, ${domain}, ${input.verified}, ${defaultSender}, ${input.providerDomainId ?? null},
                ${input.verified ? new Date() : null})
        on conflict (lower(domain)) do update set
          verified = sending_domains.verified or excluded.verified,
          default_sender = excluded.default_sender,
          provider_domain_id = coalesce(excluded.provider_domain_id, sending_domains.provider_domain_id),
          verified_at = coalesce(sending_domains.verified_at, excluded.verified_at)
          where sending_domains.account_id = excluded.account_id
        returning id, domain, verified, default_sender, created_at, verified_at, provider_status, open_tracking,
                  click_tracking, xmax = 0 as inserted`;
      return upserted;
    }),
  );
  if (!row) throw errors.domainTaken(domain);
  return row;
}

/**
 * Refuses an account's domain past MAX_SENDING_DOMAINS. The account's row is locked first, so concurrent adds are
 * counted one after another (the count is a statement of its own, which sees the domains an add before it committed).
 */
async function holdRoomForDomain(tx: Tx, accountId: string): Promise<void> {
  await tx`select 1 from accounts where id = ${accountId} for update`;
  await refuseDomainPastLimit(accountId, tx);
}

/** Throws DOMAIN_LIMIT_REACHED when the account has MAX_SENDING_DOMAINS domains. */
export async function refuseDomainPastLimit(accountId: string, tx: Db | Tx = getDb()): Promise<void> {
  const [{ full }] = await tx<{ full: boolean }[]>`
    select count(*) >= ${MAX_SENDING_DOMAINS} as full from sending_domains where account_id = ${accountId}`;
  if (full) throw errors.domainLimitReached(MAX_SENDING_DOMAINS);
}

/** Whether the account already had the domain, and whether it was verified: locked until the change commits. */
async function domainBefore(tx: Tx, accountId: string, domain: string): Promise<{ verified: boolean } | undefined> {
  const [row] = await tx<{ verified: boolean }[]>`
    select verified from sending_domains where account_id = ${accountId} and lower(domain) = ${domain} for update`;
  return row;
}

/**
 * Runs an add's upsert and audits it once. `before` is read under lock, but a row another add inserts after that read
 * is not locked by it: the upsert then updates that row (`inserted` false), which this add did not create. An add of
 * a new domain (`onlyNew`) is refused then (and when `before` exists), so two concurrent adds give one 201 and one
 * 409, and one domain.added. A domain the account does not have yet must find room under MAX_SENDING_DOMAINS.
 */
async function upsertOnce<T extends { id: string; domain: string; verified: boolean }>(
  accountId: string,
  domain: string,
  onlyNew: boolean | undefined,
  upsert: (tx: Tx) => Promise<(T & { inserted: boolean }) | undefined>,
): Promise<T | undefined> {
  const row = await getDb().begin(async (tx) => {
    const before = await domainBefore(tx, accountId, domain);
    if (!before) await holdRoomForDomain(tx, accountId);
    const upserted = await upsert(tx);
    if (!upserted) return undefined;
    const { inserted, ...stored } = upserted;
    if (onlyNew && !inserted) throw errors.domainExists(stored.domain);
    await auditDomainChange(tx, accountId, inserted ? undefined : (before ?? { verified: stored.verified }), stored);
    return stored;
  });
  return row as T | undefined;
}

/** domain.added for a new domain, domain.verified when it became verified (both for one added verified). */
async function auditDomainChange(
  tx: Tx,
  accountId: string,
  before: { verified: boolean } | undefined,
  after: { id: string; domain: string; verified: boolean },
): Promise<void> {
  const target = { type: "domain", id: after.id, label: after.domain };
  if (!before) await insertAuditEntry(tx, { accountId, action: "domain.added", target });
  if (after.verified && !before?.verified) await insertAuditEntry(tx, { accountId, action: "domain.verified", target });
}

export async function listSendingDomains(accountId: string): Promise<SendingDomain[]> {
  return getDb()<SendingDomain[]>`
    select id, domain, verified, default_sender, created_at, verified_at, provider_status, open_tracking, click_tracking
    from sending_domains where account_id = ${accountId} order by created_at`;
}

const COLUMNS = [
  "id",
  "domain",
  "verified",
  "default_sender",
  "created_at",
  "verified_at",
  "provider_domain_id",
  "provider_status",
  "dns_records",
  "open_tracking",
  "click_tracking",
];

/** The account's sending domains with Resend's status and DNS records (for showing what to publish). */
export async function listSendingDomainDetails(accountId: string): Promise<SendingDomainDetails[]> {
  const db = getDb();
  return db<SendingDomainDetails[]>`
    select ${db(COLUMNS)} from sending_domains where account_id = ${accountId} order by created_at`;
}

/** One of the account's domains by id; null when it is not the account's (or not an id). */
export async function getSendingDomain(accountId: string, domainId: string): Promise<SendingDomainDetails | null> {
  if (!isUuid(domainId)) return null;
  const db = getDb();
  const [row] = await db<SendingDomainDetails[]>`
    select ${db(COLUMNS)} from sending_domains where account_id = ${accountId} and id = ${domainId}`;
  return row ?? null;
}

/**
 * Sets the tracking switches and the default sender of one of the account's domains (each left as it is when
 * undefined); the domain as changed, or null when the account has no such domain.
 */
export async function updateSendingDomain(
  accountId: string,
  domainId: string,
  change: { openTracking?: boolean; clickTracking?: boolean; defaultSender?: string },
): Promise<SendingDomainDetails | null> {
  if (!isUuid(domainId)) return null;
  const db = getDb();
  const [row] = await db<SendingDomainDetails[]>`
    update sending_domains set
      open_tracking = coalesce(${change.openTracking ?? null}::boolean, open_tracking),
      click_tracking = coalesce(${change.clickTracking ?? null}::boolean, click_tracking),
      default_sender = coalesce(${change.defaultSender ?? null}::text, default_sender)
    where account_id = ${accountId} and id = ${domainId}
    returning ${db(COLUMNS)}`;
  return row ?? null;
}

/** Removes one of the account's domains; what it was, or null when the account has no such domain (any longer). */
export async function deleteSendingDomain(
  accountId: string,
  domainId: string,
): Promise<{ domain: string; provider_domain_id: string | null } | null> {
  if (!isUuid(domainId)) return null;
  return getDb().begin(async (tx) => {
    const [row] = await tx<{ domain: string; provider_domain_id: string | null }[]>`
      delete from sending_domains where account_id = ${accountId} and id = ${domainId}
      returning domain, provider_domain_id`;
    if (!row) return null;
    await insertAuditEntry(tx, {
      accountId,
      action: "domain.removed",
      target: { type: "domain", id: domainId, label: row.domain },
    });
    return row;
  });
}

/** One of the account's domains by name (any case); null when the account has not added it. */
export async function findSendingDomain(accountId: string, domain: string): Promise<SendingDomainDetails | null> {
  if (holdsNul(domain)) return null;
  const db = getDb();
  const [row] = await db<SendingDomainDetails[]>`
    select ${db(COLUMNS)} from sending_domains
    where account_id = ${accountId} and lower(domain) = ${domain.trim().toLowerCase()}`;
  return row ?? null;
}

/** Throws DOMAIN_TAKEN when another account holds the domain (any case), or a parent or sub-domain of it. */
export async function refuseTakenDomain(accountId: string, domain: string): Promise<void> {
  const [row] = await getDb()<{ taken: boolean; related: boolean }[]>`
    select exists (select 1 from sending_domains where lower(domain) = ${domain} and account_id <> ${accountId}) as taken,
           sending_domain_overlaps(${accountId}, ${domain}) as related`;
  if (row.taken) throw errors.domainTaken(domain);
  if (row.related) throw errors.domainTaken(domain, true);
}

/**
 * Stores Resend's view of the account's domain (its id, status and DNS records); `verified` follows Resend's status,
 * keeping the first verified_at. Throws DOMAIN_TAKEN when another account holds the domain or a related one.
 */
export async function storeProviderDomain(
  accountId: string,
  domain: string,
  defaultSender: string | null,
  remote: { id: string; status: string; records: DnsRecord[] },
  options: { onlyNew?: boolean } = {},
): Promise<SendingDomainDetails> {
  const verified = remote.status === "verified";
  const row = await refusingRelatedDomains(
    domain,
    upsertOnce<SendingDomainDetails>(accountId, domain, options.onlyNew, async (tx) => {
      const [upserted] = await tx<(SendingDomainDetails & { inserted: boolean })[]>`
        insert into sending_domains as d (account_id, domain, verified, default_sender, provider_domain_id,
                                          provider_status, dns_records, verified_at)
        values (${accountId}, ${domain}, ${verified}, ${defaultSender ?? `hello@${domain}`}, ${remote.id},
                ${remote.status}, ${tx.json(remote.records as postgres.JSONValue)}::jsonb,
                ${verified ? new Date() : null})
        on conflict (lower(domain)) do update set
          verified = excluded.verified,
          default_sender = coalesce(excluded.default_sender, d.default_sender),
          provider_domain_id = excluded.provider_domain_id,
          provider_status = excluded.provider_status,
          dns_records = excluded.dns_records,
          verified_at = case when excluded.verified then coalesce(case when d.provider_status = 'verified' then d.verified_at end, excluded.verified_at) end
          where d.account_id = excluded.account_id
        returning ${tx(COLUMNS)}, xmax = 0 as inserted`;
      return upserted;
    }),
  );
  // Taken by another account since registerSendingDomain checked.
  if (!row) throw errors.domainTaken(domain);
  return row;
}
