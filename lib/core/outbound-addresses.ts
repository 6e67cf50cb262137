import { Resolver } from "node:dns/promises";
import ipaddr from "ipaddr.js";

// The outbound-request rule: a URL a user gives never leads to a loopback, private, link-local (cloud metadata),
// unique-local, multicast, unspecified or otherwise non-public address. ipaddr.js knows the ranges; an address is public
// only when it names none of them ("unicast"). IPv4-mapped IPv6 (`::ffff:127.0.0.1`) is judged as the IPv4 address it
// carries; other IPv6 forms that embed IPv4 (NAT64, 6to4, Teredo) are refused whole, as nothing here needs them. An
// IPv6 address ipaddr.js calls unicast is public only inside the global unicast space IANA allocates from, 2000::/3:
// the rest, such as the deprecated IPv4-compatible `::127.0.0.1` (which ipaddr.js has no range for), is not routed.

/**
 * The addresses a host name resolves to (IPv4 and IPv6, as text); none when it does not resolve. `signal` aborts when
 * the caller's deadline (`timeoutMs` after the call) has passed.
 */
export type HostLookup = (hostname: string, options: { timeoutMs: number; signal: AbortSignal }) => Promise<string[]>;

const RANGE_NAMES: Record<string, string> = {
  loopback: "a loopback address",
  private: "a private address",
  linkLocal: "a link-local address (where cloud metadata services answer)",
  uniqueLocal: "a unique-local address",
  multicast: "a multicast address",
  unspecified: "the unspecified address",
  broadcast: "the broadcast address",
  carrierGradeNat: "a shared (carrier-grade NAT) address",
  reserved: "a reserved address",
};

const GLOBAL_UNICAST = ipaddr.parseCIDR("2000::/3");

/** What kind of non-public address `ip` is ("a loopback address"…), or null when it is a public one. */
function addressKind(ip: string): string | null {
  const address = ipaddr.process(ip);
  const range = address.range();
  if (range !== "unicast") return RANGE_NAMES[range] ?? `a non-public address (${range})`;
  if (address.kind() === "ipv6" && !address.match(GLOBAL_UNICAST)) {
    return "an IPv6 address outside the global unicast range (2000::/3)";
  }
  return null;
}

/** True for an IP address (any form ipaddr.js reads) that is public: false for every internal range and for non-IPs. */
export function isPublicAddress(ip: string): boolean {
  return ipaddr.isValid(ip) && addressKind(ip) === null;
}

// Names that never lead to the public internet: RFC 6761's localhost, ICANN's private-use .internal (as in
// metadata.google.internal), mDNS's .local and RFC 8375's home.arpa; each with every name under it.
const INTERNAL_NAMES = ["localhost", "internal", "local", "home.arpa", "localdomain"];

/** A URL's host as it is looked up: lower case, without IPv6 brackets or the root's trailing dot. */
function bareHost(hostname: string): string {
  const lower = hostname.toLowerCase();
  return lower.startsWith("[") && lower.endsWith("]") ? lower.slice(1, -1) : lower.replace(/\.+$/, "");
}

/**
 * Why `hostname` (a URL's, brackets and all) is not a public host, from its text alone: an IP literal in any form
 * ipaddr.js reads outside the public ranges, or a name that only resolves inside a network (localhost, *.internal,
 * single-label names reached through a search domain). Null when it is a public IP literal or a name to look up.
 */
export function hostProblem(hostname: string): string | null {
  const host = bareHost(hostname);
  if (ipaddr.isValid(host)) {
    const kind = addressKind(host);
    return kind === null ? null : `${host} is ${kind}`;
  }
  if (INTERNAL_NAMES.some((name) => host === name || host.endsWith(`.${name}`))) return `${host} is an internal name`;
  if (!host.includes(".")) return `${host} is a name without a domain, looked up only inside a network`;
  return null;
}

/** True when `hostname` is an IP literal rather than a name: it has nothing to look up. */
export function isAddressLiteral(hostname: string): boolean {
  return ipaddr.isValid(bareHost(hostname));
}

const NOT_FOUND = new Set(["ENOTFOUND", "ENODATA", "NXDOMAIN"]);

/**
 * DNS's A and AAAA answers for `hostname`, through c-ares (asynchronous, unlike getaddrinfo, which holds a thread of
 * libuv's small pool for as long as a slow resolver takes). Rejects when the resolver fails.
 */
export const lookupHostAddresses: HostLookup = async (hostname, { timeoutMs, signal }) => {
  const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
  signal.addEventListener("abort", () => resolver.cancel(), { once: true });
  const family = (query: Promise<string[]>) =>
    query.catch((error: NodeJS.ErrnoException) => {
      if (NOT_FOUND.has(error.code ?? "")) return [];
      throw error;
    });
  const [v4, v6] = await Promise.all([family(resolver.resolve4(hostname)), family(resolver.resolve6(hostname))]);
  return [...v4, ...v6];
};

/**
 * `lookup`'s answer, or a rejection once `timeoutMs` has passed without one, or once `stop` aborts (the caller gave up):
 * either way the lookup is told to stop.
 */
async function lookupWithin(
  lookup: HostLookup,
  host: string,
  timeoutMs: number,
  stop?: AbortSignal,
): Promise<string[]> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const end = () => controller.abort();
  const deadline = new Promise<never>((_, reject) => {
    controller.signal.addEventListener("abort", () => reject(new Error(`no answer within ${timeoutMs} ms`)));
    timer = setTimeout(end, timeoutMs);
    if (stop?.aborted) end();
    stop?.addEventListener("abort", end, { once: true });
  });
  try {
    return await Promise.race([lookup(host, { timeoutMs, signal: controller.signal }), deadline]);
  } finally {
    clearTimeout(timer);
    stop?.removeEventListener("abort", end);
  }
}

/** What a host resolved to when all of it is public, or why it is not (the addresses are then not to be used). */
export type PublicHostAnswer = { problem: null; addresses: string[] } | { problem: string; addresses?: undefined };

/**
 * hostProblem's checks, then, for a name, every address it resolves to (within `timeoutMs`) must be public (one internal answer is enough
 * to refuse it, as a client may connect to any of them): the addresses, in ipaddr.js's plain form (an IPv4-mapped
 * IPv6 address as its IPv4 address), so a caller can connect to exactly what was checked. A name that does not
 * resolve, or whose lookup fails or passes `timeoutMs`, is refused too: it could not be checked.
 */
export async function resolvePublicHost(
  hostname: string,
  {
    lookup = lookupHostAddresses,
    timeoutMs,
    signal,
  }: {
    lookup?: HostLookup;
    timeoutMs: number;
    /** Stops the lookup: the caller no longer waits for it. */
    signal?: AbortSignal;
  },
): Promise<PublicHostAnswer> {
  const problem = hostProblem(hostname);
  if (problem !== null) return { problem };
  const host = bareHost(hostname);
  if (ipaddr.isValid(host)) return { problem: null, addresses: [ipaddr.process(host).toString()] };
  let answers: string[];
  try {
    answers = await lookupWithin(lookup, host, timeoutMs, signal);
  } catch {
    return { problem: `${host} could not be looked up (no answer within ${timeoutMs / 1000} s, or the lookup failed)` };
  }
  if (answers.length === 0) return { problem: `${host} does not resolve` };
  for (const address of answers) {
    // The kind of address only, never the address: a refusal must not map our network's private names for a caller.
    if (!ipaddr.isValid(address)) return { problem: `${host} resolves to something that is not an IP address` };
    const kind = addressKind(address);
    if (kind !== null) return { problem: `${host} resolves to ${kind}` };
  }
  return { problem: null, addresses: answers.map((address) => ipaddr.process(address).toString()) };
}

/** Why `hostname` is not a public host (resolvePublicHost's checks), or null when it is. */
export async function publicHostProblem(
  hostname: string,
  options: { lookup?: HostLookup; timeoutMs: number },
): Promise<string | null> {
  return (await resolvePublicHost(hostname, options)).problem;
}
