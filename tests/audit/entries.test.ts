import { randomUUID } from "node:crypto";
import { revalidatePath } from "next/cache";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { changePlanAction } from "@/app/dashboard/billing/actions";
import { addDomainAction, removeDomainAction, verifyDomainAction } from "@/app/dashboard/domains/actions";
import { createApiKeyAction, revokeApiKeyAction } from "@/app/dashboard/settings/api-keys/actions";
import { DELETE as removeFromLibrary } from "@/app/api/v1/library/[id]/route";
import { POST as addToLibrary } from "@/app/api/v1/library/route";
import { DELETE as deleteSuppression } from "@/app/api/v1/suppressions/[email]/route";
import { POST as postPublish } from "@/app/api/v1/templates/[id]/publish/route";
import { DELETE as deleteTemplate, PUT as putTemplate } from "@/app/api/v1/templates/[id]/route";
import { POST as postRestore } from "@/app/api/v1/templates/[id]/versions/[n]/restore/route";
import { POST as postTemplate } from "@/app/api/v1/templates/route";
import { POST as rotateSecret } from "@/app/api/v1/webhooks/[id]/rotate-secret/route";
import { DELETE as deleteWebhook, PATCH as patchWebhook } from "@/app/api/v1/webhooks/[id]/route";
import { POST as postWebhook } from "@/app/api/v1/webhooks/route";
import { createApiKey, listApiKeys, revokeApiKey } from "@/lib/api-keys/data";
import { insertAuditEntry, libraryEntry, listAuditEntries, type AuditEntry } from "@/lib/audit/data";
import { setAccountPlan } from "@/lib/auth/data/accounts";
import { applySubscriptionEvent } from "@/lib/billing/data/subscriptions";
import { getDb } from "@/lib/db/client";
import { listSendingDomains } from "@/lib/sending-domains/data";
import { auth, call, catalogueId, createUser, uniqueDomain, type TestUser } from "../support/api";
import { suppressedAddress } from "../support/endpoints";
import { withEnv } from "../support/env";
import { newBrowser } from "../support/next-headers";
import { signedIn } from "../support/signed-in";

// The audit log (issue 48): each change of the contract's list writes its entry in the change's transaction, naming
// the actor (an API key by its name, the signed-in person by their email, or the system) and the client's address.
vi.mock("next/cache", () => ({ revalidatePath: vi.fn() }));
vi.mock("next/headers", () => import("../support/next-headers"));
vi.mock("@/lib/auth/current", () => import("../support/signed-in"));

const API_IP = "198.51.100.7";
const BROWSER_IP = "203.0.113.10";
const UUID = expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
const URL_1 = "https://93.184.215.14/hooks/orders";
const SOURCE = (n: number) => `export default function E() { return <p>Version ${n}</p>; }\n`;

/** The account's entries, newest first, but the one its test key's creation wrote. */
async function entriesOf(user: TestUser): Promise<AuditEntry[]> {
  const { entries } = await listAuditEntries(getDb(), user.accountId, { limit: 100, offset: 0 });
  return entries.filter((entry) => entry.target.id !== user.keyId);
}

const apiHeaders = (user: TestUser) => ({ ...auth(user), "x-forwarded-for": API_IP });
const byKey = (user: TestUser) => ({ type: "api_key", id: user.keyId, label: "test key" });
const byPerson = (user: TestUser) => ({ type: "user", id: user.personId, label: user.email });
const SYSTEM = { type: "system", id: null, label: "Letterpress" };

/** An entry as listAuditEntries reads it. */
const entry = (
  action: string,
  actor: object,
  target: { type: string; id: string | null; label: string | null },
  ip: string | null,
  details?: object,
) => ({
  id: UUID,
  action,
  actor,
  target,
  ip,
  created_at: expect.any(Date),
  ...(details ? { details } : {}),
});

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
}

async function signIn(): Promise<TestUser> {
  const user = await createUser();
  signedIn.accountId = user.accountId;
  newBrowser(BROWSER_IP);
  return user;
}

beforeEach(() => void vi.mocked(revalidatePath).mockClear());

describe("entries of API calls: the key by its name, and the client's address", () => {
  it("webhook.created, updated, secret_rotated and deleted", async () => {
    const user = await createUser();
    const headers = apiHeaders(user);
    const created = await call(postWebhook, "/api/v1/webhooks", {
      method: "POST",
      headers,
      body: { url: URL_1, events: ["email.bounced"] },
    });
    expect(created.status).toBe(201);
    const id = created.body.webhook.id as string;
    const patched = await call(patchWebhook, "/x", {
      method: "PATCH",
      params: { id },
      headers,
      body: { enabled: false, description: "Orders" },
    });
    expect(patched.status).toBe(200);
    expect((await call(rotateSecret, "/x", { method: "POST", params: { id }, headers })).status).toBe(200);
    expect((await call(deleteWebhook, "/x", { method: "DELETE", params: { id }, headers })).status).toBe(200);

    const target = { type: "webhook_endpoint", id, label: URL_1 };
    expect(await entriesOf(user)).toEqual([
      entry("webhook.deleted", byKey(user), target, API_IP),
      entry("webhook.secret_rotated", byKey(user), target, API_IP),
      entry("webhook.updated", byKey(user), target, API_IP, { changed: ["description", "enabled"] }),
      entry("webhook.created", byKey(user), target, API_IP, { events: ["email.bounced"] }),
    ]);
    // No secret in any entry.
    const [row] = await getDb()<{ text: string }[]>`
      select string_agg(to_jsonb(a)::text, ' ') as text from audit_log a where account_id = ${user.accountId}`;
    expect(row.text).not.toContain(created.body.webhook.secret);
    expect(row.text).not.toContain("whsec_");
  });

  it("template.created, published, restored and deleted; a save as a draft and a publish of nothing new write none", async () => {
    const user = await createUser();
    const headers = apiHeaders(user);
    const created = await call(postTemplate, "/api/v1/templates", {
      method: "POST",
      headers,
      body: { name: "Receipt", files: { "email.tsx": SOURCE(1) } },
    });
    expect(created.status).toBe(201);
    const id = created.body.template.id as string;
    const saved = await call(putTemplate, "/x", {
      method: "PUT",
      params: { id },
      headers,
      body: { name: "Receipt", files: { "email.tsx": SOURCE(2) }, publish: false },
    });
    expect(saved.status).toBe(200);
    expect((await call(postPublish, "/x", { method: "POST", params: { id }, headers, body: {} })).status).toBe(200);
    // Nothing left to publish: refused, and nothing written.
    expect((await call(postPublish, "/x", { method: "POST", params: { id }, headers, body: {} })).status).toBe(409);
    const restored = await call(postRestore, "/x", {
      method: "POST",
      params: { id, n: "1" },
      headers,
      body: { publish: true },
    });
    expect(restored.status).toBe(200);
    expect((await call(deleteTemplate, "/x", { method: "DELETE", params: { id }, headers })).status).toBe(200);

    const target = { type: "template", id, label: "Receipt" };
    expect(await entriesOf(user)).toEqual([
      entry("template.deleted", byKey(user), target, API_IP),
      entry("template.restored", byKey(user), target, API_IP, { version: 1, published: true }),
      entry("template.published", byKey(user), target, API_IP, { version: 2 }),
      entry("template.created", byKey(user), target, API_IP, { published: true }),
    ]);
  });

  it("library.added and library.removed, suppression.removed", async () => {
    const user = await createUser();
    const headers = apiHeaders(user);
    const templateId = await catalogueId("welcome");
    const [{ name }] = await getDb()<{ name: string }[]>`select name from templates where id = ${templateId}`;
    const added = await call(addToLibrary, "/api/v1/library", {
      method: "POST",
      headers,
      body: { template_id: "welcome" },
    });
    expect(added.status).toBe(201);
    const removed = await call(removeFromLibrary, "/x", { method: "DELETE", params: { id: templateId }, headers });
    expect(removed.status).toBe(200);
    const address = await suppressedAddress(user);
    const unsuppressed = await call(deleteSuppression, "/x", {
      method: "DELETE",
      params: { email: address },
      headers,
    });
    expect(unsuppressed.status).toBe(200);

    const template = { type: "template", id: templateId, label: name };
    expect(await entriesOf(user)).toEqual([
      entry("suppression.removed", byKey(user), { type: "suppression", id: address, label: address }, API_IP, {
        reason: "bounced",
      }),
      entry("library.removed", byKey(user), template, API_IP, { added_via: "free" }),
      entry("library.added", byKey(user), template, API_IP, { added_via: "free" }),
    ]);
  });

  it("a change that fails writes nothing", async () => {
    const user = await createUser();
    const headers = apiHeaders(user);
    const missing = "00000000-0000-4000-8000-000000000000";
    expect((await call(deleteWebhook, "/x", { method: "DELETE", params: { id: missing }, headers })).status).toBe(404);
    expect((await call(deleteTemplate, "/x", { method: "DELETE", params: { id: missing }, headers })).status).toBe(404);
    const bad = await call(postWebhook, "/api/v1/webhooks", { method: "POST", headers, body: { url: "nope" } });
    expect(bad.status).toBe(400);
    await expect(createApiKey(user.accountId, { name: "bound", domain: uniqueDomain() })).rejects.toMatchObject({
      code: "DOMAIN_NOT_FOUND",
    });
    expect(await entriesOf(user)).toEqual([]);
  });
});

describe("entries of dashboard actions: the signed-in person by their email, and the browser's address", () => {
  it("api_key.created and api_key.revoked, with the key's display fragment and never the key", async () => {
    const user = await signIn();
    const state = await createApiKeyAction(
      { status: "idle" },
      form({ name: "CI", kind: "live", scope: "full_access", domain: "", expiresInDays: "never" }),
    );
    expect(state.status).toBe("success");
    const [key] = (await listApiKeys(user.accountId)).filter((k) => k.name === "CI");
    const [{ key_hash: hash }] = await getDb()<
      { key_hash: string }[]
    >`select key_hash from api_keys where id = ${key.id}`;
    await revokeApiKeyAction(form({ id: key.id }));
    // A second revocation changes nothing and writes nothing.
    await revokeApiKeyAction(form({ id: key.id }));

    const target = { type: "api_key", id: key.id, label: "CI" };
    const details = { display_fragment: key.display_fragment, kind: "live", scope: "full_access" };
    expect(await entriesOf(user)).toEqual([
      entry("api_key.revoked", byPerson(user), target, BROWSER_IP, details),
      entry("api_key.created", byPerson(user), target, BROWSER_IP, details),
    ]);
    const [row] = await getDb()<{ text: string }[]>`
      select string_agg(to_jsonb(a)::text, ' ') as text from audit_log a where account_id = ${user.accountId}`;
    expect(row.text).not.toContain(state.key!);
    expect(row.text).not.toContain(hash);
  });

  it("domain.added, domain.verified and domain.removed", async () => {
    const user = await signIn();
    const domain = uniqueDomain();
    expect((await addDomainAction({ status: "idle" }, form({ domain, defaultSender: "" }))).status).toBe("success");
    const [{ id }] = await listSendingDomains(user.accountId);
    expect((await verifyDomainAction({ status: "idle" }, form({ id, domain }))).status).toBe("success");
    expect((await removeDomainAction(form({ id }))).status).toBe("success");

    const target = { type: "domain", id, label: domain };
    expect(await entriesOf(user)).toEqual([
      entry("domain.removed", byPerson(user), target, BROWSER_IP),
      entry("domain.verified", byPerson(user), target, BROWSER_IP),
      entry("domain.added", byPerson(user), target, BROWSER_IP),
    ]);
  });

  it("plan.changed by the person through the test-mode processor", async () => {
    const user = await signIn();
    await withEnv({ PAYMENTS_TEST_MODE: "1", STRIPE_SECRET_KEY: undefined }, async () => {
      expect(await changePlanAction({ status: "idle" }, form({ plan: "monthly" }))).toEqual({
        status: "success",
        message: "You're on the monthly plan now.",
      });
    });
    expect(await entriesOf(user)).toEqual([
      entry("plan.changed", byPerson(user), { type: "plan", id: null, label: "monthly" }, BROWSER_IP, {
        from: "free",
        to: "monthly",
      }),
    ]);
  });
});

describe("entries of work outside a request: the system", () => {
  it("the CLI's plan change and key revocation; setting the plan it has writes nothing", async () => {
    const user = await createUser();
    await setAccountPlan(user.accountId, "annual");
    await setAccountPlan(user.accountId, "annual");
    await revokeApiKey(user.keyId);
    const { entries } = await listAuditEntries(getDb(), user.accountId, { limit: 10, offset: 0 });
    expect(entries).toEqual([
      entry("api_key.revoked", SYSTEM, { type: "api_key", id: user.keyId, label: "test key" }, null, {
        display_fragment: expect.any(String),
        kind: "live",
        scope: "full_access",
      }),
      entry("plan.changed", SYSTEM, { type: "plan", id: null, label: "annual" }, null, { from: "free", to: "annual" }),
      entry("api_key.created", SYSTEM, { type: "api_key", id: user.keyId, label: "test key" }, null, {
        display_fragment: expect.any(String),
        kind: "live",
        scope: "full_access",
      }),
    ]);
  });
});

describe("entries of Stripe's events: the system", () => {
  it("plan.changed when a subscription's event changes the plan, none when it leaves it", async () => {
    const user = await createUser();
    const state = {
      subscriptionId: `sub_${randomUUID()}`,
      customerId: `cus_${randomUUID()}`,
      metadataAccountId: user.accountId,
      status: "active",
      plan: "annual" as const,
      priceId: "price_annual",
      planItemId: "si_1",
      currentPeriodEnd: new Date(Date.now() + 86_400_000),
      cancelAtPeriodEnd: false,
      cancelAt: null,
      endedAt: null,
    };
    const apply = (id: string, created: Date) =>
      getDb().begin((tx) => applySubscriptionEvent(tx, { id, created }, state));
    await apply("evt_1", new Date(Date.now() - 1000));
    await apply("evt_2", new Date());
    expect(await entriesOf(user)).toEqual([
      entry("plan.changed", SYSTEM, { type: "plan", id: null, label: "annual" }, null, { from: "free", to: "annual" }),
    ]);
  });
});

describe("the table itself", () => {
  it("lists the entries of one transaction, which share its instant, newest first in the order they were written", async () => {
    const user = await createUser();
    const db = getDb();
    const names = ["first", "second", "third", "fourth", "fifth"];
    await db.begin(async (tx) => {
      for (const name of names) {
        await insertAuditEntry(tx, libraryEntry(user.accountId, "library.added", { id: randomUUID(), name }));
      }
    });
    const written = await entriesOf(user);
    expect(new Set(written.map((entry) => entry.created_at.getTime())).size).toBe(1);
    expect(written.map((entry) => entry.target.label)).toEqual(["fifth", "fourth", "third", "second", "first"]);
    const page = (offset: number) =>
      listAuditEntries(db, user.accountId, { limit: 2, offset, action: "library.added" });
    const pages = await Promise.all([page(0), page(2), page(4)]);
    expect(pages.map(({ entries }) => entries.map((entry) => entry.target.label))).toEqual([
      ["fifth", "fourth"],
      ["third", "second"],
      ["first"],
    ]);
    expect(pages.map(({ total }) => total)).toEqual([5, 5, 5]);
  });

  it("refuses UPDATE, DELETE and TRUNCATE; the account's deletion takes its entries", async () => {
    const user = await createUser();
    const db = getDb();
    const refused = { code: "42501", message: "audit_log entries cannot be changed or deleted" };
    await expect(db`update audit_log set actor_label = 'x' where account_id = ${user.accountId}`).rejects.toMatchObject(
      refused,
    );
    await expect(db`delete from audit_log where account_id = ${user.accountId}`).rejects.toMatchObject(refused);
    // Rolled back whatever happens: a TRUNCATE that went through would empty everyone's log.
    const truncate = db.begin(async (tx) => {
      await tx`truncate audit_log`;
      throw new Error("TRUNCATE went through");
    });
    await expect(truncate).rejects.toMatchObject(refused);
    expect(await entriesOf(user)).toEqual([]);
    expect((await listAuditEntries(db, user.accountId, { limit: 10, offset: 0 })).total).toBe(1);

    await db`delete from accounts where id = ${user.accountId}`;
    const [{ n }] = await db<{ n: number }[]>`
      select count(*)::int as n from audit_log where account_id = ${user.accountId}`;
    expect(n).toBe(0);
  });
});
