import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { beforeEach, describe, expect, it } from "vitest";
import { POST as send } from "@/app/api/v1/send/route";
import { onboardingState } from "@/lib/dashboard/queries";
import { getDb } from "@/lib/db/client";
import { listOutbox } from "@/lib/sent-emails/data/outbox";
import { addSendingDomain, findSendingDomain, listSendingDomainDetails } from "@/lib/sending-domains/data";
import { httpError } from "@/lib/api/errors";
import { AppError } from "@/lib/core/errors";
import { isVerifiedForSending, registerSendingDomain, verifySendingDomain } from "@/lib/sending-domains/service";
import { admin, adminProcess } from "../support/admin";
import { addToLibrary, auth, call, catalogueId, createUser, type TestUser } from "../support/api";
import { setTestEnv } from "../support/env";
import { type ResendReply, type ResendRequest, useResendStandIn } from "../support/resend-stand-in";

// Sending domains: through Resend's domains API (tests/support/resend-stand-in.ts answering as it does, recording every
// request and keeping the domains it was given), and in the embedded default where DNS is simulated.

// Each test points the app at it, or not (useResend, useEmbedded).
const resend = useResendStandIn({ configure: false, recordEvery: true });
/** The stand-in's domains: id -> name and the status GET /domains/:id reports. */
let remote = new Map<string, { name: string; status: string }>();
/** Answers instead of the stand-in's routes when it returns a reply (failures). */
let override: ((request: ResendRequest) => ResendReply | undefined) | null = null;
const API_KEY = "re_test_domains_0123456789";

const records = (status: string) => [
  {
    record: "SPF",
    name: "send",
    type: "MX",
    ttl: "Auto",
    status,
    value: "feedback-smtp.us-east-1.amazonses.com",
    priority: 10,
  },
  { record: "SPF", name: "send", type: "TXT", ttl: "Auto", status, value: '"v=spf1 include:amazonses.com ~all"' },
  {
    record: "DKIM",
    name: "resend._domainkey",
    type: "TXT",
    ttl: "Auto",
    status,
    value: "p=MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQDs",
  },
];
const recordStatus = (status: string) =>
  ["verified", "pending", "failed", "not_started"].includes(status) ? status : "pending";
const notFound: ResendReply = {
  status: 404,
  body: { statusCode: 404, name: "not_found", message: "Domain not found" },
};

function route(request: ResendRequest): ResendReply {
  const created = new Date().toISOString();
  if (request.method === "POST" && request.url === "/domains") {
    const id = randomUUID();
    remote.set(id, { name: request.body.name, status: "not_started" });
    return {
      status: 200,
      body: {
        id,
        name: request.body.name,
        created_at: created,
        status: "not_started",
        region: "us-east-1",
        records: records("not_started"),
      },
    };
  }
  if (request.method === "POST" && request.url === "/emails")
    return { status: 200, body: { id: `re_${randomUUID()}` } };
  const verify = /^\/domains\/([^/]+)\/verify$/.exec(request.url);
  if (request.method === "POST" && verify)
    return remote.has(verify[1]) ? { status: 200, body: { object: "domain", id: verify[1] } } : notFound;
  const get = /^\/domains\/([^/]+)$/.exec(request.url);
  if (request.method === "GET" && get) {
    const domain = remote.get(get[1]);
    if (!domain) return notFound;
    return {
      status: 200,
      body: {
        object: "domain",
        id: get[1],
        name: domain.name,
        status: domain.status,
        created_at: created,
        region: "us-east-1",
        records: records(recordStatus(domain.status)),
      },
    };
  }
  return { status: 404, body: { statusCode: 404, name: "not_found", message: "Route not found" } };
}

beforeEach(() => {
  remote = new Map();
  override = null;
  resend.reply = (request) => override?.(request) ?? route(request);
});

/** Resend at `url` for the rest of the test (from a beforeEach, for its test). */
function useResend(url = resend.url) {
  setTestEnv({ RESEND_API_KEY: API_KEY, RESEND_BASE_URL: url });
}

/** The embedded outbox and simulated DNS for the rest of the test (from a beforeEach, for its test). */
function useEmbedded() {
  setTestEnv({ RESEND_API_KEY: undefined, RESEND_BASE_URL: undefined });
}

async function closedPortUrl(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** A user with `welcome` in the library and no sending domain yet. */
async function user(): Promise<TestUser & { welcomeId: string }> {
  const created = await createUser();
  await addToLibrary(created, "welcome");
  return { ...created, welcomeId: await catalogueId("welcome") };
}

const sendFrom = (u: TestUser & { welcomeId: string }, from?: string) =>
  call(send, "/api/v1/send", {
    method: "POST",
    headers: auth(u),
    body: { template_id: u.welcomeId, to: "ann@example.com", subject: "Hi", ...(from === undefined ? {} : { from }) },
  });

async function expectFromRefused(u: TestUser & { welcomeId: string }, from?: string) {
  const result = await sendFrom(u, from);
  expect(result.status).toBe(400);
  expect(result.body).toMatchObject({
    code: "VALIDATION_ERROR",
    details: [{ field: "from", message: expect.any(String) }],
  });
}

const storedRow = async (accountId: string) => {
  const rows = await getDb()`
    select domain, verified, verified_at, default_sender, provider_domain_id, provider_status, dns_records
    from sending_domains where account_id = ${accountId}`;
  expect(rows.length).toBeLessThanOrEqual(1);
  return rows[0];
};

const requests = () => resend.received.map((r) => `${r.method} ${r.url}`);

/** A domain belongs to one account and every test's users share one database: each test adds its own domain. */
let D = "";
beforeEach(() => {
  D = `acme-${randomUUID().slice(0, 8)}.example`;
});
const escaped = (text: string) => text.replace(/\./g, "\\.");

describe("sending domains with Resend configured", () => {
  beforeEach(() => useResend());

  it("creates the domain at Resend and stores its id, status and DNS records; markVerified is not trusted", async () => {
    const u = await user();
    const outcome = await registerSendingDomain(u.accountId, {
      domain: ` ${D.toUpperCase()} `,
      defaultSender: `news@${D}`,
      markVerified: true,
    });

    expect(resend.received).toHaveLength(1);
    expect(resend.received[0]).toMatchObject({ method: "POST", url: "/domains", body: { name: D } });
    expect(resend.received[0].body).toEqual({ name: D });
    expect(resend.received[0].headers.authorization).toBe(`Bearer ${API_KEY}`);
    const [providerId] = [...remote.keys()];

    expect(outcome.mode).toBe("resend");
    expect(outcome.message).toMatch(/not verified yet \(Resend status: not_started\).*3 DNS records/);
    expect(outcome.message).toMatch(/markVerified was ignored/);
    expect(outcome.domain).toMatchObject({
      domain: D,
      verified: false,
      verified_at: null,
      default_sender: `news@${D}`,
      provider_domain_id: providerId,
      provider_status: "not_started",
      dns_records: records("not_started"),
    });
    expect(await storedRow(u.accountId)).toEqual({
      domain: D,
      verified: false,
      verified_at: null,
      default_sender: `news@${D}`,
      provider_domain_id: providerId,
      provider_status: "not_started",
      dns_records: records("not_started"),
    });
  });

  it("refuses the domain as from in POST /send until Resend reports it verified, then sends from it", async () => {
    const u = await user();
    const { domain } = await registerSendingDomain(u.accountId, { domain: D, defaultSender: `news@${D}` });
    const providerId = domain.provider_domain_id!;
    resend.received = [];

    await expectFromRefused(u, `News <news@${D}>`);
    await expectFromRefused(u); // no verified domain, so no default sender either
    expect(resend.received).toEqual([]);

    // Resend has not seen the records yet.
    remote.get(providerId)!.status = "pending";
    const pending = await verifySendingDomain(u.accountId, domain.id);
    expect(requests()).toEqual([`POST /domains/${providerId}/verify`, `GET /domains/${providerId}`]);
    expect(resend.received[0].body).toBeUndefined();
    expect(resend.received[1].headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(pending.domain).toMatchObject({
      verified: false,
      verified_at: null,
      provider_status: "pending",
      dns_records: records("pending"),
    });
    expect(pending.message).toMatch(/Resend status: pending/);
    await expectFromRefused(u, `news@${D}`);

    // The records are published and Resend says so.
    remote.get(providerId)!.status = "verified";
    resend.received = [];
    const verified = await verifySendingDomain(u.accountId, domain.id);
    expect(requests()).toEqual([`POST /domains/${providerId}/verify`, `GET /domains/${providerId}`]);
    expect(verified.message).toMatch(/verified by Resend/);
    expect(verified.domain).toMatchObject({
      verified: true,
      provider_status: "verified",
      dns_records: records("verified"),
    });
    expect(verified.domain.verified_at).toBeInstanceOf(Date);
    expect(await storedRow(u.accountId)).toMatchObject({
      verified: true,
      provider_status: "verified",
      dns_records: records("verified"),
    });

    resend.received = [];
    const sent = await sendFrom(u, `News <news@${D}>`);
    expect(sent.status).toBe(200);
    expect(sent.body.data.from).toBe(`News <news@${D}>`);
    expect(requests()).toEqual(["POST /emails"]);
    expect(resend.received[0].body.from).toBe(`News <news@${D}>`);
    const defaulted = await sendFrom(u);
    expect(defaulted.status).toBe(200);
    expect(defaulted.body.data.from).toBe(`news@${D}`);

    // Verifying again keeps the first verified_at.
    const again = await verifySendingDomain(u.accountId, domain.id);
    expect(again.domain.verified_at).toEqual(verified.domain.verified_at);
  });

  it("follows Resend when a verified domain stops being verified", async () => {
    const u = await user();
    const { domain } = await registerSendingDomain(u.accountId, { domain: D });
    remote.get(domain.provider_domain_id!)!.status = "verified";
    expect((await verifySendingDomain(u.accountId, domain.id)).domain.verified).toBe(true);
    expect((await sendFrom(u, `hello@${D}`)).status).toBe(200);

    remote.get(domain.provider_domain_id!)!.status = "failed";
    const failed = await verifySendingDomain(u.accountId, domain.id);
    expect(failed.domain).toMatchObject({
      verified: false,
      verified_at: null,
      provider_status: "failed",
      dns_records: records("failed"),
    });
    await expectFromRefused(u, `hello@${D}`);
  });

  it("registering again re-reads the domain instead of creating it twice, and keeps the default sender", async () => {
    const u = await user();
    const first = await registerSendingDomain(u.accountId, { domain: D, defaultSender: `news@${D}` });
    const providerId = first.domain.provider_domain_id!;
    remote.get(providerId)!.status = "pending";
    resend.received = [];

    const again = await registerSendingDomain(u.accountId, { domain: D });
    expect(requests()).toEqual([`GET /domains/${providerId}`]);
    expect(again.domain).toMatchObject({
      id: first.domain.id,
      provider_domain_id: providerId,
      provider_status: "pending",
      default_sender: `news@${D}`,
    });

    const renamed = await registerSendingDomain(u.accountId, { domain: D, defaultSender: `letters@${D}` });
    expect(renamed.domain.default_sender).toBe(`letters@${D}`);

    // Deleted at Resend in the meantime: created again.
    remote.clear();
    resend.received = [];
    const recreated = await registerSendingDomain(u.accountId, { domain: D });
    expect(requests()).toEqual([`GET /domains/${providerId}`, "POST /domains"]);
    expect(recreated.domain.provider_domain_id).not.toBe(providerId);
    expect(recreated.domain).toMatchObject({ id: first.domain.id, provider_status: "not_started", verified: false });
    expect(await listSendingDomainDetails(u.accountId)).toHaveLength(1);
  });

  it("does not carry a simulated verification over: Resend decides once it is configured", async () => {
    const u = await user();
    useEmbedded();
    const embedded = await registerSendingDomain(u.accountId, { domain: D, markVerified: true });
    expect(embedded.domain).toMatchObject({ verified: true, provider_domain_id: null });
    expect(resend.received).toEqual([]);

    useResend();
    const checked = await verifySendingDomain(u.accountId, embedded.domain.id);
    const [providerId] = [...remote.keys()];
    expect(requests()).toEqual(["POST /domains", `POST /domains/${providerId}/verify`, `GET /domains/${providerId}`]);
    expect(resend.received[0].body).toEqual({ name: D });
    expect(checked.domain).toMatchObject({
      id: embedded.domain.id,
      verified: false,
      verified_at: null,
      provider_domain_id: providerId,
      provider_status: "not_started",
    });
    await expectFromRefused(u, `hello@${D}`);
  });

  it("refuses a domain verified while DNS was simulated as from until Resend verifies it", async () => {
    const u = await user();
    useEmbedded();
    await registerSendingDomain(u.accountId, { domain: D, markVerified: true });
    expect((await sendFrom(u, `hello@${D}`)).status).toBe(200);

    useResend();
    resend.received = [];
    for (const from of [`hello@${D}`, undefined]) {
      const refused = await sendFrom(u, from);
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({
        error: "Invalid request body",
        code: "VALIDATION_ERROR",
        success: false,
        details: [
          {
            field: "from",
            message:
              from === undefined
                ? "from is required: you have no verified sending domain. Add and verify a domain first."
                : "from must be an address on a verified sending domain, and you have none. Add and verify a domain first.",
          },
        ],
      });
    }
    expect(resend.received).toEqual([]); // nothing handed to Resend
    const [listed] = await listSendingDomainDetails(u.accountId);
    expect(isVerifiedForSending(listed)).toBe(false);
    // The overview's getting-started step is not done either.
    expect((await onboardingState(u.accountId)).hasVerifiedDomain).toBe(false);

    const checked = await verifySendingDomain(u.accountId, listed.id);
    remote.get(checked.domain.provider_domain_id!)!.status = "verified";
    expect((await verifySendingDomain(u.accountId, listed.id)).domain).toMatchObject({
      verified: true,
      provider_status: "verified",
    });
    expect((await sendFrom(u, `hello@${D}`)).status).toBe(200);
    expect((await onboardingState(u.accountId)).hasVerifiedDomain).toBe(true);
  });

  it("a domain belongs to one account: another account adding it (any case) gets DOMAIN_TAKEN (409) before Resend is asked", async () => {
    const owner = await user();
    const { domain } = await registerSendingDomain(owner.accountId, { domain: D });
    const other = await user();
    resend.received = [];
    for (const name of [D, D.toUpperCase()]) {
      const error = await registerSendingDomain(other.accountId, { domain: name }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError); // the dashboard shows its message
      expect(httpError(error as AppError).status).toBe(409);
      expect(error).toMatchObject({
        code: "DOMAIN_TAKEN",
        message: `${D} is already registered by another account. A sending domain belongs to one account only.`,
      });
    }
    expect(resend.received).toEqual([]);
    expect(await listSendingDomainDetails(other.accountId)).toEqual([]);
    // The owner keeps it, and may register it again.
    expect((await registerSendingDomain(owner.accountId, { domain: D })).domain.id).toBe(domain.id);

    useEmbedded();
    await expect(registerSendingDomain(other.accountId, { domain: D, markVerified: true })).rejects.toMatchObject({
      code: "DOMAIN_TAKEN",
    });
    await expect(addSendingDomain(other.accountId, { domain: D, verified: true })).rejects.toMatchObject({
      code: "DOMAIN_TAKEN",
    });
    expect(await listSendingDomainDetails(other.accountId)).toEqual([]);
  });

  const failures: [string, ResendReply | "closed port", number | null, string | null, RegExp][] = [
    [
      "422 validation error",
      { status: 422, body: { statusCode: 422, name: "validation_error", message: "The domain is invalid." } },
      422,
      "validation_error",
      /HTTP 422 validation_error: The domain is invalid\./,
    ],
    [
      "403 already registered",
      {
        status: 403,
        body: {
          statusCode: 403,
          name: "validation_error",
          message: "The domain acme.example has been registered already.",
        },
      },
      403,
      "validation_error",
      /HTTP 403 .*registered already/,
    ],
    [
      "500 with a body that is not JSON",
      { status: 500, body: "<html>oops</html>" },
      500,
      "application_error",
      /HTTP 500/,
    ],
    ["network failure (closed port)", "closed port", null, "application_error", /Resend could not be reached/],
  ];

  it.each(failures)(
    "adding: %s is an EMAIL_PROVIDER_ERROR carrying Resend's answer, and nothing is stored",
    async (_name, failure, statusCode, providerCode, message) => {
      const u = await user();
      if (failure === "closed port") useResend(await closedPortUrl());
      else override = () => failure;
      const error = await registerSendingDomain(u.accountId, { domain: D }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError); // the dashboard shows an AppError's message
      expect(error).toMatchObject({
        code: "EMAIL_PROVIDER_ERROR",
        options: { provider: { status: statusCode, code: providerCode } },
        message: expect.stringMatching(message),
      });
      expect((error as Error).message).toMatch(new RegExp(`^Could not add ${escaped(D)} to Resend: `));
      expect(await findSendingDomain(u.accountId, D)).toBeNull();
    },
  );

  it("verifying: a Resend failure on either request is an EMAIL_PROVIDER_ERROR and the stored state is unchanged", async () => {
    const u = await user();
    const { domain } = await registerSendingDomain(u.accountId, { domain: D });
    const providerId = domain.provider_domain_id!;
    remote.get(providerId)!.status = "verified";
    resend.received = [];

    override = (r) =>
      r.url.endsWith("/verify")
        ? { status: 429, body: { statusCode: 429, name: "rate_limit_exceeded", message: "Too many requests." } }
        : undefined;
    const refused = await verifySendingDomain(u.accountId, domain.id).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({
      code: "EMAIL_PROVIDER_ERROR",
      options: { provider: { status: 429, code: "rate_limit_exceeded" } },
      message: `Could not ask Resend to verify ${D}: Resend answered HTTP 429 rate_limit_exceeded: Too many requests.`,
    });
    expect(requests()).toEqual([`POST /domains/${providerId}/verify`]); // no GET after a failed verify

    resend.received = [];
    override = (r) =>
      r.method === "GET"
        ? { status: 500, body: { statusCode: 500, name: "internal_server_error", message: "Unexpected failure." } }
        : undefined;
    const failed = await verifySendingDomain(u.accountId, domain.id).catch((e: unknown) => e);
    expect(failed).toMatchObject({
      code: "EMAIL_PROVIDER_ERROR",
      options: { provider: { status: 500 } },
      message: expect.stringMatching(new RegExp(`^Could not read ${escaped(D)} from Resend: .*HTTP 500`)),
    });
    expect(requests()).toEqual([`POST /domains/${providerId}/verify`, `GET /domains/${providerId}`]);
    expect(await storedRow(u.accountId)).toMatchObject({
      verified: false,
      provider_status: "not_started",
      dns_records: records("not_started"),
    });
  });

  it("refuses a bad domain, a sender off the domain, and another account's domain before calling Resend", async () => {
    const u = await user();
    await expect(registerSendingDomain(u.accountId, { domain: "not a domain" })).rejects.toThrow(AppError);
    await expect(registerSendingDomain(u.accountId, { domain: "localhost" })).rejects.toThrow(/is not a domain name/);
    await expect(registerSendingDomain(u.accountId, { domain: D, defaultSender: "me@other.example" })).rejects.toThrow(
      `The default sender must be an address @${D}`,
    );
    await expect(registerSendingDomain(u.accountId, { domain: D, defaultSender: `me@sub.${D}` })).rejects.toThrow(
      AppError,
    );
    expect(resend.received).toEqual([]);

    const { domain } = await registerSendingDomain(u.accountId, { domain: D });
    const other = await user();
    resend.received = [];
    await expect(verifySendingDomain(other.accountId, domain.id)).rejects.toThrow(
      "No sending domain with this id on your account",
    );
    await expect(verifySendingDomain(u.accountId, "not-an-id")).rejects.toThrow(AppError);
    await expect(verifySendingDomain(u.accountId, randomUUID())).rejects.toThrow(AppError);
    expect(resend.received).toEqual([]);
  });
});

describe("sending domains in the embedded default (no RESEND_API_KEY)", () => {
  beforeEach(() => useEmbedded());

  it("markVerified stands in for DNS; verifying is a no-op that says DNS is simulated", async () => {
    const u = await user();
    const added = await registerSendingDomain(u.accountId, { domain: D });
    expect(added.mode).toBe("embedded");
    expect(added.message).toMatch(/not verified.*DNS is simulated/);
    expect(added.domain).toMatchObject({
      domain: D,
      verified: false,
      default_sender: `hello@${D}`,
      provider_domain_id: null,
      provider_status: null,
      dns_records: null,
    });
    await expectFromRefused(u, `hello@${D}`);

    const checked = await verifySendingDomain(u.accountId, added.domain.id);
    expect(checked.mode).toBe("embedded");
    expect(checked.message).toMatch(/Nothing to check.*DNS is simulated/);
    expect(checked.domain).toEqual(added.domain);
    await expectFromRefused(u, `hello@${D}`);

    const marked = await registerSendingDomain(u.accountId, { domain: D, markVerified: true });
    expect(marked.domain).toMatchObject({ id: added.domain.id, verified: true, default_sender: `hello@${D}` });
    expect(marked.domain.verified_at).toBeInstanceOf(Date);
    expect(marked.message).toMatch(/is verified/);

    const sent = await sendFrom(u, `Acme <hello@${D}>`);
    expect(sent.status).toBe(200);
    expect((await listOutbox(u.accountId)).map((m) => m.from)).toEqual([`Acme <hello@${D}>`]);
    expect(resend.received).toEqual([]);
  });

  it("keeps the verified flag and the default sender when the domain is added again", async () => {
    const u = await user();
    await registerSendingDomain(u.accountId, { domain: D, markVerified: true, defaultSender: `news@${D}` });
    const again = await registerSendingDomain(u.accountId, { domain: D.toUpperCase() });
    expect(again.domain).toMatchObject({ verified: true, default_sender: `news@${D}` });
    expect(await listSendingDomainDetails(u.accountId)).toHaveLength(1);
  });
});

describe("who may add a domain", () => {
  beforeEach(() => useEmbedded());

  const OVERLAPS = (name: string) =>
    `${name} is a parent or sub-domain of a domain another account has verified. A domain and its sub-domains belong to one account only.`;
  const SHARED = "shared.letterpress.example";
  const shared = (name: string) =>
    `${name} is reserved: ${SHARED} is this service's shared sending domain, and neither it nor its parent and sub-domains can be added. Every account may send from an address @${SHARED} without adding it.`;
  // tests/support/setup.ts: SYSTEM_EMAIL_FROM is Letterpress <no-reply@letterpress.test>.
  const system = (name: string) =>
    `${name} is reserved: this service sends its own email from letterpress.test, and neither it nor its parent and sub-domains can be added.`;
  const refusal = (accountId: string, domain: string) =>
    registerSendingDomain(accountId, { domain, markVerified: true }).catch((e: unknown) => e);

  it("refuses another account's parent and sub-domains (409 DOMAIN_TAKEN); its own sub-domains and unrelated domains are added", async () => {
    const owner = await user();
    await registerSendingDomain(owner.accountId, { domain: `mail.${D}`, markVerified: true });
    const other = await user();
    for (const name of [D, `news.mail.${D}`, `NEWS.Mail.${D.toUpperCase()}`]) {
      const error = await refusal(other.accountId, name);
      expect(httpError(error as AppError).status).toBe(409);
      expect(error).toMatchObject({ code: "DOMAIN_TAKEN", message: OVERLAPS(name.toLowerCase()) });
    }
    expect(await listSendingDomainDetails(other.accountId)).toEqual([]);

    // An account may add (and verify) the parent and further sub-domains of its own domain.
    for (const name of [`news.mail.${D}`, D]) {
      expect((await registerSendingDomain(owner.accountId, { domain: name, markVerified: true })).domain.domain).toBe(
        name,
      );
    }
    // Now the owner has verified D, every sub-domain of it is the owner's to add.
    expect(await refusal(other.accountId, `shop.${D}`)).toMatchObject({ message: OVERLAPS(`shop.${D}`) });
    expect((await listSendingDomainDetails(owner.accountId)).map((d) => d.domain)).toEqual([
      `mail.${D}`,
      `news.mail.${D}`,
      D,
    ]);

    // Unrelated: another domain, and names that only end in the same letters as the owner's.
    const F = `f-${D}`;
    await registerSendingDomain(owner.accountId, { domain: `mail.${F}` });
    for (const name of [`b-${D}`, `xmail.${F}`, `ail.${F}`]) {
      expect((await registerSendingDomain(other.accountId, { domain: name })).domain.domain).toBe(name);
    }
  });

  it("holds in PostgreSQL: the insert itself is refused, and of two accounts adding a domain and its parent at once one wins", async () => {
    const owner = await user();
    await addSendingDomain(owner.accountId, { domain: `mail.${D}`, verified: true });
    const other = await user();
    await expect(addSendingDomain(other.accountId, { domain: D, verified: true })).rejects.toThrow(OVERLAPS(D));
    await expect(
      getDb()`insert into sending_domains (account_id, domain, verified) values (${other.accountId}, ${`a.mail.${D}`}, true)`,
    ).rejects.toMatchObject({ code: "23P01", constraint_name: "sending_domains_overlap" });
    expect(await listSendingDomainDetails(other.accountId)).toEqual([]);

    const [first, second] = [await user(), await user()];
    const E = `race-${D}`;
    const outcomes = await Promise.allSettled([
      registerSendingDomain(first.accountId, { domain: E, markVerified: true }),
      registerSendingDomain(second.accountId, { domain: `mail.${E}`, markVerified: true }),
    ]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(["fulfilled", "rejected"]);
    const refused = outcomes.find((o) => o.status === "rejected")!;
    expect(refused.reason).toMatchObject({ name: "AppError", code: "DOMAIN_TAKEN" });
  });

  it("refuses the shared sending domain and the system sender's domain, their parents and sub-domains, to every account", async () => {
    setTestEnv({ SHARED_SENDING_DOMAIN: SHARED });
    const u = await user();
    const cases: [string, string][] = [
      [SHARED, shared(SHARED)],
      [SHARED.toUpperCase(), shared(SHARED)],
      ["letterpress.example", shared("letterpress.example")],
      [`acme.${SHARED}`, shared(`acme.${SHARED}`)],
      ["letterpress.test", system("letterpress.test")],
      ["mail.letterpress.test", system("mail.letterpress.test")],
    ];
    for (const [name, message] of cases) {
      const error = await refusal(u.accountId, name);
      expect(error).toBeInstanceOf(AppError);
      expect((error as Error).message).toBe(message);
      await expect(addSendingDomain(u.accountId, { domain: name, verified: true })).rejects.toThrow(message);
    }
    useResend();
    resend.received = [];
    expect(await refusal(u.accountId, SHARED)).toMatchObject({ message: shared(SHARED) });
    expect(resend.received).toEqual([]);
    expect(await listSendingDomainDetails(u.accountId)).toEqual([]);
    // Names that only end in the same letters are not reserved.
    useEmbedded();
    const lookalike = `${D.split(".")[0]}letterpress.test`;
    expect((await registerSendingDomain(u.accountId, { domain: lookalike })).domain.domain).toBe(lookalike);
  });

  it("keeps no one out with a claim nobody verified: of two such claims, the first verified wins", async () => {
    const [squatter, owner, late] = [await user(), await user(), await user()];
    await registerSendingDomain(squatter.accountId, { domain: D });
    await registerSendingDomain(late.accountId, { domain: `news.${D}` });
    expect(
      (await registerSendingDomain(owner.accountId, { domain: `mail.${D}`, markVerified: true })).domain,
    ).toMatchObject({
      domain: `mail.${D}`,
      verified: true,
    });
    // The owner verified first: the others' claims stay unverified, and cannot be verified.
    expect(await refusal(squatter.accountId, D)).toMatchObject({ message: OVERLAPS(D) });
    await expect(
      getDb()`update sending_domains set verified = true where account_id = ${squatter.accountId}`,
    ).rejects.toMatchObject({ code: "23P01", constraint_name: "sending_domains_overlap" });
    expect((await listSendingDomainDetails(squatter.accountId)).map((d) => [d.domain, d.verified])).toEqual([
      [D, false],
    ]);
    // A sibling of the owner's, under the squatter's unverified claim, is verified.
    expect(
      (await registerSendingDomain(late.accountId, { domain: `news.${D}`, markVerified: true })).domain.verified,
    ).toBe(true);
  });

  it("refuses another account's parent or sub-domain before Resend is asked", async () => {
    useResend();
    const owner = await user();
    await addSendingDomain(owner.accountId, { domain: `mail.${D}`, verified: true });
    const other = await user();
    resend.received = [];
    expect(await refusal(other.accountId, D)).toMatchObject({ message: OVERLAPS(D) });
    expect(resend.received).toEqual([]);
  });
});

describe("the CLI", () => {
  it(
    "domain:add --verified stands in for DNS in the embedded default; with Resend it is ignored and domain:verify asks Resend",
    { timeout: 90_000 },
    async () => {
      const embedded = await createUser();
      const added = await adminProcess(["domain:add", "--email", embedded.email, "--domain", D, "--verified"]);
      expect(added).toMatchObject({
        mode: "embedded",
        domain: { domain: D, verified: true, provider_domain_id: null },
      });
      useEmbedded();
      const checked = await admin(["domain:verify", "--email", embedded.email, "--domain", D]);
      expect(checked).toMatchObject({
        mode: "embedded",
        domain: { verified: true },
        message: expect.stringMatching(/DNS is simulated/),
      });

      const withResend = await createUser();
      useResend();
      // Another domain: a domain belongs to one account.
      const theirs = `b-${D}`;
      const registered = await admin(["domain:add", "--email", withResend.email, "--domain", theirs, "--verified"]);
      const [providerId] = [...remote.keys()];
      expect(registered).toMatchObject({
        mode: "resend",
        domain: { verified: false, provider_domain_id: providerId, provider_status: "not_started" },
      });
      expect(registered.domain.dns_records).toEqual(records("not_started"));
      remote.get(providerId)!.status = "verified";
      const verified = await admin(["domain:verify", "--email", withResend.email, "--domain", theirs]);
      expect(verified).toMatchObject({ mode: "resend", domain: { verified: true, provider_status: "verified" } });
      expect(requests()).toEqual(["POST /domains", `POST /domains/${providerId}/verify`, `GET /domains/${providerId}`]);
    },
  );
});
