import "server-only";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { getConfig } from "@/lib/core/config";
import {
  MAX_WEBHOOK_URL_LENGTH,
  WEBHOOK_ATTEMPTS_PER_ACCOUNT,
  WEBHOOK_HOST_LOOKUP_MS,
  WEBHOOK_IDLE_CONNECTION_MS,
  WEBHOOK_MAX_RESPONSE_BYTES,
  WEBHOOK_RESPONSE_EXCERPT_BYTES,
  WEBHOOK_TIMEOUT_MS,
} from "@/lib/core/limits";
import { hostProblem, lookupHostAddresses, resolvePublicHost, type HostLookup } from "@/lib/core/outbound-addresses";

// A webhook's URL is the account's to choose, and our server connects to it: it must never lead inside our network.
// Checked at creation (webhookUrlProblem) and again for every connection an attempt opens, on the very addresses the
// socket connects to (a connection kept for the account's next attempt was checked when it opened):
// the connection's own lookup resolves the name, refuses it unless every answer is public, and hands the socket
// exactly those addresses, so a name whose DNS answer changes after a check (DNS rebinding) cannot get in. IP literals
// never reach a lookup, so their text is checked first; the WHATWG URL parser has already turned every IPv4 form
// (decimal, octal, hexadecimal, shortened) into a dotted quad, and ipaddr.js judges an IPv4-mapped IPv6 address as
// the IPv4 address it carries. WEBHOOKS_ALLOW_PRIVATE_URLS=1 (development, tests) lifts all of it.

let hostLookup: HostLookup = lookupHostAddresses;

/** Where webhook hosts are looked up: DNS, or a table a test answers from (tests send nothing off the machine). */
export function useWebhookHostLookup(lookup: HostLookup = lookupHostAddresses): void {
  hostLookup = lookup;
}

/** One attempt's outcome, as a delivery's attempt row records it. */
export type WebhookAttempt = {
  /** The answer's HTTP status; null when none came (refused address, connection failure, timeout). */
  status: number | null;
  durationMs: number;
  /** Why the attempt failed when its status does not say it: no answer, or a redirect, which is not followed. */
  error?: string;
  /** The first WEBHOOK_RESPONSE_EXCERPT_BYTES of the answer's body, as text. */
  excerpt: string;
  /** A 2xx answer within the deadline. */
  succeeded: boolean;
};

const USER_AGENT = "Letterpress-Webhooks/1.0";

/** Why an attempt's lookup stops once the attempt has ended: one reason for all (a DOMException each cost ~75 µs). */
const ATTEMPT_ENDED = Object.freeze(new Error("the webhook attempt ended"));

/** The request options' field naming whose pool a connection is in (read by the agents' getName). */
type PooledOptions = http.RequestOptions & { webhookAccount?: string };

// Connections kept open between an account's attempts, pooled by account and origin: a connection one account's
// attempt opened (through the checked lookup, so to an address that was public when it connected) carries only that
// account's next attempts to the same origin, and is closed after WEBHOOK_IDLE_CONNECTION_MS idle. Node's agents
// pool by the name getName gives, which here starts with the account.
class AccountHttpAgent extends http.Agent {
  getName(options: PooledOptions = {}): string {
    return `${options.webhookAccount}|${super.getName(options)}`;
  }
}
class AccountHttpsAgent extends https.Agent {
  getName(options: PooledOptions & https.RequestOptions = {}): string {
    return `${options.webhookAccount}|${super.getName(options)}`;
  }
}
const pooling = {
  keepAlive: true,
  timeout: WEBHOOK_IDLE_CONNECTION_MS,
  maxFreeSockets: WEBHOOK_ATTEMPTS_PER_ACCOUNT,
};
const httpAgent = new AccountHttpAgent(pooling);
const httpsAgent = new AccountHttpsAgent(pooling);

/** Why `url` may not be a webhook endpoint, from its text alone; null when only its name's addresses are left. */
function urlTextProblem(url: string, allowPrivate: boolean): string | null {
  if (url.length > MAX_WEBHOOK_URL_LENGTH) {
    return `url must be at most ${MAX_WEBHOOK_URL_LENGTH.toLocaleString("en-US")} characters`;
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "url must be an absolute URL";
  }
  if (allowPrivate ? parsed.protocol !== "https:" && parsed.protocol !== "http:" : parsed.protocol !== "https:") {
    return allowPrivate ? "url must be an http:// or https:// URL" : "url must be an https:// URL";
  }
  if (parsed.username !== "" || parsed.password !== "") return "url must not hold credentials (user:password@)";
  if (allowPrivate) return null;
  const problem = hostProblem(parsed.hostname);
  return problem === null ? null : `url must be on a public host: ${problem}`;
}

/**
 * Why `url` may not be a webhook endpoint (the message of the API's 400 for field `url`), or null: an https:// URL of
 * at most MAX_WEBHOOK_URL_LENGTH characters, without credentials, whose host is not internal by its text nor by what
 * it resolves to now (every address, within WEBHOOK_HOST_LOOKUP_MS). With `allowPrivate` (by default
 * WEBHOOKS_ALLOW_PRIVATE_URLS=1) http:// and internal hosts are allowed, and nothing is looked up.
 */
export async function webhookUrlProblem(
  url: string,
  {
    allowPrivate = getConfig().webhooksAllowPrivateUrls,
    lookup = hostLookup,
  }: {
    allowPrivate?: boolean;
    lookup?: HostLookup;
  } = {},
): Promise<string | null> {
  const problem = urlTextProblem(url, allowPrivate);
  if (problem !== null || allowPrivate) return problem;
  const answer = await resolvePublicHost(new URL(url).hostname, { lookup, timeoutMs: WEBHOOK_HOST_LOOKUP_MS });
  return answer.problem === null ? null : `url must be on a public host: ${answer.problem}`;
}

/**
 * net's `lookup` for one attempt's connection: resolves the name once with `resolve` (within WEBHOOK_HOST_LOOKUP_MS,
 * and no longer than until `signal` aborts: the attempt ended), refuses it unless every address is public, and answers
 * exactly the checked addresses, so the socket connects to one of them and to nothing else.
 */
export function webhookConnectLookup(resolve: HostLookup, signal: AbortSignal): LookupFunction {
  return (hostname, options, callback) => {
    resolvePublicHost(hostname, { lookup: resolve, timeoutMs: WEBHOOK_HOST_LOOKUP_MS, signal }).then(
      (answer) => {
        if (answer.problem !== null) return callback(new Error(`url must be on a public host: ${answer.problem}`), "");
        const wanted = options.family === 4 || options.family === 6 ? options.family : null;
        const addresses = answer.addresses
          .map((address) => ({ address, family: address.includes(":") ? 6 : 4 }))
          .filter(({ family }) => wanted === null || family === wanted);
        if (addresses.length === 0) {
          return callback(
            Object.assign(new Error(`${hostname} has no IPv${wanted} address`), { code: "ENOTFOUND" }),
            "",
          );
        }
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0].address, addresses[0].family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ""),
    );
  };
}

/** A connection error as the delivery log says it (happy eyeballs' AggregateError has an empty message). */
function errorText(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return error.errors.map(errorText).join("; ");
  if (error instanceof Error) return error.message || (error as NodeJS.ErrnoException).code || error.name;
  return String(error);
}

/** Bytes of an answer as text: an incomplete last character left out, and NULs (which PostgreSQL's text refuses) replaced. */
function excerptText(bytes: Buffer): string {
  return new TextDecoder().decode(bytes, { stream: true }).replaceAll("\u0000", "\uFFFD");
}

/** A failure of a kept connection before any answer: the endpoint closed it while idle, so another is opened. */
function closedWhileIdle(request: http.ClientRequest, error: NodeJS.ErrnoException): boolean {
  return request.reusedSocket && (error.code === "ECONNRESET" || error.code === "EPIPE");
}

/**
 * POSTs `body` (JSON) with `headers` (the signature's) to `url`, once: a 2xx answer within `timeoutMs` (everything from
 * the lookup to the answer's status counts) succeeds; any other status, a redirect (never followed), a refused address,
 * a failed connection or the deadline fails. At most WEBHOOK_MAX_RESPONSE_BYTES of the answer are read, then the
 * connection is closed; the deadline closes it too. Runs on Node's asynchronous sockets and resolvers, so a hanging
 * endpoint holds nothing but its own socket. Never throws: every failure is an outcome. Names are resolved by `lookup`
 * and checked; under WEBHOOKS_ALLOW_PRIVATE_URLS=1 by the system's resolver, unchecked (so `localhost` and /etc/hosts
 * work in development). With `accountId`, a connection an answer was read to the end on is kept for that account's
 * next attempt to the same origin (and one the endpoint closed meanwhile is replaced, once, within the deadline);
 * without, the attempt has a connection of its own, closed after it.
 */
export async function attemptWebhook({
  url,
  headers,
  body,
  accountId,
  timeoutMs = WEBHOOK_TIMEOUT_MS,
  lookup = hostLookup,
}: {
  url: string;
  headers: Record<string, string>;
  body: string;
  accountId?: string;
  timeoutMs?: number;
  lookup?: HostLookup;
}): Promise<WebhookAttempt> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const allowPrivate = getConfig().webhooksAllowPrivateUrls;
  const problem = urlTextProblem(url, allowPrivate);
  if (problem !== null) return { status: null, durationMs: elapsed(), error: problem, excerpt: "", succeeded: false };
  const target = new URL(url);
  // Aborted when the attempt ends, so that a lookup still running stops with it.
  const ended = new AbortController();

  return new Promise<WebhookAttempt>((resolve) => {
    let status: number | null = null;
    const kept: Buffer[] = [];
    let keptBytes = 0;
    let readBytes = 0;
    let answered = false;
    let done = false;

    const finish = (failure?: string) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      ended.abort(ATTEMPT_ENDED);
      // A connection whose answer was read to its end goes back to the account's pool; any other is closed.
      if (!answered) request.destroy();
      const excerpt = excerptText(Buffer.concat(kept));
      if (status === null) {
        resolve({ status, durationMs: elapsed(), error: failure ?? "no answer", excerpt, succeeded: false });
        return;
      }
      const redirect = status >= 300 && status < 400;
      resolve({
        status,
        durationMs: elapsed(),
        ...(redirect && { error: "redirect not followed" }),
        excerpt,
        succeeded: status >= 200 && status < 300,
      });
    };

    const secure = target.protocol === "https:";
    const send = (pooled: boolean): http.ClientRequest => {
      const options: PooledOptions = {
        method: "POST",
        headers: {
          ...headers,
          "content-type": "application/json",
          "content-length": String(Buffer.byteLength(body)),
          "user-agent": USER_AGENT,
        },
        // A new connection goes through the checked lookup; a kept one is to an address it checked.
        agent: pooled ? (secure ? httpsAgent : httpAgent) : false,
        webhookAccount: accountId,
        ...(!allowPrivate && { lookup: webhookConnectLookup(lookup, ended.signal) }),
      };
      const sent = (secure ? https : http).request(target, options);
      sent.on("response", onResponse);
      sent.on("error", (error: NodeJS.ErrnoException) => {
        if (!done && status === null && closedWhileIdle(sent, error)) request = send(false);
        else finish(errorText(error));
      });
      sent.end(body);
      return sent;
    };
    // Past the deadline without a status the attempt failed; with one, it stands, and reading its body stops.
    const timer = setTimeout(
      () => finish(status === null ? `no answer within ${timeoutMs / 1000} s` : undefined),
      timeoutMs,
    );
    const onResponse = (response: http.IncomingMessage) => {
      status = response.statusCode ?? null;
      response.on("data", (chunk: Buffer) => {
        if (keptBytes < WEBHOOK_RESPONSE_EXCERPT_BYTES) {
          const part = chunk.subarray(0, WEBHOOK_RESPONSE_EXCERPT_BYTES - keptBytes);
          kept.push(part);
          keptBytes += part.length;
        }
        readBytes += chunk.length;
        if (readBytes >= WEBHOOK_MAX_RESPONSE_BYTES) finish();
      });
      response.on("end", () => {
        answered = true;
        finish();
      });
      response.on("error", () => finish());
    };
    let request = send(accountId !== undefined);
  });
}
