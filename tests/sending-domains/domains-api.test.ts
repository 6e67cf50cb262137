import { randomUUID } from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import { GET as listDomains, POST as postDomain } from "@/app/api/v1/domains/route";
import { DELETE as deleteDomain, GET as getDomain, PATCH as patchDomain } from "@/app/api/v1/domains/[id]/route";
import { POST as verifyDomain } from "@/app/api/v1/domains/[id]/verify/route";
import { MAX_SENDING_DOMAINS } from "@/lib/core/limits";
import { getDb } from "@/lib/db/client";
import { addSendingDomain } from "@/lib/sending-domains/data";
import { auth, call, createUser, ISO, type TestUser } from "../support/api";
import { setTestEnv } from "../support/env";
import { type ResendRequest, useResendStandIn } from "../support/resend-stand-in";

// The sending domains API (v1.3, Engagement): the rules of the dashboard's domain forms (tests/sending-domains/
// domains.test.ts holds them in detail), through the same service, and the tracking switches, which are Resend's for
// the domain when Resend sends.

const resend = useResendStandIn({ configure: false, recordEvery: true });
const API_KEY = "re_test_domains_api_0123456789";
const RECORDS = [
  {
    record: "SPF",
    name: "send",
    type: "TXT",
    ttl: "Auto",
    status: "not_started",
    value: '"v=spf1 include:amazonses.com ~all"',
  },
  { record: "DKIM", name: "resend._domainkey", type: "TXT", ttl: "Auto", status: "not_started", value: "p=MIGfMA0G" },
];

/** The stand-in's domains API: create, read, verify and update (Resend's answers, trimmed to what is read). */
function route(request: ResendRequest) {
  if (request.method === "POST" && request.url === "/domains")
    return { status: 200, body: { id: "rd_1", name: request.body.name, status: "not_started", records: RECORDS } };
  if (request.method === "PATCH" && request.url === "/domains/rd_1")
    return { status: 200, body: { object: "domain", id: "rd_1" } };
  return { status: 404, body: { statusCode: 404, name: "not_found", message: "Route not found" } };
}

let name = "";
let user: TestUser;
beforeEach(async () => {
  name = `mail-${randomUUID().slice(0, 8)}.example`;
  user = await createUser("monthly");
  resend.reply = route;
  setTestEnv({ RESEND_API_KEY: undefined, RESEND_BASE_URL: undefined });
});

const create = (caller: TestUser, body: unknown) =>
  call(postDomain, "/api/v1/domains", { method: "POST", headers: auth(caller), body });
const read = (caller: TestUser, id: string) => call(getDomain, "/x", { params: { id }, headers: auth(caller) });
const patch = (caller: TestUser, id: string, body: unknown) =>
  call(patchDomain, "/x", { method: "PATCH", params: { id }, headers: auth(caller), body });
const verify = (caller: TestUser, id: string) =>
  call(verifyDomain, "/x", { method: "POST", params: { id }, headers: auth(caller) });
const outcome = ({ status, body }: { status: number; body: unknown }) => ({ status, body });

const domainBody = (overrides: Record<string, unknown> = {}) => ({
  id: expect.any(String),
  name,
  status: "pending",
  records: [],
  open_tracking: false,
  click_tracking: false,
  default_sender: `hello@${name}`,
  created_at: ISO,
  ...overrides,
});

describe("the domains API in the embedded default (DNS simulated)", () => {
  it("adds, lists, reads, verifies, switches tracking on and removes a domain", async () => {
    const created = await create(user, { name: name.toUpperCase() });
    expect(outcome(created)).toEqual({ status: 201, body: { success: true, domain: domainBody() } });
    const id = created.body.domain.id as string;
    expect(outcome(await call(listDomains, "/api/v1/domains", { headers: auth(user) }))).toEqual({
      status: 200,
      body: { success: true, domains: [domainBody({ id })] },
    });
    expect(outcome(await read(user, id))).toEqual({ status: 200, body: { success: true, domain: domainBody({ id }) } });

    expect(outcome(await verify(user, id))).toEqual({
      status: 200,
      body: { success: true, domain: domainBody({ id, status: "verified" }) },
    });
    const switched = await patch(user, id, { open_tracking: true, default_sender: `news@${name}` });
    expect(outcome(switched)).toEqual({
      status: 200,
      body: {
        success: true,
        domain: domainBody({ id, status: "verified", open_tracking: true, default_sender: `news@${name}` }),
      },
    });
    // What is not given stays as it is.
    expect((await patch(user, id, { click_tracking: true })).body.domain).toEqual(
      domainBody({ id, status: "verified", open_tracking: true, click_tracking: true, default_sender: `news@${name}` }),
    );

    const removed = await call(deleteDomain, "/x", { method: "DELETE", params: { id }, headers: auth(user) });
    expect(outcome(removed)).toEqual({ status: 200, body: { success: true } });
    expect(outcome(await read(user, id))).toEqual({
      status: 404,
      body: {
        error: "Domain not found",
        code: "DOMAIN_NOT_FOUND",
        success: false,
        message: "No sending domain with this id on your account",
      },
    });
    expect(
      (
        await getDb()`select action from audit_log where account_id = ${user.accountId} and action like 'domain.%'
                order by created_at, action`
      ).map((row) => row.action),
    ).toEqual(["domain.added", "domain.verified", "domain.removed"]);
  });

  it("refuses what the dashboard's forms refuse, and changes nothing", async () => {
    const id = (await create(user, { name })).body.domain.id as string;
    expect(outcome(await create(user, { name }))).toEqual({
      status: 409,
      body: {
        error: "Domain exists",
        code: "DOMAIN_EXISTS",
        success: false,
        message: `${name} is already one of your sending domains`,
      },
    });
    const other = await createUser("monthly");
    expect(outcome(await create(other, { name }))).toEqual({
      status: 409,
      body: {
        error: "Domain taken",
        code: "DOMAIN_TAKEN",
        success: false,
        message: `${name} is already registered by another account. A sending domain belongs to one account only.`,
      },
    });
    expect(outcome(await create(user, { name: "not a domain" }))).toEqual({
      status: 400,
      body: {
        error: "Invalid request body",
        code: "VALIDATION_ERROR",
        success: false,
        details: [{ field: "name", message: '"not a domain" is not a domain name (e.g. mail.example.com)' }],
      },
    });
    expect(outcome(await patch(user, id, { default_sender: "ada@elsewhere.example" }))).toEqual({
      status: 400,
      body: {
        error: "Invalid request body",
        code: "VALIDATION_ERROR",
        success: false,
        details: [{ field: "default_sender", message: `The default sender must be an address @${name}` }],
      },
    });
    expect(outcome(await patch(user, id, { open_tracking: "yes", colour: "blue" }))).toEqual({
      status: 400,
      body: {
        error: "Invalid request body",
        code: "VALIDATION_ERROR",
        success: false,
        details: [
          { field: "open_tracking", message: "open_tracking must be true or false" },
          { field: "colour", message: "colour is not a recognised field" },
        ],
      },
    });
    // Another account's domain is not there for it.
    for (const answer of [
      await read(other, id),
      await patch(other, id, { open_tracking: true }),
      await verify(other, id),
    ])
      expect({ status: answer.status, code: answer.body.code }).toEqual({ status: 404, code: "DOMAIN_NOT_FOUND" });
    expect((await read(user, id)).body.domain).toEqual(domainBody({ id }));
  });

  it(`keeps an account to ${MAX_SENDING_DOMAINS} domains, counted one add after another`, async () => {
    for (let i = 1; i < MAX_SENDING_DOMAINS; i++)
      await addSendingDomain(user.accountId, { domain: `d${i}-${name}`, verified: false });
    // Eight adds at once for the last place, past the API's early check: one gets it. They are held back by a lock
    // on the table until all of them wait, then let go together, so they count at the same moment.
    let letGo!: () => void;
    let locked!: () => void;
    const held = new Promise<void>((resolve) => (locked = resolve));
    const gate = getDb().begin(async (tx) => {
      await tx`lock table sending_domains in exclusive mode`;
      locked();
      await new Promise<void>((resolve) => (letGo = resolve));
    });
    await held;
    const adding = Promise.allSettled(
      Array.from({ length: 8 }, (_, i) =>
        addSendingDomain(user.accountId, { domain: `e${i}-${name}`, verified: false }),
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    letGo();
    await gate;
    const adds = await adding;
    expect(adds.filter((add) => add.status === "fulfilled")).toHaveLength(1);
    for (const add of adds.filter((add) => add.status === "rejected"))
      expect(add.reason).toMatchObject({ code: "DOMAIN_LIMIT_REACHED" });
    const refused = {
      status: 403,
      body: {
        error: "Domain limit reached",
        code: "DOMAIN_LIMIT_REACHED",
        success: false,
        message: `An account has at most ${MAX_SENDING_DOMAINS} sending domains: delete one (DELETE /api/v1/domains/{id}) to add another.`,
      },
    };
    expect(outcome(await create(user, { name: `c-${name}` }))).toEqual(refused);
    expect((await call(listDomains, "/x", { headers: auth(user) })).body.domains).toHaveLength(MAX_SENDING_DOMAINS);
    // Another account is not held back by it.
    expect((await create(await createUser("monthly"), { name: `other-${name}` })).status).toBe(201);
  });

  it("adds a domain once when two adds of it race: one 201, one 409, one domain.added", async () => {
    const answers = await Promise.all([create(user, { name }), create(user, { name })]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
    expect(answers.find((answer) => answer.status === 409)!.body).toEqual({
      error: "Domain exists",
      code: "DOMAIN_EXISTS",
      success: false,
      message: `${name} is already one of your sending domains`,
    });
    const created = answers.find((answer) => answer.status === 201)!.body.domain;
    expect((await call(listDomains, "/x", { headers: auth(user) })).body.domains).toEqual([
      domainBody({ id: created.id }),
    ]);
    expect(
      (await getDb()`select action from audit_log where account_id = ${user.accountId} and action like 'domain.%'`).map(
        (row) => row.action,
      ),
    ).toEqual(["domain.added"]);
  });
});

describe("the domains API with Resend", () => {
  beforeEach(() => setTestEnv({ RESEND_API_KEY: API_KEY, RESEND_BASE_URL: resend.url }));

  it("adds the domain at Resend with its records, and turns Resend's tracking switches", async () => {
    const created = await create(user, { name });
    expect(outcome(created)).toEqual({
      status: 201,
      body: { success: true, domain: domainBody({ records: RECORDS }) },
    });
    const id = created.body.domain.id as string;
    resend.received = [];
    const switched = await patch(user, id, { click_tracking: true });
    expect(outcome(switched)).toEqual({
      status: 200,
      body: { success: true, domain: domainBody({ id, records: RECORDS, click_tracking: true }) },
    });
    expect(resend.received.map(({ method, url, body }) => ({ method, url, body }))).toEqual([
      { method: "PATCH", url: "/domains/rd_1", body: { click_tracking: true } },
    ]);
  });

  it("changes nothing when Resend refuses the switch", async () => {
    const id = (await create(user, { name })).body.domain.id as string;
    resend.reply = (request) =>
      request.method === "PATCH"
        ? { status: 422, body: { statusCode: 422, name: "validation_error", message: "Tracking is not available" } }
        : route(request);
    const refused = await patch(user, id, { open_tracking: true, click_tracking: true });
    expect({ status: refused.status, code: refused.body.code, message: refused.body.message }).toEqual({
      status: 502,
      code: "EMAIL_PROVIDER_ERROR",
      message: `Could not change the tracking of ${name} at Resend: Resend answered HTTP 422 validation_error: Tracking is not available`,
    });
    expect((await read(user, id)).body.domain).toEqual(domainBody({ id, records: RECORDS }));
  });
});
