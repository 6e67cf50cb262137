import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { config, proxy } from "@/proxy";

// Next runs a Server Action posted without an Origin header (it compares Origin with the host only when there is
// one). A browser always sends Origin with a POST, so the proxy refuses such a POST to any page before Next reads it.

const CSRF_REJECTED = { error: "Cross-site request refused", code: "CSRF_REJECTED", success: false };
const APP = "http://localhost:3000";

/** A Server Action as the browser's fetch posts it (Next-Action), or as a form posts it without JavaScript. */
const action = (path: string, headers: Record<string, string> = {}) =>
  proxy(
    new NextRequest(new URL(path, APP), {
      method: "POST",
      headers: { "next-action": "7f5e0c2a9d", "content-type": "text/plain;charset=UTF-8", ...headers },
      body: "[]",
    }),
  );
const formPost = (path: string, headers: Record<string, string> = {}) =>
  proxy(
    new NextRequest(new URL(path, APP), {
      method: "POST",
      headers: { "content-type": "multipart/form-data; boundary=b", ...headers },
      body: '--b\r\nContent-Disposition: form-data; name="$ACTION_ID_7f5e0c2a9d"\r\n\r\n\r\n--b--\r\n',
    }),
  );

describe("a Server Action without Origin, or from another origin", () => {
  it("is refused with 403 on every page, signed in or not, called by fetch or posted by a form", async () => {
    for (const response of [
      await action("/dashboard/domains"),
      await action("/signin"),
      await action("/"),
      await action("/dashboard/settings/api-keys", { cookie: "lp_session=forged" }),
      await formPost("/dashboard/domains"),
      // Next itself answers a malformed Origin with a 500 and a foreign one with an error page.
      await action("/dashboard/domains", { origin: "garbage" }),
      await action("/dashboard/domains", { origin: "null" }),
      await formPost("/signin", { origin: "https://attacker.example" }),
      // A sign-up link's page, whose button signs the browser in.
      await formPost(`/auth/confirm?token=${"A".repeat(43)}`, { origin: "https://attacker.example" }),
      await action("/auth/confirm", { "sec-fetch-site": "cross-site" }),
      await action("/styles.css", { origin: "http://localhost:3000.attacker.example" }),
    ]) {
      expect([response.status, await response.text()]).toEqual([403, JSON.stringify(CSRF_REJECTED)]);
      expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it("with the app's own Origin goes on to Next", async () => {
    for (const response of [
      await action("/dashboard/domains", { origin: APP }),
      await formPost("/signin", { origin: APP }),
    ]) {
      expect(response.status).toBe(200);
      expect(response.headers.get("x-middleware-next")).toBe("1");
    }
  });

  it("reaches the proxy on every page path, the ones that look like files too; the API's route handlers run no action", async () => {
    // Loaded once Next's server modules are: on its own it finds no AsyncLocalStorage.
    const { unstable_doesMiddlewareMatch } = await import("next/experimental/testing/server");
    const matches = (url: string, headers: Record<string, string>) =>
      unstable_doesMiddlewareMatch({ config, url, headers });
    for (const url of ["/dashboard/domains", "/auth/confirm?token=x", "/styles.css", "/logo.png", "/favicon.ico"]) {
      for (const origin of [{}, { origin: APP }, { origin: "garbage" }] as Record<string, string>[]) {
        expect(matches(url, { "next-action": "7f5e0c2a9d", ...origin })).toBe(true);
        expect(matches(url, { "content-type": "multipart/form-data; boundary=b", ...origin })).toBe(true);
      }
    }
    // Without a Server Action's marks, a path that looks like a file stays out of the proxy.
    expect(matches("/styles.css", { origin: APP })).toBe(false);
    expect(matches("/api/v1/send", { "next-action": "7f5e0c2a9d" })).toBe(false);
  });
});
