import { describe, expect, it } from "vitest";
import { clientIp } from "@/lib/auth/client-ip";

// The address limits per IP are kept for. On Vercel the edge overwrites X-Forwarded-For; elsewhere only the hop
// nearest the server (Next's own entry, or the one a reverse proxy appended) is taken, never what the client wrote first.

const headers = (forwarded?: string) => new Headers(forwarded === undefined ? {} : { "x-forwarded-for": forwarded });

describe("clientIp", () => {
  it.each([
    ["one address, as Next fills it from the socket", "203.0.113.7", false, "203.0.113.7"],
    ["a client's own entry before the proxy's", "1.2.3.4, 203.0.113.7", false, "203.0.113.7"],
    ["spaces and an IPv6 address", "1.2.3.4 ,  2001:DB8::1 ", false, "2001:db8::1"],
    ["Vercel's single entry", "198.51.100.9", true, "198.51.100.9"],
    ["Vercel with more entries: the first", "198.51.100.9, 10.0.0.1", true, "198.51.100.9"],
  ])("takes %s", (_, forwarded, onVercel, expected) => {
    expect(clientIp(headers(forwarded), onVercel)).toBe(expected);
  });

  it.each([
    ["no header", undefined],
    ["an empty header", ""],
    ["an empty last entry", "1.2.3.4,"],
    ["an overlong entry", "x".repeat(65)],
  ])("has no address for %s", (_, forwarded) => {
    expect(clientIp(headers(forwarded), false)).toBeNull();
  });
});
