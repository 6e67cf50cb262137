import "server-only";
import { isIP } from "node:net";
import type { NextRequest } from "next/server";
import { getConfig } from "@/lib/core/config";

/**
 * The client's IP address, for per-address limits; null when there is none to trust. A header is only as trustworthy
 * as the proxy that writes it:
 * - CLIENT_IP_HEADER set: the proxy in front writes the client's address into that header (its last entry, when the
 *   proxy appends to a list), and nothing else is read;
 * - on Vercel: the edge overwrites X-Forwarded-For, whose first entry is the client;
 * - elsewhere: X-Forwarded-For's last entry, the one the nearest proxy appended (or Next, from the socket, when the
 *   request came without the header). A client talking to the server directly can write it itself, so deployments
 *   with no proxy in front keep only the per-account limits' protection (README, Configuration): for sign-in, the
 *   slowdown past an account's failures, which refuses no one.
 */
export function clientAddress(headers: Headers): string | null {
  const { clientIpHeader, onVercel } = getConfig();
  const entries = (name: string) => headers.get(name)?.split(",") ?? [];
  const candidate = clientIpHeader
    ? entries(clientIpHeader).at(-1)
    : onVercel
      ? entries("x-forwarded-for")[0]
      : entries("x-forwarded-for").at(-1);
  const address = candidate?.trim().toLowerCase() ?? "";
  // An IPv6 address is at most 45 characters; a zone id (`%eth0`) is the client's own choice, so one is not an address.
  return address.length <= 45 && !address.includes("%") && isIP(address) ? address : null;
}

/**
 * Whether the X-Forwarded-* headers (Host, Proto) were written by a proxy the deployment trusts, by the rule
 * clientAddress follows: behind the proxy CLIENT_IP_HEADER names, or on Vercel, whose edge sets them. Elsewhere a
 * client talking to the server could write them itself.
 */
export function trustsForwardedHeaders(): boolean {
  const { clientIpHeader, onVercel } = getConfig();
  return clientIpHeader !== null || onVercel;
}

/**
 * The origin the browser asked this request of, for a link that must come back to it: Supabase's email links carry a
 * PKCE code whose verifier is a cookie of that host, and a preview answers at its branch URL and its deployment URL
 * alike. Read from X-Forwarded-Host and -Proto where a trusted proxy writes them (trustsForwardedHeaders: on Vercel,
 * the edge); elsewhere, or when they do not name one host, the site's URL, since a client could name any host there.
 */
export function linkOrigin(headers: Headers): string {
  const siteOrigin = new URL(getConfig().siteUrl).origin;
  if (!trustsForwardedHeaders()) return siteOrigin;
  const host = headers.get("x-forwarded-host") ?? headers.get("host") ?? "";
  const proto = headers.get("x-forwarded-proto") ?? "https";
  // One bare host[:port]: never a list, a path or credentials.
  if (!LINK_HOST.test(host) || (proto !== "https" && proto !== "http")) return siteOrigin;
  return new URL(`${proto}://${host}`).origin;
}

const LINK_HOST = /^(\[[0-9a-f:.]+\]|[a-z0-9-]+(\.[a-z0-9-]+)*)(:\d{1,5})?$/i;

/**
 * Whether a request that changes something comes from the app's own pages: its Origin is the site's (or this host's,
 * as a trusted proxy names it). Without Origin, Fetch Metadata (when sent) must say same-origin; a caller that is not
 * a browser sends neither. Browsers send Origin with every POST, so `originRequired` for what only they send.
 */
export function isSameOrigin(request: NextRequest, { originRequired = false } = {}): boolean {
  return fromOwnOrigin(request.headers, request.nextUrl, originRequired);
}

/**
 * isSameOrigin for a Server Action, which has the request's headers (next/headers) but not its URL: the site's URL
 * stands in for it. The proxy refuses an action from another origin before it runs (proxy.ts); an action that signs
 * someone in checks again, so that no path to it skips the check.
 */
export function isSameOriginAction(headers: Headers): boolean {
  return fromOwnOrigin(headers, new URL(getConfig().siteUrl), true);
}

function fromOwnOrigin(headers: Headers, requestUrl: URL, originRequired: boolean): boolean {
  const origin = headers.get("origin");
  if (origin === null) {
    if (originRequired) return false;
    const site = headers.get("sec-fetch-site");
    return site === null || site === "same-origin" || site === "none";
  }
  const allowed = new Set([new URL(getConfig().siteUrl).origin, requestUrl.origin]);
  const forwarded = (name: string) => (trustsForwardedHeaders() ? headers.get(name) : null);
  const host = forwarded("x-forwarded-host") ?? headers.get("host");
  if (host) allowed.add(`${forwarded("x-forwarded-proto") ?? requestUrl.protocol.replace(":", "")}://${host}`);
  return allowed.has(origin);
}
