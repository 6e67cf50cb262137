import "server-only";
import { Resend } from "resend";
import { getConfig } from "@/lib/core/config";
import { AppError, errors } from "@/lib/core/errors";
import {
  addSendingDomain,
  deleteSendingDomain,
  findSendingDomain,
  getSendingDomain,
  isVerifiedForSending,
  listSendingDomainDetails,
  listSendingDomains,
  refuseReservedDomain,
  refuseDomainPastLimit,
  refuseTakenDomain,
  storeProviderDomain,
  updateSendingDomain,
  type DnsRecord,
  type SendingDomainDetails,
} from "@/lib/sending-domains/data";
import type { DomainBody, UpdateDomainBody } from "@/lib/sending-domains/schemas";
import { RESEND_TIMEOUT_MS } from "@/lib/mail-transport/resend";

// Sending domains as a service: what the CLI and the dashboard call to add, verify and remove a domain.
//
// With Resend configured (RESEND_API_KEY), Resend decides: a domain is created through its domains API, the DNS
// records it asks for are kept with the domain, and `verified` is true exactly when Resend reports the domain as
// "verified". Nothing the caller says (markVerified) overrides that, nor does a verification made before Resend was
// configured (isVerifiedForSending). Without Resend (the embedded default) there is no DNS to check: `markVerified`
// (the CLI's `domain:add --verified`) stands in for it. A domain and its parent and sub-domains belong to one account:
// adding one of those another account holds throws DOMAIN_TAKEN (409), and the operator's shared sending domain
// and system sender's domain (with their parent and sub-domains) are refused to all (INVALID_DOMAIN), before anything is
// asked of Resend. An account may add the parent and sub-domains of its own domains.

export { findSendingDomain, isVerifiedForSending, listSendingDomainDetails, listSendingDomains };
export type { SendingDomain } from "@/lib/sending-domains/data";

export type DomainOutcome = {
  domain: SendingDomainDetails;
  /** Who decides `verified`: Resend's domains API, or the embedded default where DNS is simulated. */
  mode: "resend" | "embedded";
  /** What happened and what to do next, for a person. */
  message: string;
};

const DOMAIN_PATTERN = /^(?=.{1,253}$)(?!-)[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63})+$/;

/**
 * Adds a sending domain to the account (or refreshes it: calling it again is safe).
 * With Resend: creates the domain at Resend (`POST /domains`), or re-reads it (`GET /domains/:id`) when the account
 * already registered it, and stores Resend's id, status and DNS records; `markVerified` is ignored.
 * Without Resend: `markVerified` marks the domain verified (DNS is simulated).
 * `defaultSender` (an address @domain) is kept when omitted; a new domain gets hello@domain.
 * Throws INVALID_DOMAIN for a bad domain or sender, EMAIL_PROVIDER_ERROR when Resend fails (nothing is stored then).
 */
export async function registerSendingDomain(
  accountId: string,
  input: { domain: string; defaultSender?: string; markVerified?: boolean; onlyNew?: boolean },
): Promise<DomainOutcome> {
  const domain = normalizeDomain(input.domain);
  refuseReservedDomain(domain);
  const requestedSender = normalizeSender(input.defaultSender, domain);
  const existing = await findSendingDomain(accountId, domain);
  if (!existing) await refuseTakenDomain(accountId, domain);
  const defaultSender = requestedSender ?? existing?.default_sender ?? `hello@${domain}`;
  const resend = resendClient();

  if (!resend) {
    const row = await addSendingDomain(accountId, {
      domain,
      verified: input.markVerified === true,
      defaultSender,
      onlyNew: input.onlyNew,
    });
    const stored = (await getSendingDomain(accountId, row.id))!;
    return {
      domain: stored,
      mode: "embedded",
      message: stored.verified
        ? `${domain} is verified. No email provider is configured (RESEND_API_KEY is not set): DNS is simulated and messages go to the embedded outbox.`
        : `${domain} was added, not verified. No email provider is configured (RESEND_API_KEY is not set), so DNS is simulated: mark it verified (CLI: domain:add --verified) to send from it.`,
    };
  }

  let remote: RemoteDomain | null = null;
  if (existing?.provider_domain_id) {
    // Already registered by this account: re-read it rather than creating it twice. Gone at Resend: create it again.
    remote = await fetchRemote(resend, existing.provider_domain_id, domain, { missingIsNull: true });
  }
  // The add's transaction counts the domains too; this first count keeps a refused add from creating it at Resend.
  if (!existing) await refuseDomainPastLimit(accountId);
  remote ??= await createRemote(resend, domain);
  const stored = await storeProviderDomain(accountId, domain, defaultSender, remote, { onlyNew: input.onlyNew });
  const ignored = input.markVerified
    ? " (markVerified was ignored: with Resend configured, Resend checks the DNS records)"
    : "";
  return { domain: stored, mode: "resend", message: describeRemote(stored) + ignored };
}

/**
 * Checks the domain's DNS again. With Resend: asks Resend to verify it (`POST /domains/:id/verify`), then reads its
 * status and records (`GET /domains/:id`) and stores them; the domain is verified when Resend says "verified".
 * Resend checks asynchronously, so a domain just set up usually reads "pending" first: verify again a little later.
 * A domain added before Resend was configured is created at Resend first.
 * Without Resend: nothing to check (DNS is simulated); the domain is returned unchanged.
 * Throws DOMAIN_NOT_FOUND when the account has no such domain, EMAIL_PROVIDER_ERROR when Resend fails.
 */
export async function verifySendingDomain(accountId: string, domainId: string): Promise<DomainOutcome> {
  const current = await getSendingDomain(accountId, domainId);
  if (!current) throw errors.domainNotFound();
  const resend = resendClient();

  if (!resend) {
    return {
      domain: current,
      mode: "embedded",
      message:
        `Nothing to check: no email provider is configured (RESEND_API_KEY is not set), so DNS is simulated. ` +
        (current.verified
          ? `${current.domain} is already marked verified.`
          : `Mark ${current.domain} verified instead (CLI: domain:add --verified).`),
    };
  }

  let providerId = current.provider_domain_id;
  if (!providerId) {
    const created = await createRemote(resend, current.domain);
    await storeProviderDomain(accountId, current.domain, current.default_sender, created);
    providerId = created.id;
  }
  await callResend(`ask Resend to verify ${current.domain}`, (signal) => resend.domains.verify(providerId, { signal }));
  const remote = (await fetchRemote(resend, providerId, current.domain, { missingIsNull: false }))!;
  const stored = await storeProviderDomain(accountId, current.domain, current.default_sender, remote);
  return { domain: stored, mode: "resend", message: describeRemote(stored) };
}

/**
 * Removes a domain from the account, verified or not: nothing is sent from it afterwards (a key bound to it sends
 * nothing until it is added again), and another account may add it. With Resend, the domain is removed there first
 * (one Resend no longer has is fine), so a failure there leaves it on the account.
 * Throws DOMAIN_NOT_FOUND when the account has no such domain, EMAIL_PROVIDER_ERROR when Resend fails.
 */
export async function removeSendingDomain(accountId: string, domainId: string): Promise<{ domain: string }> {
  const current = await getSendingDomain(accountId, domainId);
  if (!current) throw errors.domainNotFound();
  const resend = resendClient();
  const providerId = current.provider_domain_id;
  if (resend && providerId) {
    try {
      await callResend(`remove ${current.domain} from Resend`, (signal) =>
        resend.domains.remove(providerId, { signal }),
      );
    } catch (error) {
      if (!(error instanceof AppError && error.options.provider?.status === 404)) throw error;
    }
  }
  const removed = await deleteSendingDomain(accountId, domainId);
  if (!removed) throw errors.domainNotFound();
  return { domain: removed.domain };
}

/**
 * The API's form of a refused name or sender: a 400 naming the body's field, as every other refused field is (the
 * dashboard's forms show INVALID_DOMAIN's message beside theirs).
 */
export async function refusedAsField<T>(field: string, change: Promise<T>): Promise<T> {
  try {
    return await change;
  } catch (error) {
    if (error instanceof AppError && error.code === "INVALID_DOMAIN")
      throw errors.validation([{ field, message: error.message }]);
    throw error;
  }
}

/** A domain as the API answers it. */
export function domainBody(domain: SendingDomainDetails): DomainBody {
  return {
    id: domain.id,
    name: domain.domain,
    status: isVerifiedForSending(domain) ? "verified" : "pending",
    records: domain.dns_records ?? [],
    open_tracking: domain.open_tracking,
    click_tracking: domain.click_tracking,
    default_sender: domain.default_sender,
    created_at: domain.created_at.toISOString(),
  };
}

/** One of the account's domains; DOMAIN_NOT_FOUND when it has no such domain. */
export async function getDomain(accountId: string, domainId: string): Promise<SendingDomainDetails> {
  const domain = await getSendingDomain(accountId, domainId);
  if (!domain) throw errors.domainNotFound();
  return domain;
}

/** POST /domains and the dashboard's add form: a domain the account does not have yet (else 409 DOMAIN_EXISTS). */
export async function addDomain(
  accountId: string,
  input: { domain: string; defaultSender?: string },
): Promise<DomainOutcome> {
  const existing = await findSendingDomain(accountId, input.domain);
  if (existing) throw errors.domainExists(existing.domain);
  return registerSendingDomain(accountId, { ...input, onlyNew: true });
}

/**
 * POST /domains/{id}/verify and the dashboard's Verify: with Resend, Resend checks the DNS records again; without it
 * DNS is simulated and the domain is marked verified (as the CLI's `domain:add --verified`).
 */
export async function verifyDomain(accountId: string, domainId: string): Promise<DomainOutcome> {
  if (resendClient()) return verifySendingDomain(accountId, domainId);
  const current = await getDomain(accountId, domainId);
  const outcome = await registerSendingDomain(accountId, { domain: current.domain, markVerified: true });
  return { ...outcome, message: `${outcome.domain.domain} is verified. You can send from it now.` };
}

/**
 * PATCH /domains/{id} and the dashboard's switches: open and click tracking and the default sender, each left as it is
 * when not given. With Resend the switches are Resend's for the domain, changed there first (a domain added before
 * Resend was configured is created there first), so a failure there changes nothing here.
 */
export async function updateDomain(
  accountId: string,
  domainId: string,
  change: UpdateDomainBody,
): Promise<SendingDomainDetails> {
  const current = await getDomain(accountId, domainId);
  const defaultSender =
    change.default_sender === undefined ? undefined : normalizeSender(change.default_sender, current.domain);
  if (change.default_sender !== undefined && defaultSender === undefined)
    throw errors.invalidDomain(`The default sender must be an address @${current.domain}`);
  const resend = resendClient();
  if (resend && (change.open_tracking !== undefined || change.click_tracking !== undefined)) {
    let providerId = current.provider_domain_id;
    if (!providerId) {
      const created = await createRemote(resend, current.domain);
      await storeProviderDomain(accountId, current.domain, current.default_sender, created);
      providerId = created.id;
    }
    const remoteId = providerId;
    await callResend(`change the tracking of ${current.domain} at Resend`, (signal) =>
      resend.domains.update(
        { id: remoteId, openTracking: change.open_tracking, clickTracking: change.click_tracking },
        { signal },
      ),
    );
  }
  const updated = await updateSendingDomain(accountId, domainId, {
    openTracking: change.open_tracking,
    clickTracking: change.click_tracking,
    defaultSender,
  });
  if (!updated) throw errors.domainNotFound();
  return updated;
}

/** A domain as Resend knows it: what removing it there after its team has gone needs. */
export type ProviderDomain = { domain: string; providerId: string };

/**
 * The team's domains registered at Resend, read before the team is deleted (its rows go with it); none without Resend
 * configured.
 */
export async function providerDomainsOf(accountId: string): Promise<ProviderDomain[]> {
  if (!getConfig().resend) return [];
  return (await listSendingDomainDetails(accountId)).flatMap(({ domain, provider_domain_id }) =>
    provider_domain_id ? [{ domain, providerId: provider_domain_id }] : [],
  );
}

/**
 * After their team's deletion: removes the domains at Resend, each on its own (one Resend no longer has is fine).
 * Answers the ones that could not be removed, with why, for the caller to log: the team is gone either way.
 */
export async function removeProviderDomains(
  domains: ProviderDomain[],
): Promise<{ domain: string; providerId: string; error: string }[]> {
  const resend = resendClient();
  if (!resend) return [];
  const failed: { domain: string; providerId: string; error: string }[] = [];
  for (const { domain, providerId } of domains) {
    try {
      await callResend(`remove ${domain} from Resend`, (signal) => resend.domains.remove(providerId, { signal }));
    } catch (error) {
      if (error instanceof AppError && error.options.provider?.status === 404) continue;
      failed.push({ domain, providerId, error: error instanceof Error ? error.message : String(error) });
    }
  }
  return failed;
}

// ---------- validation ----------

function normalizeDomain(value: string): string {
  const domain = value.trim().toLowerCase();
  if (!DOMAIN_PATTERN.test(domain))
    throw errors.invalidDomain(`"${value}" is not a domain name (e.g. mail.example.com)`);
  return domain;
}

function normalizeSender(value: string | undefined, domain: string): string | undefined {
  const sender = value?.trim();
  if (!sender) return undefined;
  const at = sender.lastIndexOf("@");
  if (at < 1 || sender.slice(at + 1).toLowerCase() !== domain || /[\s<>@",;\0]/.test(sender.slice(0, at))) {
    throw errors.invalidDomain(`The default sender must be an address @${domain}`);
  }
  return sender;
}

// ---------- Resend ----------

type RemoteDomain = { id: string; status: string; records: DnsRecord[] };

function resendClient(): Resend | null {
  const config = getConfig().resend;
  if (!config) return null;
  return new Resend(config.apiKey, config.baseUrl ? { baseUrl: config.baseUrl.replace(/\/+$/, "") } : undefined);
}

/**
 * Runs one SDK call with a timeout and turns every failure into an EMAIL_PROVIDER_ERROR carrying what Resend answered.
 * The SDK answers `{ data: null, error }` for HTTP errors (error is Resend's JSON body: statusCode, name, message) and
 * network failures (statusCode null); it throws only when aborted while reading a body.
 */
async function callResend<T>(
  action: string,
  run: (signal: AbortSignal) => Promise<{ data: T | null; error: unknown }>,
): Promise<T> {
  const signal = AbortSignal.timeout(RESEND_TIMEOUT_MS);
  let result: { data: T | null; error: unknown };
  try {
    result = await run(signal);
  } catch (error) {
    const reason = signal.aborted ? `no answer within ${RESEND_TIMEOUT_MS} ms` : (error as Error).message;
    throw errors.emailProviderFailure(`Could not ${action}: Resend could not be reached (${reason})`);
  }
  if (result.error) {
    const body = (typeof result.error === "object" ? result.error : {}) as {
      statusCode?: unknown;
      name?: unknown;
      message?: unknown;
    };
    const statusCode = typeof body.statusCode === "number" ? body.statusCode : null;
    const name = typeof body.name === "string" && body.name ? body.name : null;
    const text = typeof body.message === "string" && body.message ? body.message : (name ?? "unknown error");
    if (statusCode === null) {
      const reason = signal.aborted ? `no answer within ${RESEND_TIMEOUT_MS} ms` : text;
      throw errors.emailProviderFailure(`Could not ${action}: Resend could not be reached (${reason})`, null, name);
    }
    throw errors.emailProviderFailure(
      `Could not ${action}: Resend answered HTTP ${statusCode}${name ? ` ${name}` : ""}: ${text}`,
      statusCode,
      name,
    );
  }
  if (result.data === null || result.data === undefined)
    throw errors.emailProviderFailure(`Could not ${action}: Resend's answer was empty`);
  return result.data;
}

async function createRemote(resend: Resend, domain: string): Promise<RemoteDomain> {
  const data = await callResend(`add ${domain} to Resend`, (signal) =>
    resend.domains.create({ name: domain }, { signal }),
  );
  return parseRemote(data, domain, `add ${domain} to Resend`);
}

async function fetchRemote(
  resend: Resend,
  id: string,
  domain: string,
  options: { missingIsNull: boolean },
): Promise<RemoteDomain | null> {
  try {
    const data = await callResend(`read ${domain} from Resend`, (signal) => resend.domains.get(id, { signal }));
    return parseRemote(data, domain, `read ${domain} from Resend`);
  } catch (error) {
    if (options.missingIsNull && error instanceof AppError && error.options.provider?.status === 404) return null;
    throw error;
  }
}

function parseRemote(data: unknown, domain: string, action: string): RemoteDomain {
  const d = (data ?? {}) as { id?: unknown; name?: unknown; status?: unknown; records?: unknown };
  if (typeof d.id !== "string" || d.id === "")
    throw errors.emailProviderFailure(`Could not ${action}: Resend's answer carried no domain id`);
  if (typeof d.name === "string" && d.name.toLowerCase() !== domain) {
    throw errors.emailProviderFailure(`Could not ${action}: Resend answered for another domain (${d.name})`);
  }
  const records = Array.isArray(d.records)
    ? (d.records.filter((r) => typeof r === "object" && r !== null && !Array.isArray(r)) as DnsRecord[])
    : [];
  return { id: d.id, status: typeof d.status === "string" && d.status ? d.status : "unknown", records };
}

function describeRemote(row: SendingDomainDetails): string {
  if (row.verified) return `${row.domain} is verified by Resend: you can send from it.`;
  const count = row.dns_records?.length ?? 0;
  return (
    `${row.domain} is not verified yet (Resend status: ${row.provider_status}). ` +
    `Publish the ${count} DNS record${count === 1 ? "" : "s"} listed in dns_records at your DNS provider, then verify the domain again.`
  );
}
