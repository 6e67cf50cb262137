import { randomUUID, type KeyObject } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { NextRequest } from "next/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { GET as getLibrary } from "@/app/api/v1/library/route";
import { signInAction, signOutAction, signUpAction } from "@/app/(auth)/actions";
import { GET as authCallback } from "@/app/auth/callback/route";
import { GET as getUsage } from "@/app/api/v1/usage/route";
import { requireAccount } from "@/lib/auth/current";
import { getConfig } from "@/lib/core/config";
import { getDb } from "@/lib/db/client";
import { proxy } from "@/proxy";
import { call } from "../support/api";
import { setTestEnv } from "../support/env";
import { applySetCookies, cookiesAfterProxy, newBrowser, submit, useBrowser } from "../support/next-headers";
import {
  cookieHeader,
  hs256,
  isRedirectUrlAllowed,
  readSessionCookies,
  redirectUrlGlob,
  sessionCookies,
  useSupabaseAuthStandIn,
  type StandInSession,
  type StandInUser,
} from "../support/supabase-auth";

// Supabase Auth sessions without a Supabase stack: a stand-in for the project's Auth (tests/support/supabase-auth.ts)
// publishes a JWKS where supabase-js looks for it and signs ES256 access tokens, configured as the Supabase integration
// for Vercel sets it (the anon key, no publishable key), and they travel in the real `sb-<ref>-auth-token` cookie format
// (`base64-` + base64url of the session JSON, split into `.0`, `.1`, … past 3180 characters). The real route handlers
// verify them through @supabase/ssr's getClaims().

// A session cookie that is refused, whatever the reason, is told to sign in again.
const UNAUTHORIZED = {
  error: "Authentication required",
  code: "UNAUTHORIZED",
  success: false,
  message: "Your session has expired or is no longer valid: sign in again.",
};

// Route handlers and actions that use next/headers (the confirmation callback, sign-up) run outside a request here.
vi.mock("next/headers", () => import("../support/next-headers"));

const supabase = useSupabaseAuthStandIn();
const requests = supabase.requests;

function es256(claims: Record<string, unknown>, options: { key?: KeyObject; kid?: string } = {}) {
  return supabase.signToken(claims, options);
}

type Person = Pick<StandInUser, "id" | "email">;
const b64url = (value: string) => Buffer.from(value).toString("base64url");

function claimsFor(user: Person, { expiresIn = 3600 } = {}) {
  return supabase.accessTokenClaims(user, { expiresIn });
}

/** A session with this access token in @supabase/ssr's cookies, its refresh token one the auth server never issued. */
function sessionCookie(
  accessToken: string,
  user: Person,
  options: { expiresAt?: number; padding?: number } = {},
): string {
  const now = Math.floor(Date.now() / 1000);
  const session = {
    access_token: accessToken,
    token_type: "bearer",
    expires_in: 3600,
    expires_at: options.expiresAt ?? now + 3600,
    refresh_token: "refresh-token-that-this-server-refuses",
    user: {
      id: user.id,
      aud: "authenticated",
      role: "authenticated",
      email: user.email,
      app_metadata: { provider: "email", providers: ["email"] },
      // A big profile pushes the cookie past one chunk, as real sessions with avatars and identities do.
      user_metadata: options.padding ? { bio: "x".repeat(options.padding) } : {},
      created_at: new Date().toISOString(),
    },
  };
  return cookieHeader(sessionCookies(supabase.cookieName, session));
}

const newUser = (): StandInUser => supabase.createUser();

function usageWith(cookie: string) {
  // A same-origin browser GET: the session cookie and nothing else.
  return call(getUsage, "/api/v1/usage", { headers: { cookie, "sec-fetch-site": "same-origin" } });
}

// supabase-js logs the refused refresh, garbled cookies and its Node 20 deprecation: expected here, so kept quiet.
const EXPECTED_NOISE = /AuthApiError|Refresh Token|@supabase\/ssr|Node\.js 20/;
for (const level of ["error", "warn"] as const) {
  const original = console[level].bind(console);
  vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
    if (!args.some((arg) => EXPECTED_NOISE.test(arg instanceof Error ? `${arg.name} ${arg.message}` : String(arg))))
      original(...args);
  });
}

describe("Supabase session cookies on the API", () => {
  it("accepts a valid ES256 access token, verified against the JWKS, and creates the user's account", async () => {
    const user = newUser();
    const cookie = sessionCookie(es256(claimsFor(user)), user);
    // @supabase/ssr names the cookie after the first label of the project's host: "127" here.
    expect(cookie.startsWith("sb-127-auth-token=base64-")).toBe(true);

    const result = await usageWith(cookie);
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ success: true, usage: { plan: "free", limit: 500 } });
    expect(requests).toContain("GET /auth/v1/.well-known/jwks.json");
    expect(requests.some((line) => line.startsWith("GET /auth/v1/user"))).toBe(false);

    const accounts = await getDb()<{ email: string }[]>`select email from people where auth_user_id = ${user.id}`;
    expect(accounts).toEqual([{ email: user.email }]);

    // The same user again: the same account, not a second one.
    expect((await usageWith(cookie)).status).toBe(200);
    const [{ n }] = await getDb()<
      { n: number }[]
    >`select count(*)::int as n from people where auth_user_id = ${user.id}`;
    expect(n).toBe(1);
  });

  it("accepts the chunked cookie form (.0, .1, …) exactly like the single cookie", async () => {
    const user = newUser();
    const cookie = sessionCookie(es256(claimsFor(user)), user, { padding: 6000 });
    const names = cookie.split("; ").map((pair) => pair.slice(0, pair.indexOf("=")));
    expect(names).toEqual(["sb-127-auth-token.0", "sb-127-auth-token.1", "sb-127-auth-token.2"]);
    expect(cookie.split("; ").every((pair) => pair.length - pair.indexOf("=") - 1 <= 3180)).toBe(true);

    const result = await usageWith(cookie);
    expect(result.status).toBe(200);
    expect(result.body.success).toBe(true);
  });

  it("meters a metered endpoint for the session's account like an API key", async () => {
    const user = newUser();
    const cookie = sessionCookie(es256(claimsFor(user)), user);
    const result = await call(getLibrary, "/api/v1/library", { headers: { cookie } });
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ success: true, templates: [], pagination: { total: 0 } });
    expect(result.headers.get("x-ratelimit-remaining")).toBe("499");
    const after = await usageWith(cookie);
    expect(after.body.usage.remaining).toBe(499);
  });

  it("refuses a token signed with another key (same kid) with 401", async () => {
    const user = newUser();
    const result = await usageWith(sessionCookie(es256(claimsFor(user), { key: supabase.foreignKey }), user));
    expect(result.status).toBe(401);
    expect(result.body).toEqual(UNAUTHORIZED);
    const [{ n }] = await getDb()<
      { n: number }[]
    >`select count(*)::int as n from people where auth_user_id = ${user.id}`;
    expect(n).toBe(0);
  });

  it("refuses a token whose key is not in the JWKS, and an HS256 token the auth server rejects, with 401", async () => {
    const user = newUser();
    const unknownKid = await usageWith(
      sessionCookie(es256(claimsFor(user), { key: supabase.foreignKey, kid: "someone-elses-key" }), user),
    );
    expect(unknownKid.status).toBe(401);
    expect(unknownKid.body).toEqual(UNAUTHORIZED);

    const symmetric = await usageWith(sessionCookie(hs256(claimsFor(user), "not-the-project-secret"), user));
    expect(symmetric.status).toBe(401);
    expect(requests.some((line) => line.startsWith("GET /auth/v1/user"))).toBe(true);
  });

  it("refuses an expired token with 401, whether or not the session's refresh is attempted", async () => {
    const user = newUser();
    const expired = es256(claimsFor(user, { expiresIn: -60 }));

    // The session says it is still valid, but the token's own exp has passed.
    const stale = await usageWith(sessionCookie(expired, user));
    expect(stale.status).toBe(401);
    expect(stale.body).toEqual(UNAUTHORIZED);

    // The session says it has expired: supabase-js tries the refresh token, which the auth server refuses.
    const before = requests.filter((line) => line.startsWith("POST /auth/v1/token")).length;
    const refused = await usageWith(sessionCookie(expired, user, { expiresAt: Math.floor(Date.now() / 1000) - 60 }));
    expect(refused.status).toBe(401);
    expect(requests.filter((line) => line.startsWith("POST /auth/v1/token")).length).toBeGreaterThan(before);
  });

  it("refreshes an expired session while answering the API call, and sends the new cookies back", async () => {
    const user = newUser();
    const expired = supabase.issueSession(user, { expiresIn: -60 });
    const result = await usageWith(cookieHeader(sessionCookies(supabase.cookieName, expired)));
    expect(result.status).toBe(200);
    expect(result.body.success).toBe(true);
    const refreshed = result.headers
      .getSetCookie()
      .find((cookie) => cookie.startsWith(`${supabase.cookieName}=base64-`));
    expect(refreshed).toBeDefined();
    const session = JSON.parse(
      Buffer.from(refreshed!.split(";")[0].slice(`${supabase.cookieName}=base64-`.length), "base64url").toString(
        "utf8",
      ),
    );
    const issued = supabase.issued.at(-1)!;
    expect(issued.refresh_token).not.toBe(expired.refresh_token);
    expect(session).toMatchObject({ access_token: issued.access_token, refresh_token: issued.refresh_token });
  });

  it("refuses a tampered payload and a missing or garbled cookie with 401", async () => {
    const user = newUser();
    const [header, , signature] = es256(claimsFor(user)).split(".");
    const otherClaims = b64url(JSON.stringify({ ...claimsFor(user), sub: randomUUID() }));
    expect((await usageWith(sessionCookie(`${header}.${otherClaims}.${signature}`, user))).status).toBe(401);
    expect((await usageWith(`${supabase.cookieName}=base64-${b64url("{not json")}`)).status).toBe(401);
    expect((await usageWith(`${supabase.cookieName}=`)).status).toBe(401);
    expect((await call(getUsage, "/api/v1/usage")).status).toBe(401);
  });
});

describe("the email confirmation callback", () => {
  const confirm = (next: string) => {
    const { tokenHash } = supabase.pendingConfirmation(supabase.createUser({ confirmed: false }));
    return call(authCallback, `/auth/callback?token_hash=${tokenHash}&type=signup&next=${encodeURIComponent(next)}`);
  };

  it("continues to a same-origin next path after confirming", async () => {
    const result = await confirm("/dashboard/library?page=2");
    expect(result.status).toBe(307);
    expect(result.headers.get("location")).toBe("http://localhost:3000/dashboard/library?page=2");
  });

  it.each([
    "/.//evil.example/x",
    "/..//evil.example/x",
    "/%2F%2Fevil.example/x",
    "/\\evil.example/x",
    "\t//evil.example/x",
    "https://evil.example/x",
  ])("never leaves the site for next=%j: it goes to the dashboard", async (next) => {
    const result = await confirm(next);
    expect(result.status).toBe(307);
    expect(result.headers.get("location")).toBe("http://localhost:3000/dashboard");
  });
});

describe("sign-up through Supabase", () => {
  it("answers an address Supabase reports as registered without saying so", async () => {
    newBrowser();
    const { email } = supabase.createUser();
    const result = await submit(signUpAction, { email, password: "correct horse battery staple", next: "/dashboard" });
    expect(result).toEqual({
      state: {
        status: "error",
        message:
          "We couldn't create an account with that email and password. If you have signed up before, sign in with your password.",
        fields: {},
        email,
      },
    });
  });
});

describe("an email address over 320 characters with Supabase", () => {
  it("is refused at sign-up and sign-in with a clear message, and Supabase is never asked", async () => {
    newBrowser();
    const asked = requests.length;
    for (const email of [`${"a".repeat(309)}@example.com`, `${"a".repeat(900_000)}@example.com`]) {
      const refused = {
        state: {
          status: "error",
          message: "Check the highlighted fields.",
          fields: { email: "Use an email address of at most 320 characters" },
          email,
        },
      };
      const fields = { email, password: "correct horse battery staple", next: "/dashboard" };
      expect(await submit(signUpAction, fields)).toEqual(refused);
      expect(await submit(signInAction, fields)).toEqual(refused);
    }
    expect(requests.slice(asked)).toEqual([]);
  });
});

describe("the session-refresh proxy with Supabase configured", () => {
  const visit = (path: string, cookie?: string) =>
    proxy(new NextRequest(new URL(path, "http://localhost:3000"), { headers: cookie ? { cookie } : {} }));

  it("lets a signed-in user through to the dashboard", async () => {
    const user = newUser();
    const response = await visit("/dashboard/usage", sessionCookie(es256(claimsFor(user)), user));
    expect(response.headers.get("x-middleware-next")).toBe("1");
    expect(response.headers.get("location")).toBeNull();
  });

  it("sends a signed-in user from the sign-in page to the dashboard", async () => {
    const user = newUser();
    const response = await visit("/signin", sessionCookie(es256(claimsFor(user)), user));
    expect(response.status).toBe(307);
    expect(response.headers.get("location")).toBe("http://localhost:3000/dashboard");
  });

  it("shows the sign-in page to a user whose email is another sign-in's account, instead of bouncing to the dashboard", async () => {
    // The dashboard page finds no account for this user and sends it to sign-in: sending it back would loop.
    const owner = newUser();
    expect((await usageWith(sessionCookie(es256(claimsFor(owner)), owner))).status).toBe(200);
    const other = { id: randomUUID(), email: owner.email };
    const response = await visit("/signin", sessionCookie(es256(claimsFor(other)), other));
    expect(response.headers.get("location")).toBeNull();
    expect(response.headers.get("x-middleware-next")).toBe("1");
  });

  it("redirects a dashboard visit without a valid session to sign-in, keeping the destination", async () => {
    for (const cookie of [
      undefined,
      sessionCookie(es256(claimsFor(newUser()), { key: supabase.foreignKey }), newUser()),
    ]) {
      const response = await visit("/dashboard/library?page=2", cookie);
      expect(response.status).toBe(307);
      const location = new URL(response.headers.get("location")!);
      expect(location.pathname).toBe("/signin");
      expect(location.searchParams.get("next")).toBe("/dashboard/library?page=2");
    }
  });

  it("never redirects /api: an expired session reaches the handler, which answers 401 JSON itself", async () => {
    const user = newUser();
    const cookie = sessionCookie(es256(claimsFor(user, { expiresIn: -60 })), user, {
      expiresAt: Math.floor(Date.now() / 1000) - 60,
    });
    const response = await visit("/api/v1/library", cookie);
    expect(response.headers.get("location")).toBeNull();
    expect(response.headers.get("x-middleware-next")).toBe("1");
    expect((await visit("/api/v1/usage")).headers.get("location")).toBeNull();
  });
});

describe("Supabase Auth as the Supabase integration for Vercel configures it", () => {
  const visit = (path: string, cookies: Map<string, string>) =>
    proxy(new NextRequest(new URL(path, "http://localhost:3000"), { headers: { cookie: cookieHeader(cookies) } }));
  const cookiesOf = (session: StandInSession) =>
    new Map(sessionCookies(supabase.cookieName, session).map(({ name, value }) => [name, value]));
  const authCookieNames = (cookies: Map<string, string>) =>
    [...cookies.keys()].filter((name) => name.startsWith(supabase.cookieName)).sort();
  // A profile as large as real ones with an avatar and provider data get. GoTrue puts it in the access token too, so
  // the session holds it twice and no longer fits one cookie.
  const bigProfile = () => ({ full_name: "Ada Lovelace", bio: "x".repeat(2000) });

  it("reads the anon key when no publishable key is set, and sends it to Supabase", async () => {
    expect(process.env.NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY).toBeUndefined();
    expect(getConfig().supabase).toEqual({ url: supabase.url, publishableKey: supabase.anonKey });
    const user = newUser();
    const asked = requests.length;
    expect((await usageWith(cookieHeader(cookiesOf(supabase.issueSession(user, { expiresIn: -60 }))))).status).toBe(
      200,
    );
    expect(requests.slice(asked)).toContain("POST /auth/v1/token?grant_type=refresh_token");
    expect(supabase.apiKeys.slice(asked).every((key) => key === supabase.anonKey)).toBe(true);
  });

  it("signs in through the sign-in form: the session cookie is split into chunks, and the dashboard and API know the person", async () => {
    const user = supabase.createUser({ userMetadata: bigProfile() });
    const browser = newBrowser("203.0.113.41");
    const asked = requests.length;
    const result = await submit(signInAction, { email: user.email, password: user.password, next: "/dashboard/usage" });
    expect(result).toEqual({ redirect: "/dashboard/usage" });
    expect(requests.slice(asked)).toEqual(["POST /auth/v1/token?grant_type=password"]);
    expect(supabase.apiKeys.slice(asked)).toEqual([supabase.anonKey]);

    // The session Supabase answered, in @supabase/ssr's chunks: `base64-` + base64url of its JSON, 3,180 a cookie.
    const session = supabase.issued.at(-1)!;
    const names = authCookieNames(browser.cookies);
    expect(names).toEqual(["sb-127-auth-token.0", "sb-127-auth-token.1", "sb-127-auth-token.2"]);
    expect(names.every((name) => encodeURIComponent(browser.cookies.get(name)!).length <= 3180)).toBe(true);
    expect(browser.cookies.get("sb-127-auth-token.0")!.startsWith("base64-")).toBe(true);
    expect(readSessionCookies(supabase.cookieName, browser.cookies)).toEqual(session);

    // The dashboard's layout (requireAccount) finds the person sign-in linked, in their own team, and so does the API.
    const [person] = await getDb()<{ id: string; email: string }[]>`
      select id, email from people where auth_user_id = ${user.id}`;
    expect(person.email).toBe(user.email);
    expect(await requireAccount("/dashboard/usage")).toMatchObject({
      name: user.email,
      role: "admin",
      person: { id: person.id, email: user.email },
    });
    const usage = await usageWith(cookieHeader(browser.cookies));
    expect(usage.status).toBe(200);
    expect(usage.body).toMatchObject({ success: true, usage: { plan: "free", limit: 500 } });
    // A valid access token is verified against the JWKS alone: no refresh, no call to the auth server's /user.
    expect(requests.slice(asked)).toEqual(["POST /auth/v1/token?grant_type=password"]);
  });

  it("refuses a wrong password with the form's message, and sets no cookie", async () => {
    const user = newUser();
    const browser = newBrowser("203.0.113.42");
    const result = await submit(signInAction, { email: user.email, password: "not the password", next: "/dashboard" });
    expect(result).toEqual({
      state: {
        status: "error",
        message: "That email and password don't match an account. Check them and try again.",
        fields: {},
        email: user.email,
      },
    });
    expect(authCookieNames(browser.cookies)).toEqual([]);
  });

  it("refreshes an expired access token in the proxy: new cookies on the response, the same person behind it", async () => {
    const user = supabase.createUser({ userMetadata: bigProfile() });
    expect((await usageWith(cookieHeader(cookiesOf(supabase.issueSession(user))))).status).toBe(200);
    const [person] = await getDb()<{ id: string }[]>`select id from people where auth_user_id = ${user.id}`;

    const expired = supabase.issueSession(user, { expiresIn: -60 });
    const sent = cookiesOf(expired);
    expect(authCookieNames(sent)).toHaveLength(3);
    const asked = requests.length;
    const response = await visit("/dashboard/usage", sent);
    expect(response.headers.get("location")).toBeNull();
    expect(response.headers.get("x-middleware-next")).toBe("1");
    expect(requests.slice(asked)).toEqual(["POST /auth/v1/token?grant_type=refresh_token"]);
    const refreshed = supabase.issued.at(-1)!;
    expect(refreshed.refresh_token).not.toBe(expired.refresh_token);
    expect(refreshed.access_token).not.toBe(expired.access_token);

    // The browser gets the new session, chunked as before.
    const setCookieNames = response.headers.getSetCookie().map((line) => line.slice(0, line.indexOf("=")));
    expect(setCookieNames.sort()).toEqual(["sb-127-auth-token.0", "sb-127-auth-token.1", "sb-127-auth-token.2"]);
    const browserCookies = applySetCookies(sent, response);
    expect(readSessionCookies(supabase.cookieName, browserCookies)).toEqual(refreshed);
    expect(response.headers.get("cache-control")).toContain("no-store");

    // The page behind the proxy sees the new session in this same request, so it does not refresh again (the old
    // refresh token is spent) and its layout finds the same account.
    const forwarded = cookiesAfterProxy(response, sent);
    expect(readSessionCookies(supabase.cookieName, forwarded)).toEqual(refreshed);
    useBrowser({ cookies: forwarded, headers: new Headers({ "x-forwarded-for": "203.0.113.43" }) });
    expect(await requireAccount("/dashboard/usage")).toMatchObject({ person: { id: person.id, email: user.email } });

    // The browser's next API call, with the new cookies: the same account, nothing to refresh.
    const usage = await usageWith(cookieHeader(browserCookies));
    expect(usage.status).toBe(200);
    expect(usage.headers.getSetCookie()).toEqual([]);
    const library = await call(getLibrary, "/api/v1/library", { headers: { cookie: cookieHeader(browserCookies) } });
    expect(library.status).toBe(200);
    const [{ n }] = await getDb()<{ n: number }[]>`
      select count(*)::int as n from people where auth_user_id = ${user.id}`;
    expect(n).toBe(1);
    expect(requests.slice(asked)).toEqual(["POST /auth/v1/token?grant_type=refresh_token"]);

    // The old cookies hold a spent refresh token: the proxy sends that browser to sign in.
    const replay = await visit("/dashboard/usage", sent);
    expect(replay.status).toBe(307);
    expect(new URL(replay.headers.get("location")!).pathname).toBe("/signin");
  });

  it("signs out: Supabase ends the session and the cookies go, so its refresh token refreshes nothing", async () => {
    const user = newUser();
    const browser = newBrowser("203.0.113.44");
    await submit(signInAction, { email: user.email, password: user.password, next: "/dashboard" });
    const signedIn = readSessionCookies(supabase.cookieName, browser.cookies)!;
    expect(signedIn.user).toMatchObject({ id: user.id });
    const asked = requests.length;
    expect(await submit(signOutAction, {})).toEqual({ redirect: "/signin?signed_out=1" });
    expect(requests.slice(asked)).toEqual(["POST /auth/v1/logout?scope=local"]);
    expect([...browser.cookies].filter(([name, value]) => name.startsWith(supabase.cookieName) && value)).toEqual([]);

    // The same session once its access token has expired, as a copy of the cookies would hold it.
    const claims = supabase.accessTokenClaims(user, { expiresIn: -60 });
    const sessionId = JSON.parse(Buffer.from(signedIn.access_token.split(".")[1], "base64url").toString()).session_id;
    const stale = { ...signedIn, access_token: es256({ ...claims, session_id: sessionId }), expires_at: claims.exp };
    const page = await visit("/dashboard", cookiesOf(stale));
    expect(page.status).toBe(307);
    expect(new URL(page.headers.get("location")!).pathname).toBe("/signin");
    expect(requests.slice(asked).at(-1)).toBe("POST /auth/v1/token?grant_type=refresh_token");
  });

  it("refuses a token signed by another key, in the proxy and on the API, without asking the auth server", async () => {
    const user = newUser();
    const forged = cookiesOf({
      ...supabase.issueSession(user),
      access_token: es256(claimsFor(user), { key: supabase.foreignKey }),
    });
    const asked = requests.length;
    const page = await visit("/dashboard", forged);
    expect(page.status).toBe(307);
    expect(new URL(page.headers.get("location")!).pathname).toBe("/signin");
    const api = await usageWith(cookieHeader(forged));
    expect(api.status).toBe(401);
    expect(api.body).toEqual(UNAUTHORIZED);
    expect(requests.slice(asked)).toEqual([]);
  });

  it("verifies with getClaims() against the JWKS: one fetch for a new signing key, then from the cache", async () => {
    const before = supabase.issueSession(newUser());
    supabase.rotateSigningKey();
    const fetches = supabase.jwksFetches;
    const asked = requests.length;
    const users = [supabase.createUser(), supabase.createUser(), supabase.createUser()];
    for (const user of users)
      expect((await usageWith(cookieHeader(cookiesOf(supabase.issueSession(user))))).status).toBe(200);
    expect((await visit("/dashboard", cookiesOf(supabase.issueSession(users[0])))).headers.get("location")).toBeNull();
    useBrowser({ cookies: cookiesOf(supabase.issueSession(users[1])), headers: new Headers() });
    expect(await requireAccount()).toMatchObject({ person: { email: users[1].email } });
    // A token of the previous key is still in the fetched key set.
    expect((await usageWith(cookieHeader(cookiesOf(before)))).status).toBe(200);
    expect(supabase.jwksFetches - fetches).toBe(1);
    expect(requests.slice(asked)).toEqual(["GET /auth/v1/.well-known/jwks.json"]);
  });
});

describe("the redirect URLs the README tells people to add", () => {
  const readme = readFileSync(path.join(import.meta.dirname, "../../README.md"), "utf8");
  const deploySection = readme.slice(readme.indexOf("## Deploying to Vercel with Supabase")).split("\n## ")[0];
  // The README's placeholders, filled in as for this project: its domain, Vercel project name and team.
  const fill = (pattern: string) =>
    pattern
      .replaceAll("<production-domain>", "letterpress.example.com")
      .replaceAll("<project>", "letterpress")
      .replaceAll("<team-slug>", "acme");
  const redirectUrls = [...deploySection.matchAll(/`(https?:\/\/[^`\s]*\/\*\*)`/g)].map(([, url]) => fill(url));
  const PRODUCTION = "https://letterpress.example.com";
  const BRANCH_URL = "letterpress-git-feature-x-acme.vercel.app";
  const DEPLOYMENT_URL = "letterpress-k3j2h1g0f-acme.vercel.app";
  const vercel = {
    VERCEL_URL: DEPLOYMENT_URL,
    VERCEL_BRANCH_URL: BRANCH_URL,
    VERCEL_PROJECT_PRODUCTION_URL: "letterpress.example.com",
  };
  const SITE_VARIABLES = ["SITE_URL", "VERCEL_ENV", "VERCEL_URL", "VERCEL_BRANCH_URL", "VERCEL_PROJECT_PRODUCTION_URL"];

  afterEach(() => {
    Object.assign(supabase.settings, { siteUrl: "http://localhost:3000", redirectUrls: [], confirmEmail: false });
  });

  it("names the origins of production, of the previews and of npm run dev, each with any path and query", () => {
    expect(redirectUrls).toEqual([
      "https://letterpress.example.com/**",
      "https://letterpress-*-acme.vercel.app/**",
      "http://localhost:3000/**",
    ]);
  });

  it.each([
    { deployment: "production", env: { ...vercel, VERCEL_ENV: "production" }, origin: PRODUCTION, ip: "203.0.113.61" },
    {
      deployment: "a branch's preview",
      env: { ...vercel, VERCEL_ENV: "preview" },
      origin: `https://${BRANCH_URL}`,
      ip: "203.0.113.62",
    },
    {
      deployment: "a preview deployed without Git",
      env: { VERCEL_URL: DEPLOYMENT_URL, VERCEL_ENV: "preview" },
      origin: `https://${DEPLOYMENT_URL}`,
      ip: "203.0.113.63",
    },
    { deployment: "npm run dev", env: {}, origin: "http://localhost:3000", ip: "203.0.113.64" },
  ])(
    "sends the sign-up link of $deployment back to its own callback, which signs the person in there",
    async ({ env, origin, ip }) => {
      setTestEnv({ ...Object.fromEntries(SITE_VARIABLES.map((name) => [name, undefined])), ...env });
      // The project as the README sets it up: the Site URL is production's, the Redirect URLs are the README's.
      Object.assign(supabase.settings, { siteUrl: PRODUCTION, redirectUrls, confirmEmail: true });
      const browser = newBrowser(ip);
      const email = `sb-${randomUUID().slice(0, 8)}@example.com`;
      const asked = requests.length;
      const result = await submit(signUpAction, {
        email,
        password: "correct horse battery staple",
        next: "/dashboard",
      });
      expect(result).toMatchObject({ state: { status: "check_email", email } });

      const signUp = requests.slice(asked).find((line) => line.startsWith("POST /auth/v1/signup"))!;
      const redirectTo = new URL(signUp.slice("POST ".length), supabase.url).searchParams.get("redirect_to")!;
      expect(redirectTo).toBe(`${origin}/auth/callback`);
      // Allowed by a Redirect URL the README names, not only for being on the Site URL's host.
      expect(redirectUrls.filter((pattern) => redirectUrlGlob(pattern).test(redirectTo))).toHaveLength(1);
      const mail = supabase.emails.find((sent) => sent.to === email)!;
      expect(mail.redirectTo).toBe(redirectTo);

      // The link in the email confirms the address and continues to the callback with a PKCE code, which the callback
      // exchanges with the verifier this browser kept since signing up.
      const link = await fetch(mail.confirmationUrl, { redirect: "manual" });
      expect(link.status).toBe(303);
      const landing = new URL(link.headers.get("location")!);
      expect(`${landing.origin}${landing.pathname}`).toBe(`${origin}/auth/callback`);
      expect(landing.searchParams.get("code")).toEqual(expect.any(String));
      const confirmed = await call(authCallback, landing.toString());
      expect(confirmed.status).toBe(307);
      expect(confirmed.headers.get("location")).toBe(`${origin}/dashboard`);
      expect(readSessionCookies(supabase.cookieName, browser.cookies)?.user).toMatchObject({ email });
      const [account] = await getDb()<{ email: string }[]>`select email from people where email = ${email}`;
      expect(account).toEqual({ email });
    },
  );

  it("carries an invitation's path through the confirmation to the invitation, and no other origin's", async () => {
    setTestEnv(Object.fromEntries(SITE_VARIABLES.map((name) => [name, undefined])));
    Object.assign(supabase.settings, { siteUrl: PRODUCTION, redirectUrls, confirmEmail: true });
    const origin = "http://localhost:3000";
    const invitation = "/invite/Ab_-0123456789012345678901234567890123456789";
    for (const [next, callback, landsOn] of [
      [invitation, `${origin}/auth/callback?next=${encodeURIComponent(invitation)}`, `${origin}${invitation}`],
      ["//evil.example/x", `${origin}/auth/callback`, `${origin}/dashboard`],
      ["https://evil.example/x", `${origin}/auth/callback`, `${origin}/dashboard`],
      ["/\\evil.example", `${origin}/auth/callback`, `${origin}/dashboard`],
    ]) {
      const browser = newBrowser("203.0.113.65");
      const email = `sb-${randomUUID().slice(0, 8)}@example.com`;
      const asked = requests.length;
      const result = await submit(signUpAction, { email, password: "correct horse battery staple", next });
      expect(result).toMatchObject({ state: { status: "check_email", email } });
      const signUp = requests.slice(asked).find((line) => line.startsWith("POST /auth/v1/signup"))!;
      const redirectTo = new URL(signUp.slice("POST ".length), supabase.url).searchParams.get("redirect_to")!;
      expect(redirectTo).toBe(callback);
      // A README pattern admits it, so Supabase keeps it rather than falling back to the Site URL.
      expect(redirectUrls.filter((pattern) => redirectUrlGlob(pattern).test(redirectTo))).toHaveLength(1);
      const mail = supabase.emails.find((sent) => sent.to === email)!;
      expect(mail.redirectTo).toBe(callback);

      const link = await fetch(mail.confirmationUrl, { redirect: "manual" });
      const confirmed = await call(authCallback, link.headers.get("location")!);
      expect(confirmed.status).toBe(307);
      expect(confirmed.headers.get("location")).toBe(landsOn);
      expect(readSessionCookies(supabase.cookieName, browser.cookies)?.user).toMatchObject({ email });
    }
  });

  it("would send a preview's link to production without the preview's Redirect URL, and admits no host past the pattern", () => {
    const settings = { siteUrl: PRODUCTION, redirectUrls };
    const withoutPreviews = {
      siteUrl: PRODUCTION,
      redirectUrls: redirectUrls.filter((url) => !url.includes(".vercel")),
    };
    for (const preview of [
      `https://${BRANCH_URL}/auth/callback`,
      `https://${DEPLOYMENT_URL}/auth/callback?next=/auth/reset-password`,
      `https://${BRANCH_URL}/auth/callback?next=/dashboard/settings`,
    ]) {
      expect(isRedirectUrlAllowed(settings, preview)).toBe(true);
      expect(isRedirectUrlAllowed(withoutPreviews, preview)).toBe(false);
    }
    // The preview's own pages are the app's: only another host would take the link elsewhere.
    for (const elsewhere of [
      "https://letterpress-git-feature-x-evil.vercel.app/auth/callback",
      "https://evil-git-feature-x-acme.vercel.app/auth/callback",
      "https://letterpress-x.evil.example-acme.vercel.app/auth/callback",
      `https://${BRANCH_URL}.evil.example/auth/callback`,
      `https://${BRANCH_URL}@evil.example/auth/callback`,
      "https://letterpress.example.com.evil.example/auth/callback",
      "http://localhost:3001/auth/callback",
    ])
      expect(isRedirectUrlAllowed(settings, elsewhere)).toBe(false);
  });
});
