import { afterEach, describe, expect, it, vi } from "vitest";
import { createApiKey, revokeApiKey } from "@/lib/api-keys/data";
import { listAuditEntries } from "@/lib/audit/data";
import { setAccountPlan } from "@/lib/auth/data/accounts";
import { addLibraryEntry, removeCatalogueEntry } from "@/lib/catalogue/data/library";
import { getDb } from "@/lib/db/client";
import { addSendingDomain, deleteSendingDomain } from "@/lib/sending-domains/data";
import { deleteSuppression } from "@/lib/suppressions/data";
import { createUserTemplate, deleteUserTemplate } from "@/lib/templates/data/user-templates";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  rotateWebhookEndpointSecret,
  updateWebhookEndpoint,
} from "@/lib/webhooks/data/endpoints";
import { createUser, uniqueDomain, type TestUser } from "../support/api";
import { suppressedAddress } from "../support/endpoints";
import { newSecret } from "../support/webhooks";

// A change and its audit entry commit together: when the entry's insert fails, after the change's own statements
// ran, the change is rolled back too. The failure is the entry's statement replaced by one PostgreSQL refuses.
const failing = vi.hoisted(() => ({ on: false }));
vi.mock("@/lib/audit/data", async (importOriginal) => {
  const real = await importOriginal<typeof import("@/lib/audit/data")>();
  return {
    ...real,
    insertAuditEntry: ((sql, entry) =>
      failing.on
        ? sql`select 1 / 0 as audit_entry_failed`
        : real.insertAuditEntry(sql, entry)) as typeof real.insertAuditEntry,
  };
});

afterEach(() => void (failing.on = false));

const DIVISION_BY_ZERO = { code: "22012" };
const SOURCE = "export default function E() { return <p>Hi</p>; }\n";

/** Runs `change` with the audit entry's insert failing: the change must fail with it. */
async function withFailingEntry(change: () => Promise<unknown>): Promise<void> {
  failing.on = true;
  try {
    await expect(change()).rejects.toMatchObject(DIVISION_BY_ZERO);
  } finally {
    failing.on = false;
  }
}

async function entryCount(user: TestUser): Promise<number> {
  return (await listAuditEntries(getDb(), user.accountId, { limit: 1, offset: 0 })).total;
}

describe("a failure after the change rolls back the change and its entry", () => {
  it("API keys: created, revoked", async () => {
    const user = await createUser();
    const before = await entryCount(user);
    await withFailingEntry(() => createApiKey(user.accountId, { name: "never" }));
    await withFailingEntry(() => revokeApiKey(user.keyId, user.accountId));
    const keys = await getDb()<{ name: string; revoked: boolean }[]>`
      select name, revoked_at is not null as revoked from api_keys where account_id = ${user.accountId}`;
    expect(keys).toEqual([{ name: "test key", revoked: false }]);
    expect(await entryCount(user)).toBe(before);
  });

  it("sending domains: added, removed", async () => {
    const user = await createUser();
    const domain = uniqueDomain();
    await withFailingEntry(() => addSendingDomain(user.accountId, { domain, verified: true }));
    expect(await getDb()`select 1 from sending_domains where domain = ${domain}`).toHaveLength(0);
    const added = await addSendingDomain(user.accountId, { domain, verified: false });
    const before = await entryCount(user);
    await withFailingEntry(() => addSendingDomain(user.accountId, { domain, verified: true }));
    await withFailingEntry(() => deleteSendingDomain(user.accountId, added.id));
    const rows = await getDb()`select verified from sending_domains where id = ${added.id}`;
    expect(rows).toEqual([{ verified: false }]);
    expect(await entryCount(user)).toBe(before);
  });

  it("webhooks: created, updated, secret rotated, deleted", async () => {
    const user = await createUser();
    const url = "https://93.184.215.14/hooks";
    const secret = newSecret();
    await withFailingEntry(() =>
      createWebhookEndpoint(user.accountId, { url, events: ["email.sent"], description: null, secret }, 10),
    );
    expect(await getDb()`select 1 from webhook_endpoints where account_id = ${user.accountId}`).toHaveLength(0);
    const endpoint = (await createWebhookEndpoint(
      user.accountId,
      { url, events: ["email.sent"], description: null, secret },
      10,
    ))!;
    const before = await entryCount(user);
    await withFailingEntry(() => updateWebhookEndpoint(user.accountId, endpoint.id, { enabled: false }));
    await withFailingEntry(() => rotateWebhookEndpointSecret(user.accountId, endpoint.id, newSecret(), 24));
    await withFailingEntry(() => deleteWebhookEndpoint(user.accountId, endpoint.id));
    const rows =
      await getDb()`select enabled, secret, previous_secret from webhook_endpoints where id = ${endpoint.id}`;
    expect(rows).toEqual([{ enabled: true, secret, previous_secret: null }]);
    expect(await entryCount(user)).toBe(before);
  });

  it("the plan", async () => {
    const user = await createUser();
    await withFailingEntry(() => setAccountPlan(user.accountId, "monthly"));
    expect(await getDb()`select plan from accounts where id = ${user.accountId}`).toEqual([{ plan: "free" }]);
  });

  it("templates: created, deleted; the library: added, removed; a suppression removed", async () => {
    const user = await createUser();
    const content = {
      name: "Mine",
      description: "",
      code: SOURCE,
      compiledCode: null,
      variables: { type: "object" as const, properties: {}, additionalProperties: true },
      previewProps: null,
    };
    await withFailingEntry(() => createUserTemplate(user.accountId, content));
    expect(await getDb()`select 1 from templates where owner_account_id = ${user.accountId}`).toHaveLength(0);
    const template = await createUserTemplate(user.accountId, content);
    await withFailingEntry(() => deleteUserTemplate(user.accountId, template.id));
    expect(await getDb()`select 1 from templates where id = ${template.id}`).toHaveLength(1);

    await withFailingEntry(() => addLibraryEntry(user.accountId, "welcome", { processor: "test" }));
    const library = () => getDb()`
      select t.slug from library_entries l join templates t on t.id = l.template_id
      where l.account_id = ${user.accountId} and t.owner_account_id is null`;
    expect(await library()).toEqual([]);
    await addLibraryEntry(user.accountId, "welcome", { processor: "test" });
    await withFailingEntry(() => removeCatalogueEntry(user.accountId, "welcome"));
    expect(await library()).toEqual([{ slug: "welcome" }]);

    const address = await suppressedAddress(user);
    await withFailingEntry(() => deleteSuppression(user.accountId, address));
    expect(await getDb()`select reason from email_suppressions where email = ${address}`).toEqual([
      { reason: "bounced" },
    ]);
  });
});
