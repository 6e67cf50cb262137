import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";
import { isUuid } from "@/lib/core/schemas";
import { MAX_ADDRESS_LENGTH, MAX_UNSUBSCRIBE_GROUP_LENGTH } from "@/lib/core/limits";

// An unsubscribe link's token: `<base64url of [1, account id, address, group]>.<base64url HMAC-SHA256>`, signed with
// the server's unsubscribe key. It names one account, one (lower-cased) address and one group ('' the unnamed list),
// so it unsubscribes that address alone: changing any of them breaks the signature.

export type UnsubscribeClaims = { accountId: string; address: string; group: string };

const VERSION = 1;
/** Any token longer is not one of ours (an address and a group at their longest fit well within it). */
const MAX_UNSUBSCRIBE_TOKEN_LENGTH = 1024;

const signature = (key: Buffer, data: string) =>
  createHmac("sha256", key).update(`unsubscribe\n${data}`).digest("base64url");

export function signUnsubscribeToken(key: Buffer, claims: UnsubscribeClaims): string {
  const data = Buffer.from(
    JSON.stringify([VERSION, claims.accountId, claims.address.toLowerCase(), claims.group]),
  ).toString("base64url");
  return `${data}.${signature(key, data)}`;
}

/** The claims of a token signed with `key`; null for anything else (altered, truncated, another key's). */
export function verifyUnsubscribeToken(key: Buffer, token: string): UnsubscribeClaims | null {
  if (token.length > MAX_UNSUBSCRIBE_TOKEN_LENGTH) return null;
  const [data, given, extra] = token.split(".");
  if (!data || !given || extra !== undefined) return null;
  const expected = Buffer.from(signature(key, data));
  const received = Buffer.from(given);
  if (expected.length !== received.length || !timingSafeEqual(expected, received)) return null;
  try {
    const claims: unknown = JSON.parse(Buffer.from(data, "base64url").toString("utf8"));
    if (!Array.isArray(claims) || claims.length !== 4 || claims[0] !== VERSION) return null;
    const [, accountId, address, group] = claims as unknown[];
    if (typeof accountId !== "string" || !isUuid(accountId)) return null;
    if (typeof address !== "string" || address.length === 0 || address.length > MAX_ADDRESS_LENGTH) return null;
    // Signed, so as the send's schema let it through (its length in characters, not UTF-16 units).
    if (typeof group !== "string" || [...group].length > MAX_UNSUBSCRIBE_GROUP_LENGTH) return null;
    return { accountId, address, group };
  } catch {
    return null;
  }
}
