import { revalidatePath } from "next/cache";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { createApiKeyAction, revokeApiKeyAction } from "@/app/dashboard/settings/api-keys/actions";
import {
  addDomainAction,
  removeDomainAction,
  updateDefaultSenderAction,
  updateTrackingAction,
  verifyDomainAction,
} from "@/app/dashboard/domains/actions";
import {
  createWebhookAction,
  deleteWebhookAction,
  replayDeliveryAction,
  rotateWebhookSecretAction,
  sendTestEventAction,
  setWebhookEnabledAction,
  updateWebhookAction,
} from "@/app/dashboard/webhooks/actions";
import { changePlanAction, openCustomerPortalAction } from "@/app/dashboard/billing/actions";
import ApiKeysPage from "@/app/dashboard/settings/api-keys/page";
import DomainsPage from "@/app/dashboard/domains/page";
import WebhooksPage from "@/app/dashboard/webhooks/page";
import WebhookPage from "@/app/dashboard/webhooks/[id]/page";
import BillingPage from "@/app/dashboard/billing/page";
import { AdminNeeded } from "@/app/dashboard/_components/admin-needed";
import { GET as listWebhooksRoute, POST as createWebhookRoute } from "@/app/api/v1/webhooks/route";
import { GET as getWebhookRoute } from "@/app/api/v1/webhooks/[id]/route";
import { GET as getUsage } from "@/app/api/v1/usage/route";
import { addSendingDomain } from "@/lib/sending-domains/data";
import { createWebhook } from "@/lib/webhooks/service";
import { WEBHOOK_EVENT_TYPES } from "@/lib/webhooks/schemas";
import { getDb } from "@/lib/db/client";
import { adminRequired, type AdminArea } from "@/lib/teams/rights";
import { removeTeamMember } from "@/lib/teams/service";
import { deleteTeamRow } from "@/lib/teams/data-deletion";
import { runAsActor } from "@/lib/audit/context";
import { CREDENTIAL_PROBLEMS } from "@/lib/core/errors";
import { auth, call, personSessionCookie, uniqueDomain } from "../support/api";
import { signedIn } from "../support/signed-in";
import { createTeam, type TestTeam } from "../support/teams";

// Issue 48: a member of a team walks every admin-only dashboard page and Server Action, and the API's webhooks routes
// with their session: each refuses with the one rights check's message (lib/teams/rights.ts) and changes nothing.
vi.mock("next/cache", () => ({ revalidatePath: vi.fn() }));
vi.mock("@/lib/auth/current", () => import("../support/signed-in"));
vi.mock("next/headers", () => import("../support/next-headers"));

const BASE = "http://localhost:3000";

let admin: TestTeam;
let member: string;
let domain: { id: string; domain: string };
let webhookId: string;

/** Everything the admin-only actions could change, for the team. */
async function teamState() {
  const [state] = await getDb()`
    select (select json_agg(json_build_object('id', k.id, 'name', k.name, 'revoked', k.revoked_at is not null)
                            order by k.id) from api_keys k where k.account_id = ${admin.accountId}) as keys,
           (select json_agg(json_build_object('id', d.id, 'verified', d.verified, 'sender', d.default_sender,
                                              'tracking', array[d.open_tracking, d.click_tracking])
                            order by d.id) from sending_domains d where d.account_id = ${admin.accountId}) as domains,
           (select json_agg(json_build_object('id', w.id, 'url', w.url, 'enabled', w.enabled, 'updated', w.updated_at)
                            order by w.id) from webhook_endpoints w where w.account_id = ${admin.accountId}) as webhooks,
           (select count(*)::int from webhook_deliveries d where d.account_id = ${admin.accountId}) as deliveries,
           (select plan from accounts where id = ${admin.accountId}) as plan`;
  return state;
}

function form(fields: Record<string, string | string[]>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    for (const one of Array.isArray(value) ? value : [value]) data.append(name, one);
  }
  return data;
}

const refusal = (area: AdminArea) => ({ status: "error", message: adminRequired(area).message });

beforeAll(async () => {
  admin = await createTeam();
  const [person] = await getDb()<{ id: string }[]>`
    insert into people (email) values (${`member-${admin.email}`}) returning id`;
  member = person.id;
  await getDb()`insert into memberships (account_id, person_id, role) values (${admin.accountId}, ${member}, 'member')`;
  const name = uniqueDomain();
  const added = await addSendingDomain(admin.accountId, { domain: name, verified: false });
  domain = { id: added.id, domain: name };
  webhookId = (
    await createWebhook(admin.accountId, { url: "https://hooks.example.com/in", events: [WEBHOOK_EVENT_TYPES[0]] })
  ).id;
});

describe("a member in the dashboard", () => {
  it("is refused every admin-only Server Action with the rights check's message, and nothing changes", async () => {
    signedIn.accountId = admin.accountId;
    signedIn.personId = member;
    const before = await teamState();
    const endpoint = { url: "https://hooks.example.com/other", events: [WEBHOOK_EVENT_TYPES[0]], description: "" };
    const answers = {
      createApiKey: await createApiKeyAction(
        { status: "idle" },
        form({ name: "mine", kind: "live", scope: "full_access", domain: "", expiresInDays: "never" }),
      ),
      addDomain: await addDomainAction({ status: "idle" }, form({ domain: uniqueDomain(), defaultSender: "" })),
      verifyDomain: await verifyDomainAction({ status: "idle" }, form({ domain: domain.domain })),
      updateDefaultSender: await updateDefaultSenderAction(
        { status: "idle" },
        form({ domain: domain.domain, defaultSender: `hi@${domain.domain}` }),
      ),
      updateTracking: await updateTrackingAction(
        { status: "idle" },
        form({ id: domain.id, openTracking: "on", clickTracking: "on" }),
      ),
      removeDomain: await removeDomainAction(form({ id: domain.id })),
      createWebhook: await createWebhookAction({ status: "idle" }, form(endpoint)),
      updateWebhook: await updateWebhookAction({ status: "idle" }, form({ id: webhookId, ...endpoint })),
      setWebhookEnabled: await setWebhookEnabledAction({ status: "idle" }, form({ id: webhookId, enabled: "false" })),
      rotateWebhookSecret: await rotateWebhookSecretAction(form({ id: webhookId })),
      deleteWebhook: await deleteWebhookAction(form({ id: webhookId })),
      replayDelivery: await replayDeliveryAction(
        { status: "idle" },
        form({ id: webhookId, deliveryId: "00000000-0000-4000-8000-000000000000" }),
      ),
      sendTestEvent: await sendTestEventAction({ status: "idle" }, form({ id: webhookId })),
      changePlan: await changePlanAction({ status: "idle" }, form({ plan: "monthly" })),
    };
    expect(answers).toEqual({
      createApiKey: expect.objectContaining(refusal("api_keys")),
      addDomain: expect.objectContaining(refusal("domains")),
      verifyDomain: expect.objectContaining(refusal("domains")),
      updateDefaultSender: expect.objectContaining(refusal("domains")),
      updateTracking: expect.objectContaining(refusal("domains")),
      removeDomain: expect.objectContaining(refusal("domains")),
      createWebhook: expect.objectContaining(refusal("webhooks")),
      updateWebhook: expect.objectContaining(refusal("webhooks")),
      setWebhookEnabled: expect.objectContaining(refusal("webhooks")),
      rotateWebhookSecret: expect.objectContaining(refusal("webhooks")),
      deleteWebhook: expect.objectContaining(refusal("webhooks")),
      replayDelivery: expect.objectContaining(refusal("webhooks")),
      sendTestEvent: expect.objectContaining(refusal("webhooks")),
      changePlan: expect.objectContaining(refusal("billing")),
    });
    // The two actions without a form state throw the refusal.
    await expect(revokeApiKeyAction(form({ id: admin.keyId }))).rejects.toMatchObject({ code: "ADMIN_REQUIRED" });
    await expect(openCustomerPortalAction()).rejects.toMatchObject({ code: "ADMIN_REQUIRED" });
    expect(await teamState()).toEqual(before);
    expect(vi.mocked(revalidatePath)).not.toHaveBeenCalled();
  });

  it("sees that an admin is needed on each admin-only page, and the admin sees the page", async () => {
    const pages = async () => [
      await ApiKeysPage(),
      await DomainsPage(),
      await WebhooksPage(),
      await WebhookPage({ params: Promise.resolve({ id: webhookId }), searchParams: Promise.resolve({}) }),
      await BillingPage({ searchParams: Promise.resolve({}) }),
    ];
    signedIn.accountId = admin.accountId;
    signedIn.personId = member;
    const needed = (title: string, area: AdminArea) =>
      expect.objectContaining({ type: AdminNeeded, props: { title, area } });
    expect(await pages()).toEqual([
      needed("API keys", "api_keys"),
      needed("Sending domains", "domains"),
      needed("Webhooks", "webhooks"),
      needed("Webhook", "webhooks"),
      needed("Plan & billing", "billing"),
    ]);
    signedIn.personId = undefined;
    for (const page of await pages()) expect(page.type).not.toBe(AdminNeeded);
  });

  it("reaches the team through the API with the member's session where no admin is needed (usage)", async () => {
    const cookie = await personSessionCookie(member);
    const usage = await call(getUsage, "/api/v1/usage", { headers: { cookie } });
    expect(usage.status).toBe(200);
  });
});

describe("a member's session on the API", () => {
  const ADMIN_REQUIRED = {
    success: false,
    error: "Team admin required",
    code: "ADMIN_REQUIRED",
    message: adminRequired("webhooks").message,
  };

  it("is answered 403 ADMIN_REQUIRED by the webhooks routes, while the team's keys keep their scopes", async () => {
    const cookie = await personSessionCookie(member);
    const headers = { cookie, origin: BASE };
    const list = await call(listWebhooksRoute, "/api/v1/webhooks", { headers });
    expect({ status: list.status, body: list.body }).toEqual({ status: 403, body: ADMIN_REQUIRED });
    const get = await call(getWebhookRoute, `/api/v1/webhooks/${webhookId}`, { headers });
    expect({ status: get.status, body: get.body }).toEqual({ status: 403, body: ADMIN_REQUIRED });
    const before = await teamState();
    const created = await call(createWebhookRoute, "/api/v1/webhooks", {
      method: "POST",
      headers,
      body: { url: "https://hooks.example.com/api", events: [WEBHOOK_EVENT_TYPES[0]] },
    });
    expect({ status: created.status, body: created.body }).toEqual({ status: 403, body: ADMIN_REQUIRED });
    expect(await teamState()).toEqual(before);

    expect((await call(listWebhooksRoute, "/api/v1/webhooks", { headers: auth(admin) })).status).toBe(200);
  });

  const noTeam = {
    success: false,
    error: "Authentication required",
    code: "UNAUTHORIZED",
    message: CREDENTIAL_PROBLEMS.noTeam,
  };

  it("no longer reaches the team once the member is removed: told they belong to no team, until they sign out", async () => {
    const cookie = await personSessionCookie(member);
    expect((await call(getUsage, "/api/v1/usage", { headers: { cookie } })).status).toBe(200);
    await runAsActor({ actor: { type: "user", id: admin.personId, label: admin.email }, ip: null }, () =>
      removeTeamMember(admin.admin, member),
    );
    const removed = await call(getUsage, "/api/v1/usage", { headers: { cookie } });
    expect({ status: removed.status, body: removed.body }).toEqual({ status: 401, body: noTeam });
    const webhooks = await call(listWebhooksRoute, "/api/v1/webhooks", { headers: { cookie } });
    expect({ status: webhooks.status, body: webhooks.body }).toEqual({ status: 401, body: noTeam });
    // Signed out, the same cookie is an ended session again.
    await getDb()`delete from sessions where person_id = ${member}`;
    const ended = await call(getUsage, "/api/v1/usage", { headers: { cookie } });
    expect({ status: ended.status, body: ended.body }).toEqual({
      status: 401,
      body: { ...noTeam, message: CREDENTIAL_PROBLEMS.sessionEnded },
    });
    await getDb()`insert into memberships (account_id, person_id, role) values (${admin.accountId}, ${member}, 'member')`;
  });

  it("tells an admin who deleted their last team that they belong to no team", async () => {
    const team = await createTeam();
    const cookie = await personSessionCookie(team.personId);
    expect((await call(getUsage, "/api/v1/usage", { headers: { cookie } })).status).toBe(200);
    expect(await deleteTeamRow(team.accountId)).toBe(true);
    const answer = await call(getUsage, "/api/v1/usage", { headers: { cookie } });
    expect({ status: answer.status, body: answer.body }).toEqual({ status: 401, body: noTeam });
  });
});
