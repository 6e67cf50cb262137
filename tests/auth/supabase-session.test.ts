import { createHmac, generateKeyPairSync, randomUUID, sign, type KeyObject } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { GET as getLibrary } from "@/app/api/v1/library/route";
import { signInAction, signUpAction } from "@/app/(auth)/actions";
import { GET as authCallback } from "@/app/auth/callback/route";
import { GET as getUsage } from "@/app/api/v1/usage/route";
import { resetConfig } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { proxy } from "@/proxy";
import { call } from "../support/api";
import { newBrowser, submit } from "../support/next-headers";

// Supabase Auth sessions without a Supabase stack: a local server publishes a JWKS where supabase-js looks for it,
// access tokens are ES256-signed with node:crypto, and they travel in the real `sb-<ref>-auth-token` cookie format
// (`base64-` + base64url of the session JSON, split into `.0`, `.1`, … past 3180 characters). The real route handlers
// verify them through @supabase/ssr's getClaims().

const KID = "letterpress-test-key";
const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
const forger = generateKeyPairSync("ec", { namedCurve: "P-256" });
const UNAUTHORIZED = { error: "Authentication required", code: "UNAUTHORIZED", success: false };

// Route handlers and actions that use next/headers (the confirmation callback, sign-up) run outside a request here.
vi.mock("next/headers", () => import("../support/next-headers"));

let server: Server;
let supabaseUrl: string;
let cookieName: string;
const requests: string[] = [];
const savedEnv: Record<string, string | undefined> = {};

const b64url = (value: string | Buffer) => Buffer.from(value).toString("base64url");

function es256(claims: Record<string, unknown>, options: { key?: KeyObject; kid?: string } = {}): string {
  const header = b64url(JSON.stringify({ alg: "ES256", typ: "JWT", kid: options.kid ?? KID }));
  const payload = b64url(JSON.stringify(claims));
  // JWS wants the raw r||s signature (IEEE P1363), not DER.
  const signature = sign("sha256", Buffer.from(`${header}.${payload}`), {
    key: options.key ?? privateKey,
    dsaEncoding: "ieee-p1363",
  });
  return `${header}.${payload}.${b64url(signature)}`;
}

function hs256(claims: Record<string, unknown>): string {
  const header = b64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
  const payload = b64url(JSON.stringify(claims));
  return `${header}.${payload}.${createHmac("sha256", "not-the-project-secret").update(`${header}.${payload}`).digest("base64url")}`;
}

type User = { id: string; email: string };

function claimsFor(user: User, { expiresIn = 3600 } = {}) {
  const now = Math.floor(Date.now() / 1000);
  return {
    iss: `${supabaseUrl}/auth/v1`,
    sub: user.id,
    aud: "authenticated",
    role: "authenticated",
    email: user.email,
    iat: now - 10,
    exp: now + expiresIn,
    session_id: randomUUID(),
    is_anonymous: false,
  };
}

/** The session JSON supabase-js stores, in @supabase/ssr's cookie encoding; chunked like the library does. */
function sessionCookies(
  accessToken: string,
  user: User,
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
  const value = `base64-${b64url(JSON.stringify(session))}`;
  if (value.length <= 3180) return `${cookieName}=${value}`;
  const chunks: string[] = [];
  for (let offset = 0; offset < value.length; offset += 3180) chunks.push(value.slice(offset, offset + 3180));
  return chunks.map((chunk, index) => `${cookieName}.${index}=${chunk}`).join("; ");
}

/** The auth server's answer to the next refresh-token grant (one use); refused when null. */
let nextRefresh: Record<string, unknown> | null = null;
/** The auth server's answer to the next email-link verification (one use); refused when null. */
let nextVerify: Record<string, unknown> | null = null;

function sessionResponse(user: User): Record<string, unknown> {
  return {
    access_token: es256(claimsFor(user)),
    token_type: "bearer",
    expires_in: 3600,
    expires_at: Math.floor(Date.now() / 1000) + 3600,
    refresh_token: "a-refresh-token",
    user: {
      id: user.id,
      aud: "authenticated",
      role: "authenticated",
      email: user.email,
      app_metadata: {},
      user_metadata: {},
      created_at: new Date().toISOString(),
    },
  };
}

const newUser = (): User => ({ id: randomUUID(), email: `sb-${randomUUID().slice(0, 8)}@example.com` });

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

beforeAll(async () => {
  const jwk = { ...publicKey.export({ format: "jwk" }), kid: KID, alg: "ES256", use: "sig" };
  server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    response.setHeader("content-type", "application/json");
    if (request.method === "GET" && request.url === "/auth/v1/.well-known/jwks.json") {
      response.end(JSON.stringify({ keys: [jwk] }));
    } else if (request.method === "POST" && request.url?.startsWith("/auth/v1/signup")) {
      // With email confirmation off, Supabase tells sign-up that an address is registered.
      response.statusCode = 422;
      response.end(JSON.stringify({ code: 422, error_code: "user_already_exists", msg: "User already registered" }));
    } else if (request.method === "POST" && request.url?.startsWith("/auth/v1/verify") && nextVerify) {
      response.end(JSON.stringify(nextVerify));
      nextVerify = null;
    } else if (request.url?.startsWith("/auth/v1/token") && nextRefresh) {
      response.end(JSON.stringify(nextRefresh));
      nextRefresh = null;
    } else if (request.url?.startsWith("/auth/v1/token")) {
      response.statusCode = 400;
      response.end(
        JSON.stringify({
          code: 400,
          error_code: "refresh_token_not_found",
          msg: "Invalid Refresh Token: Refresh Token Not Found",
        }),
      );
    } else if (request.url?.startsWith("/auth/v1/user")) {
      response.statusCode = 403;
      response.end(
        JSON.stringify({ code: 403, error_code: "bad_jwt", msg: "invalid JWT: unable to parse or verify signature" }),
      );
    } else {
      response.statusCode = 404;
      response.end(JSON.stringify({ code: 404, msg: "not found" }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  supabaseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // @supabase/ssr names the cookie after the first label of the project's host: "127" here.
  cookieName = "sb-127-auth-token";
  for (const name of ["NEXT_PUBLIC_SUPABASE_URL", "NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY"])
    savedEnv[name] = process.env[name];
  process.env.NEXT_PUBLIC_SUPABASE_URL = supabaseUrl;
  process.env.NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY = "sb_publishable_letterpress_test";
  resetConfig();
});

afterAll(async () => {
  for (const [name, value] of Object.entries(savedEnv)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetConfig();
  await new Promise((resolve) => server.close(resolve));
});

describe("Supabase session cookies on the API", () => {
  it("accepts a valid ES256 access token, verified against the JWKS, and creates the user's account", async () => {
    const user = newUser();
    const cookie = sessionCookies(es256(claimsFor(user)), user);
    expect(cookie.startsWith(`${cookieName}=base64-`)).toBe(true);

    const result = await usageWith(cookie);
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ success: true, usage: { plan: "free", limit: 500 } });
    expect(requests).toContain("GET /auth/v1/.well-known/jwks.json");
    expect(requests.some((line) => line.startsWith("GET /auth/v1/user"))).toBe(false);

    const accounts = await getDb()<{ email: string }[]>`select email from accounts where auth_user_id = ${user.id}`;
    expect(accounts).toEqual([{ email: user.email }]);

    // The same user again: the same account, not a second one.
    expect((await usageWith(cookie)).status).toBe(200);
    const [{ n }] = await getDb()<
      { n: number }[]
    >`select count(*)::int as n from accounts where auth_user_id = ${user.id}`;
    expect(n).toBe(1);
  });

  it("accepts the chunked cookie form (.0, .1, …) exactly like the single cookie", async () => {
    const user = newUser();
    const cookie = sessionCookies(es256(claimsFor(user)), user, { padding: 6000 });
    const names = cookie.split("; ").map((pair) => pair.slice(0, pair.indexOf("=")));
    expect(names).toEqual([`${cookieName}.0`, `${cookieName}.1`, `${cookieName}.2`]);
    expect(cookie.split("; ").every((pair) => pair.length - pair.indexOf("=") - 1 <= 3180)).toBe(true);

    const result = await usageWith(cookie);
    expect(result.status).toBe(200);
    expect(result.body.success).toBe(true);
  });

  it("meters a metered endpoint for the session's account like an API key", async () => {
    const user = newUser();
    const cookie = sessionCookies(es256(claimsFor(user)), user);
    const result = await call(getLibrary, "/api/v1/library", { headers: { cookie } });
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ success: true, templates: [], pagination: { total: 0 } });
    expect(result.headers.get("x-ratelimit-remaining")).toBe("499");
    const after = await usageWith(cookie);
    expect(after.body.usage.remaining).toBe(499);
  });

  it("refuses a token signed with another key (same kid) with 401", async () => {
    const user = newUser();
    const result = await usageWith(sessionCookies(es256(claimsFor(user), { key: forger.privateKey }), user));
    expect(result.status).toBe(401);
    expect(result.body).toEqual(UNAUTHORIZED);
    const [{ n }] = await getDb()<
      { n: number }[]
    >`select count(*)::int as n from accounts where auth_user_id = ${user.id}`;
    expect(n).toBe(0);
  });

  it("refuses a token whose key is not in the JWKS, and an HS256 token the auth server rejects, with 401", async () => {
    const user = newUser();
    const unknownKid = await usageWith(
      sessionCookies(es256(claimsFor(user), { key: forger.privateKey, kid: "someone-elses-key" }), user),
    );
    expect(unknownKid.status).toBe(401);
    expect(unknownKid.body).toEqual(UNAUTHORIZED);

    const symmetric = await usageWith(sessionCookies(hs256(claimsFor(user)), user));
    expect(symmetric.status).toBe(401);
    expect(requests.some((line) => line.startsWith("GET /auth/v1/user"))).toBe(true);
  });

  it("refuses an expired token with 401, whether or not the session's refresh is attempted", async () => {
    const user = newUser();
    const expired = es256(claimsFor(user, { expiresIn: -60 }));

    // The session says it is still valid, but the token's own exp has passed.
    const stale = await usageWith(sessionCookies(expired, user));
    expect(stale.status).toBe(401);
    expect(stale.body).toEqual(UNAUTHORIZED);

    // The session says it has expired: supabase-js tries the refresh token, which the auth server refuses.
    const before = requests.filter((line) => line.startsWith("POST /auth/v1/token")).length;
    const refused = await usageWith(sessionCookies(expired, user, { expiresAt: Math.floor(Date.now() / 1000) - 60 }));
    expect(refused.status).toBe(401);
    expect(requests.filter((line) => line.startsWith("POST /auth/v1/token")).length).toBeGreaterThan(before);
  });

  it("refreshes an expired session while answering the API call, and sends the new cookies back", async () => {
    const user = newUser();
    const now = Math.floor(Date.now() / 1000);
    const freshToken = es256(claimsFor(user));
    nextRefresh = {
      access_token: freshToken,
      token_type: "bearer",
      expires_in: 3600,
      expires_at: now + 3600,
      refresh_token: "rotated-refresh-token",
      user: {
        id: user.id,
        aud: "authenticated",
        role: "authenticated",
        email: user.email,
        app_metadata: {},
        user_metadata: {},
        created_at: new Date().toISOString(),
      },
    };
    const expired = sessionCookies(es256(claimsFor(user, { expiresIn: -60 })), user, { expiresAt: now - 60 });
    const result = await usageWith(expired);
    expect(result.status).toBe(200);
    expect(result.body.success).toBe(true);
    const refreshed = result.headers.getSetCookie().find((cookie) => cookie.startsWith(`${cookieName}=base64-`));
    expect(refreshed).toBeDefined();
    const session = JSON.parse(
      Buffer.from(refreshed!.split(";")[0].slice(`${cookieName}=base64-`.length), "base64url").toString("utf8"),
    );
    expect(session).toMatchObject({ access_token: freshToken, refresh_token: "rotated-refresh-token" });
  });

  it("refuses a tampered payload and a missing or garbled cookie with 401", async () => {
    const user = newUser();
    const [header, , signature] = es256(claimsFor(user)).split(".");
    const otherClaims = b64url(JSON.stringify({ ...claimsFor(user), sub: randomUUID() }));
    expect((await usageWith(sessionCookies(`${header}.${otherClaims}.${signature}`, user))).status).toBe(401);
    expect((await usageWith(`${cookieName}=base64-${b64url("{not json")}`)).status).toBe(401);
    expect((await usageWith(`${cookieName}=`)).status).toBe(401);
    expect((await call(getUsage, "/api/v1/usage")).status).toBe(401);
  });
});

describe("the email confirmation callback", () => {
  const confirm = (next: string) =>
    call(authCallback, `/auth/callback?token_hash=a-token-hash&type=signup&next=${encodeURIComponent(next)}`);

  it("continues to a same-origin next path after confirming", async () => {
    nextVerify = sessionResponse(newUser());
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
    nextVerify = sessionResponse(newUser());
    const result = await confirm(next);
    expect(result.status).toBe(307);
    expect(result.headers.get("location")).toBe("http://localhost:3000/dashboard");
  });
});

describe("sign-up through Supabase", () => {
  it("answers an address Supabase reports as registered without saying so", async () => {
    newBrowser();
    const email = `sb-${randomUUID().slice(0, 8)}@example.com`;
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
    const response = await visit("/dashboard/usage", sessionCookies(es256(claimsFor(user)), user));
    expect(response.headers.get("x-middleware-next")).toBe("1");
    expect(response.headers.get("location")).toBeNull();
  });

  it("sends a signed-in user from the sign-in page to the dashboard", async () => {
    const user = newUser();
    const response = await visit("/signin", sessionCookies(es256(claimsFor(user)), user));
    expect(response.status).toBe(307);
    expect(response.headers.get("location")).toBe("http://localhost:3000/dashboard");
  });

  it("shows the sign-in page to a user whose email is another sign-in's account, instead of bouncing to the dashboard", async () => {
    // The dashboard page finds no account for this user and sends it to sign-in: sending it back would loop.
    const owner = newUser();
    expect((await usageWith(sessionCookies(es256(claimsFor(owner)), owner))).status).toBe(200);
    const other = { id: randomUUID(), email: owner.email };
    const response = await visit("/signin", sessionCookies(es256(claimsFor(other)), other));
    expect(response.headers.get("location")).toBeNull();
    expect(response.headers.get("x-middleware-next")).toBe("1");
  });

  it("redirects a dashboard visit without a valid session to sign-in, keeping the destination", async () => {
    for (const cookie of [
      undefined,
      sessionCookies(es256(claimsFor(newUser()), { key: forger.privateKey }), newUser()),
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
    const cookie = sessionCookies(es256(claimsFor(user, { expiresIn: -60 })), user, {
      expiresAt: Math.floor(Date.now() / 1000) - 60,
    });
    const response = await visit("/api/v1/library", cookie);
    expect(response.headers.get("location")).toBeNull();
    expect(response.headers.get("x-middleware-next")).toBe("1");
    expect((await visit("/api/v1/usage")).headers.get("location")).toBeNull();
  });
});
