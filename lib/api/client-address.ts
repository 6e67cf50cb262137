import "server-only";
import { isIP } from "node:net";
import { getConfig } from "@/lib/config";

/**
 * The client's IP address as the platform reports it, for per-address limits; null when there is none to trust.
 * On Vercel the edge sets X-Forwarded-For, its first entry being the client. Elsewhere `x-real-ip` is what a reverse
 * proxy in front sets; without one, Next fills X-Forwarded-For with the socket's address when the request has none, and
 * a proxy that appends puts the address it saw last, so the last entry is taken.
 */
export function clientAddress(headers: Headers): string | null {
  const forwarded = headers.get("x-forwarded-for")?.split(",") ?? [];
  const candidate = getConfig().onVercel ? forwarded[0] : (headers.get("x-real-ip") ?? forwarded.at(-1));
  const address = candidate?.trim().toLowerCase() ?? "";
  // Anything else is not an address: never a key of its own (and never an unbounded one).
  return isIP(address) ? address : null;
}
