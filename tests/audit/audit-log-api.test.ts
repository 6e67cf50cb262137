import { describe, expect, it } from "vitest";
import { GET as listAuditLog } from "@/app/api/v1/audit-log/route";
import { PATCH as patchWebhook } from "@/app/api/v1/webhooks/[id]/route";
import { POST as postWebhook } from "@/app/api/v1/webhooks/route";
import { createApiKey } from "@/lib/api-keys/data";
import { setAccountPlan } from "@/lib/auth/data/accounts";
import { ISO, auth, call, counter, createUser, sessionCookie, type TestUser } from "../support/api";

// GET /api/v1/audit-log (issue 48): the team's entries, newest first, by page and action; full access, not metered.

const UUID = expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
const URL_1 = "https://93.184.215.14/hooks/orders";
const SYSTEM = { type: "system", id: null, label: "Letterpress" };

const get = async (query: string, headers: Record<string, string>) => {
  const { status, body } = await call(listAuditLog, `/api/v1/audit-log${query}`, { headers });
  return { status, body };
};

const INSUFFICIENT_SCOPE = {
  error: "API key not allowed",
  code: "INSUFFICIENT_SCOPE",
  success: false,
  message:
    "This API key has sending access only: it may send and batch-send, read and cancel emails, and read usage. Use a full-access key for this endpoint.",
};

const keyCreated = (user: TestUser) => ({
  id: UUID,
  action: "api_key.created",
  actor: SYSTEM,
  target: { type: "api_key", id: user.keyId, label: "test key" },
  ip: null,
  created_at: ISO,
  details: { display_fragment: expect.stringMatching(/^lp_live_…/), kind: "live", scope: "full_access" },
});

describe("GET /api/v1/audit-log", () => {
  it("answers the team's entries newest first, a page at a time and by action, without counting the call", async () => {
    const user = await createUser();
    const other = await createUser();
    await setAccountPlan(user.accountId, "monthly");
    const headers = { ...auth(user), "x-forwarded-for": "198.51.100.7" };
    const created = await call(postWebhook, "/api/v1/webhooks", {
      method: "POST",
      headers,
      body: { url: URL_1, events: ["email.sent"] },
    });
    const id = created.body.webhook.id as string;
    const planChanged = {
      id: UUID,
      action: "plan.changed",
      actor: SYSTEM,
      target: { type: "plan", id: null, label: "monthly" },
      ip: null,
      created_at: ISO,
      details: { from: "free", to: "monthly" },
    };
    const webhookCreated = {
      id: UUID,
      action: "webhook.created",
      actor: { type: "api_key", id: user.keyId, label: "test key" },
      target: { type: "webhook_endpoint", id, label: URL_1 },
      ip: "198.51.100.7",
      created_at: ISO,
      details: { events: ["email.sent"] },
    };
    const calls = await counter(user, "api_calls");

    expect(await get("", auth(user))).toEqual({
      status: 200,
      body: {
        success: true,
        events: [webhookCreated, planChanged, keyCreated(user)],
        pagination: { limit: 50, offset: 0, total: 3 },
      },
    });
    const page = await get("?limit=1&offset=1", auth(user));
    expect(page.body).toEqual({ success: true, events: [planChanged], pagination: { limit: 1, offset: 1, total: 3 } });
    const filtered = await get("?action=plan.changed", auth(user));
    expect(filtered.body).toEqual({
      success: true,
      events: [planChanged],
      pagination: { limit: 50, offset: 0, total: 1 },
    });
    expect((await get("?offset=3", auth(user))).body).toEqual({
      success: true,
      events: [],
      pagination: { limit: 50, offset: 3, total: 3 },
    });
    expect((await get("", auth(other))).body).toEqual({
      success: true,
      events: [keyCreated(other)],
      pagination: { limit: 50, offset: 0, total: 1 },
    });
    expect(await counter(user, "api_calls")).toBe(calls);
  });

  it("names the signed-in person for a change made with a session", async () => {
    const user = await createUser();
    const cookie = await sessionCookie(user.accountId);
    const created = await call(postWebhook, "/api/v1/webhooks", {
      method: "POST",
      headers: { ...auth(user) },
      body: { url: URL_1, events: ["email.sent"] },
    });
    const id = created.body.webhook.id as string;
    const patched = await call(patchWebhook, "/x", {
      method: "PATCH",
      params: { id },
      headers: { cookie, origin: "http://localhost:3000", "x-forwarded-for": "192.0.2.1" },
      body: { description: "Orders" },
    });
    expect(patched.status).toBe(200);
    const { body } = await get("?action=webhook.updated", { cookie });
    expect(body).toEqual({
      success: true,
      events: [
        {
          id: UUID,
          action: "webhook.updated",
          actor: { type: "user", id: user.personId, label: user.email },
          target: { type: "webhook_endpoint", id, label: URL_1 },
          ip: "192.0.2.1",
          created_at: ISO,
          details: { changed: ["description"] },
        },
      ],
      pagination: { limit: 50, offset: 0, total: 1 },
    });
  });

  it("refuses an unknown action, a bad page, and a sending-access key", async () => {
    const user = await createUser();
    const actions =
      "api_key.created, api_key.revoked, domain.added, domain.verified, domain.removed, webhook.created, webhook.updated, webhook.deleted, webhook.secret_rotated, member.invited, member.joined, member.role_changed, member.removed, invitation.revoked, plan.changed, template.created, template.published, template.restored, template.deleted, library.added, library.removed, suppression.removed";
    expect(await get("?action=api_key.deleted&limit=0", auth(user))).toEqual({
      status: 400,
      body: {
        error: "Invalid query parameters",
        code: "VALIDATION_ERROR",
        success: false,
        details: [
          { field: "limit", message: "limit must be an integer from 1 to 100" },
          { field: "action", message: `action must be one of ${actions}` },
        ],
      },
    });
    const sending = await createApiKey(user.accountId, { name: "sending", scope: "sending_access" });
    expect(await get("", { "x-api-key": sending.key })).toEqual({ status: 403, body: INSUFFICIENT_SCOPE });
  });
});
