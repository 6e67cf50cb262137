import "server-only";
import { createHash } from "node:crypto";
import { getConfig } from "@/lib/core/config";
import { UNSUBSCRIBE_LIMITS } from "@/lib/core/limits";
import { recordRateLimitHits } from "@/lib/db/rate-limits";
import { isUnsubscribed, readSigningKey, unsubscribeRecipient } from "@/lib/unsubscribe/data";
import { signUnsubscribeToken, verifyUnsubscribeToken, type UnsubscribeClaims } from "@/lib/unsubscribe/token";

// One-click unsubscribe (RFC 8058): a send with `unsubscribe` carries a link to /u/<token>, in its List-Unsubscribe
// headers and as its component's `unsubscribeUrl`; a POST to it suppresses the address for the send's group.

/** A send's `unsubscribe`: true, the unnamed list (''); or a group by name. */
export type UnsubscribeOption = true | { group: string };

export const unsubscribeGroup = (option: UnsubscribeOption): string => (option === true ? "" : option.group);

// One key for every account, made once in the database: a server secret, never derived from what a team sends.
let signingKey: Promise<Buffer> | undefined;
function unsubscribeKey(): Promise<Buffer> {
  signingKey ??= readSigningKey("unsubscribe").catch((error: unknown) => {
    signingKey = undefined;
    throw error;
  });
  return signingKey;
}

/** The link of a token. */
const linkOf = (token: string) => `${getConfig().siteUrl}/u/${token}`;

/** The link a send to `address` carries: the same for every email of the account to that address and group. */
export async function unsubscribeUrl(accountId: string, address: string, group: string): Promise<string> {
  return linkOf(signUnsubscribeToken(await unsubscribeKey(), { accountId, address, group }));
}

/** The headers RFC 8058 asks of a message with a one-click unsubscribe link. */
function unsubscribeHeaders(url: string): Record<string, string> {
  return { "List-Unsubscribe": `<${url}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" };
}

/** A message with the one-click headers of its unsubscribe link, when it has one. */
export function withUnsubscribeHeaders<M extends { headers: Record<string, string> }>(
  message: M,
  url: string | null,
): M {
  return url === null ? message : { ...message, headers: { ...message.headers, ...unsubscribeHeaders(url) } };
}

/** What a link's token names; null when it is not a token this server signed. */
export async function readUnsubscribeLink(token: string): Promise<UnsubscribeClaims | null> {
  return verifyUnsubscribeToken(await unsubscribeKey(), token);
}

export type UnsubscribeOutcome =
  | { status: "unsubscribed"; claims: UnsubscribeClaims }
  | { status: "invalid" }
  | { status: "limited"; retryAfterSeconds: number };

/**
 * The one-click POST: suppresses the token's address for its group, once. A repeat answers the same and counts for
 * nothing; a first one is counted against UNSUBSCRIBE_LIMITS per address and group of the account, so no link's
 * retries can hold back another group's.
 */
export async function unsubscribeByToken(token: string): Promise<UnsubscribeOutcome> {
  const claims = await readUnsubscribeLink(token);
  if (!claims) return { status: "invalid" };
  const { accountId, address, group } = claims;
  if (await isUnsubscribed(accountId, address, group)) return { status: "unsubscribed", claims };
  const key = createHash("sha256").update(`${accountId}\n${address}\n${group}`).digest("hex");
  const [hit] = await recordRateLimitHits([`unsubscribe:${key}`], UNSUBSCRIBE_LIMITS.windowSeconds);
  if (hit.hits > UNSUBSCRIBE_LIMITS.perAddress) return { status: "limited", retryAfterSeconds: hit.retryAfterSeconds };
  await unsubscribeRecipient(accountId, address, group, unsubscribeHeaders(linkOf(token))["List-Unsubscribe"]);
  return { status: "unsubscribed", claims };
}
