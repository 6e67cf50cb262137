import { describe, expect, it } from "vitest";
import { POST as sendBatch } from "@/app/api/v1/send/batch/route";
import { POST as send } from "@/app/api/v1/send/route";
import { GET as getUsage } from "@/app/api/v1/usage/route";
import { createApiKey, listApiKeys } from "@/lib/api-keys/data";
import { getDb } from "@/lib/db/client";
import { addSendingDomain } from "@/lib/sending-domains/data";
import { auth, call, counter, sender, uniqueDomain, type Sender, type TestUser } from "../support/api";
import { admin, adminProcess } from "../support/admin";
import { addressedId, endpoints, senderEndpoints } from "../support/endpoints";

// The contract's list of what a sending_access key may call; everything else answers it 403.
const SENDING_ROUTES = [
  "POST /send",
  "POST /send/batch",
  "GET /emails",
  "GET /emails/{id}",
  "POST /emails/{id}/cancel",
  "GET /usage",
];

const INSUFFICIENT_SCOPE = {
  error: "API key not allowed",
  code: "INSUFFICIENT_SCOPE",
  success: false,
  message:
    "This API key has sending access only: it may send and batch-send, read and cancel emails, and read usage. Use a full-access key for this endpoint.",
};

async function keyFor(user: TestUser, options: Parameters<typeof createApiKey>[1]): Promise<string> {
  return (await createApiKey(user.accountId, options)).key;
}

describe("API key scopes: every route", () => {
  const routes = [...endpoints, ...senderEndpoints];

  it("the table covers every route of the contract's sending list", () => {
    expect(SENDING_ROUTES.filter((name) => !routes.some((route) => route.name === name))).toEqual([]);
  });

  it.each(routes)("$name with a sending_access key", async (endpoint) => {
    const user = await sender("free");
    const key = await keyFor(user, { name: "sending", scope: "sending_access" });
    const id = await addressedId(endpoint, user, user.welcomeId);
    const before = await counter(user, "api_calls");
    const result = await call(endpoint.handler, endpoint.path(id), {
      ...endpoint.options(id),
      headers: { "x-api-key": key },
    });
    if (SENDING_ROUTES.includes(endpoint.name)) {
      expect(result.status).toBe(200);
      expect(await counter(user, "api_calls")).toBe(before + (endpoint.metered ? 1 : 0));
    } else {
      expect([result.status, result.body]).toEqual([403, INSUFFICIENT_SCOPE]);
      expect(result.headers.get("x-ratelimit-remaining")).toBeNull();
      expect(await counter(user, "api_calls")).toBe(before);
    }
  });

  it.each(routes)("$name with a full_access key", async (endpoint) => {
    const user = await sender("free");
    const id = await addressedId(endpoint, user, user.welcomeId);
    const result = await call(endpoint.handler, endpoint.path(id), { ...endpoint.options(id), headers: auth(user) });
    expect(result.status).toBe(endpoint.status ?? 200);
  });
});

describe("API key records", () => {
  it("an expired key answers 401; one expiring later works", async () => {
    const user = await sender("free");
    const expired = await keyFor(user, { name: "old", expiresAt: new Date(Date.now() - 1000) });
    const later = await keyFor(user, { name: "new", expiresAt: new Date(Date.now() + 3600_000) });
    const refused = await call(getUsage, "/api/v1/usage", { headers: { "x-api-key": expired } });
    expect([refused.status, refused.body]).toEqual([
      401,
      {
        error: "Authentication required",
        code: "UNAUTHORIZED",
        success: false,
        message: "The API key has expired: create a new one on the dashboard's API keys page (Settings).",
      },
    ]);
    expect((await call(getUsage, "/api/v1/usage", { headers: { authorization: `Bearer ${later}` } })).status).toBe(200);
  });

  it("a key with a wrong checksum is refused before any database read", async () => {
    const user = await sender("free");
    const key = await keyFor(user, { name: "typo" });
    const typo = key.slice(0, -1) + (key.at(-1) === "a" ? "b" : "a");
    // Stored under the typo's hash too: only the checksum can refuse it.
    await getDb()`update api_keys set key_hash = encode(sha256(convert_to(${typo}, 'UTF8')), 'hex') where name = 'typo'
                  and account_id = ${user.accountId}`;
    const refused = await call(getUsage, "/api/v1/usage", { headers: { "x-api-key": typo } });
    expect([refused.status, refused.body]).toEqual([
      401,
      {
        error: "Authentication required",
        code: "UNAUTHORIZED",
        success: false,
        message:
          "The API key is malformed: its checksum does not match, so a character was changed or lost in copying.",
      },
    ]);
  });

  it("records name, kind, scope, domain, expiry and last use", async () => {
    const user = await sender("free");
    const expiresAt = new Date(Date.now() + 86_400_000);
    const created = await createApiKey(user.accountId, {
      name: "ci",
      kind: "test",
      scope: "sending_access",
      domain: user.domain.toUpperCase(),
      expiresAt,
    });
    expect(created.key).toMatch(/^lp_test_[0-9A-Za-z]{49}$/);
    await call(getUsage, "/api/v1/usage", { headers: { "x-api-key": created.key } });
    const listed = (await listApiKeys(user.accountId)).find((key) => key.id === created.id);
    expect(listed).toEqual({
      id: created.id,
      name: "ci",
      kind: "test",
      scope: "sending_access",
      domain: user.domain,
      display_fragment: `lp_test_…${created.key.slice(-4)}`,
      created_at: expect.any(Date),
      last_used_at: expect.any(Date),
      expires_at: expiresAt,
      revoked_at: null,
    });
    await expect(createApiKey(user.accountId, { name: "x", domain: "elsewhere.example" })).rejects.toMatchObject({
      name: "AppError",
      code: "DOMAIN_NOT_FOUND",
    });
  });
});

describe("a key bound to a sending domain", () => {
  async function boundSender(): Promise<Sender & { other: string; bound: string }> {
    const user = await sender("monthly");
    const other = uniqueDomain();
    await addSendingDomain(user.accountId, { domain: other, verified: true });
    const bound = await keyFor(user, { name: "bound", scope: "sending_access", domain: other });
    return { ...user, other, bound };
  }
  const post = (user: Sender & { bound: string }, extra: Record<string, unknown>) =>
    call(send, "/api/v1/send", {
      method: "POST",
      headers: { "x-api-key": user.bound },
      body: { template_id: user.welcomeId, to: "ann@example.com", subject: "Hi", ...extra },
    });

  it("sends only from its domain: another of the account's is 400 with field from", async () => {
    const user = await boundSender();
    const refused = await post(user, { from: `hello@${user.domain}` });
    expect([refused.status, refused.body]).toEqual([
      400,
      {
        error: "Invalid request body",
        code: "VALIDATION_ERROR",
        success: false,
        details: [
          {
            field: "from",
            message: `This API key sends only from ${user.other}: from must be an address @${user.other}`,
          },
        ],
      },
    ]);
    const sent = await post(user, { from: `Acme <news@${user.other}>` });
    expect([sent.status, sent.body.data.from]).toEqual([200, `Acme <news@${user.other}>`]);
    // Without from: the bound domain's default sender.
    const defaulted = await post(user, {});
    expect([defaulted.status, defaulted.body.data.from]).toEqual([200, `hello@${user.other}`]);
  });

  it("holds in a batch too, item by item", async () => {
    const user = await boundSender();
    const result = await call(sendBatch, "/api/v1/send/batch", {
      method: "POST",
      headers: { "x-api-key": user.bound },
      body: {
        emails: [
          { template_id: user.welcomeId, to: "ann@example.com", subject: "Hi", from: `a@${user.other}` },
          { template_id: user.welcomeId, to: "ann@example.com", subject: "Hi", from: `a@${user.domain}` },
        ],
      },
    });
    expect([result.status, result.body.details]).toEqual([
      400,
      [
        {
          field: "emails.1.from",
          message: `This API key sends only from ${user.other}: from must be an address @${user.other}`,
        },
      ],
    ]);
  });
});

describe("the CLI", () => {
  it(
    "key:create makes test, sending-only, domain-bound and expiring keys; key:list shows them",
    { timeout: 90_000 },
    async () => {
      const user = await sender("free");
      const created = await adminProcess([
        "key:create",
        "--email",
        user.email,
        "--name",
        "ci",
        "--test",
        "--scope",
        "sending_access",
        "--domain",
        user.domain,
        "--expires-in-days",
        "30",
      ]);
      expect(created).toEqual({
        id: expect.any(String),
        key: expect.stringMatching(/^lp_test_[0-9A-Za-z]{49}$/),
        kind: "test",
        scope: "sending_access",
        domain: user.domain,
        expires_at: expect.any(String),
      });
      expect(Math.abs(Date.parse(created.expires_at) - (Date.now() + 30 * 86_400_000))).toBeLessThan(120_000);
      const listed = await admin(["key:list", "--email", user.email]);
      expect(listed.map((k: { name: string; kind: string; scope: string }) => [k.name, k.kind, k.scope])).toEqual([
        ["ci", "test", "sending_access"],
        ["test key", "live", "full_access"],
      ]);
      expect(JSON.stringify(listed)).not.toContain(created.key);
      await expect(admin(["key:create", "--email", user.email, "--scope", "everything"])).rejects.toThrow(
        /--scope must be one of full_access, sending_access/,
      );
    },
  );
});
