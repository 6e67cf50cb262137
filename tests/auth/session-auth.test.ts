import { createHmac, randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { generateApiKey } from "@/lib/api-keys/service";
import { createLocalSessionToken, LOCAL_SESSION_COOKIE, SESSION_MAX_AGE_SECONDS } from "@/lib/auth/session";
import { createApiKey, revokeApiKey } from "@/lib/api-keys/data";
import { createSession, deleteSession } from "@/lib/auth/data/sessions";
import { addToLibrary, call, createUser, sessionCookie, type TestUser } from "../support/api";
import { addressedId, endpoints } from "../support/endpoints";
import { withEnv } from "../support/env";

const UNAUTHORIZED = { error: "Authentication required", code: "UNAUTHORIZED", success: false };

let user: TestUser;
let revoked: TestUser;
let templateId: string;
/** A key of `user` past its expiry, and one both expired and revoked (which says revoked: it is not ours to use). */
let expiredKey: string;
let expiredRevokedKey: string;
/** Session cookies, made once the accounts exist. */
const cookies: Record<
  "live" | "expired" | "deletedAccount" | "signedOut" | "othersSession" | "withoutSession",
  string
> = {
  live: "",
  expired: "",
  deletedAccount: "",
  signedOut: "",
  othersSession: "",
  withoutSession: "",
};

beforeAll(async () => {
  user = await createUser("monthly");
  revoked = await createUser();
  await revokeApiKey(revoked.keyId);
  templateId = (await addToLibrary(user, "welcome")).template_id;
  const past = new Date(Date.now() - 1000);
  expiredKey = (await createApiKey(user.accountId, { name: "expired", expiresAt: past })).key;
  const expiredRevoked = await createApiKey(user.accountId, { name: "expired, revoked", expiresAt: past });
  await revokeApiKey(expiredRevoked.id);
  expiredRevokedKey = expiredRevoked.key;

  cookies.live = await sessionCookie(user.accountId);
  const live = await createSession(user.personId, SESSION_MAX_AGE_SECONDS);
  cookies.expired = `${LOCAL_SESSION_COOKIE}=${createLocalSessionToken({ personId: user.personId, sessionId: live.id, expiresAt: new Date(Date.now() - 1000) })}`;
  cookies.deletedAccount = `${LOCAL_SESSION_COOKIE}=${createLocalSessionToken({ personId: "00000000-0000-4000-8000-000000000000", sessionId: randomUUID(), expiresAt: new Date(Date.now() + 3600_000) })}`;
  const ended = await createSession(user.personId, SESSION_MAX_AGE_SECONDS);
  cookies.signedOut = `${LOCAL_SESSION_COOKIE}=${createLocalSessionToken({ personId: user.personId, sessionId: ended.id, expiresAt: ended.expires_at })}`;
  await deleteSession(ended.id);
  const others = await createSession(revoked.personId, SESSION_MAX_AGE_SECONDS);
  cookies.othersSession = `${LOCAL_SESSION_COOKIE}=${createLocalSessionToken({ personId: user.personId, sessionId: others.id, expiresAt: others.expires_at })}`;
  cookies.withoutSession = `${LOCAL_SESSION_COOKIE}=${signed({ sub: user.personId, exp: Math.floor(Date.now() / 1000) + 3600 })}`;
});

const PREFIX = "The API key is malformed: it does not start with lp_live_ or lp_test_.";
const SHAPE = "The API key is malformed: after its prefix a key has 49 letters and digits.";
const CHECKSUM =
  "The API key is malformed: its checksum does not match, so a character was changed or lost in copying.";

const NONE = "No credentials: send your API key as Authorization: Bearer <key> (or X-API-Key: <key>).";
const NOT_BEARER = "The Authorization header is not Bearer and a key: use Authorization: Bearer <key>.";
const EMPTY = "The API key is malformed: the X-API-Key header is empty.";
const UNKNOWN_OR_REVOKED =
  "The API key is unknown or revoked: use a key listed on the dashboard's API keys page (Settings), or create one.";
const EXPIRED = "The API key has expired: create a new one on the dashboard's API keys page (Settings).";
const SESSION_ENDED = "Your session has expired or is no longer valid: sign in again.";

/** How a request is refused, and the `message` of its 401, which says what is wrong with the credentials. */
const refusedCredentials: [string, () => Record<string, string>, string][] = [
  ["no credentials", () => ({}), NONE],
  ["an empty X-API-Key", () => ({ "x-api-key": "" }), EMPTY],
  ["a malformed X-API-Key", () => ({ "x-api-key": "not-a-key" }), PREFIX],
  ["an X-API-Key cut short", () => ({ "x-api-key": user.key.slice(0, -3) }), SHAPE],
  ["a well-formed unknown X-API-Key", () => ({ "x-api-key": generateApiKey().key }), UNKNOWN_OR_REVOKED],
  ["a revoked X-API-Key", () => ({ "x-api-key": revoked.key }), UNKNOWN_OR_REVOKED],
  [
    "an X-API-Key with its last character changed",
    () => ({ "x-api-key": user.key.slice(0, -1) + (user.key.endsWith("A") ? "B" : "A") }),
    CHECKSUM,
  ],
  ["Authorization without the Bearer scheme", () => ({ authorization: user.key }), NOT_BEARER],
  [
    "Authorization: Basic",
    () => ({ authorization: `Basic ${Buffer.from(`x:${user.key}`).toString("base64")}` }),
    NOT_BEARER,
  ],
  ["Authorization: Bearer with no token", () => ({ authorization: "Bearer " }), NOT_BEARER],
  ["Authorization: Bearer with two tokens", () => ({ authorization: `Bearer ${user.key} extra` }), NOT_BEARER],
  ["an unknown Bearer key", () => ({ authorization: `Bearer ${generateApiKey().key}` }), UNKNOWN_OR_REVOKED],
  ["a revoked Bearer key", () => ({ authorization: `Bearer ${revoked.key}` }), UNKNOWN_OR_REVOKED],
  ["an expired X-API-Key", () => ({ "x-api-key": expiredKey }), EXPIRED],
  ["an expired Bearer key", () => ({ authorization: `Bearer ${expiredKey}` }), EXPIRED],
  ["an expired and revoked key", () => ({ authorization: `Bearer ${expiredRevokedKey}` }), UNKNOWN_OR_REVOKED],
  [
    "a bad X-API-Key even beside a good Bearer key",
    () => ({ "x-api-key": "nope", authorization: `Bearer ${user.key}` }),
    PREFIX,
  ],
  ["a Bearer key with a wrong prefix", () => ({ authorization: `Bearer ${user.key.replace("lp_", "xp_")}` }), PREFIX],
  [
    "a forged session cookie",
    () => ({ cookie: `${LOCAL_SESSION_COOKIE}=${forgeSession(user.accountId)}` }),
    SESSION_ENDED,
  ],
  ["an expired session cookie", () => ({ cookie: cookies.expired }), SESSION_ENDED],
  ["a session cookie of a deleted account", () => ({ cookie: cookies.deletedAccount }), SESSION_ENDED],
  ["the cookie of a session that was signed out", () => ({ cookie: cookies.signedOut }), SESSION_ENDED],
  ["a cookie naming another account's session", () => ({ cookie: cookies.othersSession }), SESSION_ENDED],
  ["a signed cookie that names no session", () => ({ cookie: cookies.withoutSession }), SESSION_ENDED],
  ["another site's cookie only", () => ({ cookie: "theme=dark" }), NONE],
];

const acceptedCredentials: [string, () => Record<string, string>][] = [
  ["X-API-Key", () => ({ "x-api-key": user.key })],
  ["Authorization: Bearer", () => ({ authorization: `Bearer ${user.key}` })],
  ["lower-case bearer scheme", () => ({ authorization: `bearer ${user.key}` })],
  ["a good X-API-Key beside a bad Bearer key", () => ({ "x-api-key": user.key, authorization: "Bearer nope" })],
  ["the session cookie", () => ({ cookie: cookies.live, origin: "http://localhost:3000" })],
];

function forgeSession(accountId: string): string {
  const payload = Buffer.from(
    JSON.stringify({ sub: accountId, sid: randomUUID(), exp: Math.floor(Date.now() / 1000) + 3600 }),
  ).toString("base64url");
  return `${payload}.${Buffer.alloc(32).toString("base64url")}`;
}

/** A payload signed with the server's own secret, as the cookie of a session that was never stored would be. */
function signed(payload: Record<string, unknown>): string {
  const data = Buffer.from(JSON.stringify(payload)).toString("base64url");
  return `${data}.${createHmac("sha256", process.env.SESSION_SECRET!).update(data).digest("base64url")}`;
}

describe.each(endpoints)("$name authentication", (endpoint) => {
  it.each(refusedCredentials)("refuses %s with the exact 401 body", async (_, headers, message) => {
    const id = await addressedId(endpoint, user, templateId);
    const sent = headers();
    const result = await call(endpoint.handler, endpoint.path(id), { ...endpoint.options(id), headers: sent });
    expect(result.status).toBe(401);
    expect(result.body).toEqual({ ...UNAUTHORIZED, message });
    // The answer never quotes what the request sent.
    for (const value of Object.values(sent).map((header) => header.replace(/^\w+ /, ""))) {
      if (value.length > 4) expect(JSON.stringify(result.body)).not.toContain(value);
    }
    expect(result.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.headers.get("x-ratelimit-limit")).toBeNull();
  });

  it.each(acceptedCredentials)("accepts %s", async (_, headers) => {
    const id = await addressedId(endpoint, user, templateId);
    const result = await call(endpoint.handler, endpoint.path(id), {
      ...endpoint.options(id),
      headers: headers(),
    });
    expect(result.status).toBe(endpoint.status ?? 200);
    expect(result.body.success).toBe(true);
    expect(result.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe("cross-site requests with the session cookie", () => {
  const cookie = () => cookies.live;
  const render = endpoints.find((e) => e.name === "POST /templates/{id}/render")!;

  it("refuses a cookie POST from another origin", async () => {
    const result = await call(render.handler, render.path(templateId), {
      ...render.options(templateId),
      headers: { cookie: cookie(), origin: "https://evil.example" },
    });
    expect(result.status).toBe(403);
    expect(result.body).toEqual({ error: "Cross-site request refused", code: "CSRF_REJECTED", success: false });
  });

  it("refuses a cookie POST that Fetch Metadata marks cross-site", async () => {
    const result = await call(render.handler, render.path(templateId), {
      ...render.options(templateId),
      headers: { cookie: cookie(), "sec-fetch-site": "cross-site" },
    });
    expect(result.status).toBe(403);
    expect(result.body.code).toBe("CSRF_REJECTED");
  });

  it("does not take the Origin's host from X-Forwarded-Host unless a trusted proxy writes it", async () => {
    const forged = { cookie: cookie(), origin: "https://evil.example", "x-forwarded-host": "evil.example" };
    const post = (headers: Record<string, string>) =>
      call(render.handler, render.path(templateId), { ...render.options(templateId), headers });
    const refused = await post({ ...forged, "x-forwarded-proto": "https" });
    expect([refused.status, refused.body]).toEqual([
      403,
      { error: "Cross-site request refused", code: "CSRF_REJECTED", success: false },
    ]);
    // The Host header the request came with still names the app.
    expect(
      (await post({ cookie: cookie(), origin: "http://app.internal:8080", host: "app.internal:8080" })).status,
    ).toBe(200);

    // Behind the proxy CLIENT_IP_HEADER names, and on Vercel, the proxy writes it: the public host is in it.
    for (const env of [{ CLIENT_IP_HEADER: "x-real-ip" }, { VERCEL: "1" }]) {
      await withEnv(env, async () => {
        const proxied = { cookie: cookie(), origin: "https://mail.acme.example", "x-forwarded-proto": "https" };
        expect((await post({ ...proxied, "x-forwarded-host": "mail.acme.example" })).status).toBe(200);
        const other = await post({ ...proxied, "x-forwarded-host": "app.acme.example" });
        expect([other.status, other.body.code]).toEqual([403, "CSRF_REJECTED"]);
      });
    }
  });

  it("lets an API-key POST through whatever its Origin", async () => {
    const result = await call(render.handler, render.path(templateId), {
      ...render.options(templateId),
      headers: { "x-api-key": user.key, origin: "https://elsewhere.example" },
    });
    expect(result.status).toBe(200);
  });

  it("lets a cookie GET through from any origin (reads change nothing)", async () => {
    const library = endpoints[0];
    const result = await call(library.handler, library.path(templateId), {
      headers: { cookie: cookie(), origin: "https://evil.example" },
    });
    expect(result.status).toBe(200);
  });
});
