import "server-only";
import { getDb } from "@/lib/db/client";

export type SendingDomain = {
  id: string;
  domain: string;
  verified: boolean;
  default_sender: string | null;
  created_at: Date;
  verified_at: Date | null;
};

const DOMAIN_PATTERN = /^(?=.{1,253}$)(?!-)[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63})+$/;

export class DomainError extends Error {}

/** Adds (or updates) a sending domain. `verified` stands in for DNS verification in the embedded default. */
export async function addSendingDomain(
  accountId: string,
  input: { domain: string; verified: boolean; defaultSender?: string; providerDomainId?: string | null },
): Promise<SendingDomain> {
  const domain = input.domain.trim().toLowerCase();
  if (!DOMAIN_PATTERN.test(domain)) throw new DomainError(`"${input.domain}" is not a domain name (e.g. mail.example.com)`);
  const defaultSender = input.defaultSender?.trim() || `hello@${domain}`;
  if (!defaultSender.toLowerCase().endsWith(`@${domain}`)) throw new DomainError(`The default sender must be an address @${domain}`);
  const [row] = await getDb()<SendingDomain[]>`
    insert into sending_domains (account_id, domain, verified, default_sender, provider_domain_id, verified_at)
    values (${accountId}, ${domain}, ${input.verified}, ${defaultSender}, ${input.providerDomainId ?? null},
            ${input.verified ? new Date() : null})
    on conflict (account_id, lower(domain)) do update set
      verified = sending_domains.verified or excluded.verified,
      default_sender = excluded.default_sender,
      provider_domain_id = coalesce(excluded.provider_domain_id, sending_domains.provider_domain_id),
      verified_at = coalesce(sending_domains.verified_at, excluded.verified_at)
    returning id, domain, verified, default_sender, created_at, verified_at`;
  return row;
}

export async function listSendingDomains(accountId: string): Promise<SendingDomain[]> {
  return getDb()<SendingDomain[]>`
    select id, domain, verified, default_sender, created_at, verified_at
    from sending_domains where account_id = ${accountId} order by created_at`;
}
