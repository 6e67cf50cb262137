import "server-only";
import { getConfig } from "@/lib/config";
import { getDb } from "@/lib/db/client";

export type SendingDomain = {
  id: string;
  domain: string;
  verified: boolean;
  default_sender: string | null;
  created_at: Date;
  verified_at: Date | null;
  /** Resend's status for the domain; null when it was never registered with Resend. */
  provider_status: string | null;
};

const DOMAIN_PATTERN = /^(?=.{1,253}$)(?!-)[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63})+$/;

export class DomainError extends Error {}

/** Another account holds the domain: a sending domain belongs to one account (409 where an API answers it). */
export class DomainTakenError extends DomainError {
  readonly status = 409;
  readonly code = "DOMAIN_TAKEN";
  constructor(domain: string) {
    super(`${domain} is already registered by another account. A sending domain belongs to one account only.`);
    this.name = "DomainTakenError";
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
  input: { domain: string; verified: boolean; defaultSender?: string; providerDomainId?: string | null },
): Promise<SendingDomain> {
  const domain = input.domain.trim().toLowerCase();
  if (!DOMAIN_PATTERN.test(domain))
    throw new DomainError(`"${input.domain}" is not a domain name (e.g. mail.example.com)`);
  const defaultSender = input.defaultSender?.trim() || `hello@${domain}`;
  if (!defaultSender.toLowerCase().endsWith(`@${domain}`))
    throw new DomainError(`The default sender must be an address @${domain}`);
  const [row] = await getDb()<SendingDomain[]>`
    insert into sending_domains (account_id, domain, verified, default_sender, provider_domain_id, verified_at)
    values (${accountId}, ${domain}, ${input.verified}, ${defaultSender}, ${input.providerDomainId ?? null},
            ${input.verified ? new Date() : null})
    on conflict (lower(domain)) do update set
      verified = sending_domains.verified or excluded.verified,
      default_sender = excluded.default_sender,
      provider_domain_id = coalesce(excluded.provider_domain_id, sending_domains.provider_domain_id),
      verified_at = coalesce(sending_domains.verified_at, excluded.verified_at)
      where sending_domains.account_id = excluded.account_id
    returning id, domain, verified, default_sender, created_at, verified_at, provider_status`;
  if (!row) throw new DomainTakenError(domain);
  return row;
}

export async function listSendingDomains(accountId: string): Promise<SendingDomain[]> {
  return getDb()<SendingDomain[]>`
    select id, domain, verified, default_sender, created_at, verified_at, provider_status
    from sending_domains where account_id = ${accountId} order by created_at`;
}
