import { describe, expect, it } from "vitest";
import { linkOrigin } from "@/lib/api/client-address";
import { setTestEnv } from "../support/env";

// Where Supabase's email links come back to (lib/api/client-address.ts): the host a trusted proxy forwards, when it
// is one bare host, else the site's URL.

const SITE = "https://letterpress.example.com";

describe("linkOrigin", () => {
  it("answers the forwarded host on Vercel, and behind the proxy CLIENT_IP_HEADER names", () => {
    for (const env of [{ VERCEL: "1" }, { CLIENT_IP_HEADER: "x-real-ip" }]) {
      setTestEnv({ SITE_URL: SITE, VERCEL: undefined, CLIENT_IP_HEADER: undefined, ...env });
      const forwarded = (headers: Record<string, string>) => linkOrigin(new Headers(headers));
      expect([
        forwarded({ "x-forwarded-host": "letterpress-k3j2h1g0f-acme.vercel.app", "x-forwarded-proto": "https" }),
        forwarded({ "x-forwarded-host": "Preview.Example.COM:8443", "x-forwarded-proto": "https" }),
        forwarded({ host: "127.0.0.1:3000", "x-forwarded-proto": "http" }),
        forwarded({ "x-forwarded-host": "mail.example.com" }),
      ]).toEqual([
        "https://letterpress-k3j2h1g0f-acme.vercel.app",
        "https://preview.example.com:8443",
        "http://127.0.0.1:3000",
        "https://mail.example.com",
      ]);
      // Anything but one bare host, or a scheme other than http(s), falls back to the site.
      for (const headers of <Record<string, string>[]>[
        {},
        { "x-forwarded-host": "a.example.com, b.example.com" },
        { "x-forwarded-host": "evil.example/auth/callback" },
        { "x-forwarded-host": "user@evil.example" },
        { "x-forwarded-host": "a.example.com", "x-forwarded-proto": "javascript" },
      ])
        expect(forwarded(headers)).toBe(SITE);
    }
  });

  it("answers the site's URL without a trusted proxy, whatever Host the client wrote", () => {
    setTestEnv({ SITE_URL: SITE, VERCEL: undefined, CLIENT_IP_HEADER: undefined });
    expect(linkOrigin(new Headers({ host: "evil.example", "x-forwarded-host": "evil.example" }))).toBe(SITE);
  });
});
