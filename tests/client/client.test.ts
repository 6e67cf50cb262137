import { LetterpressError } from "letterpress";
import { describe, expect, it } from "vitest";
import { GET as getCatalogue } from "@/app/api/v1/catalogue/route";
import { GET as getEmail } from "@/app/api/v1/emails/[id]/route";
import { GET as listEmails } from "@/app/api/v1/emails/route";
import { GET as getLibrary } from "@/app/api/v1/library/route";
import { GET as listSuppressions } from "@/app/api/v1/suppressions/route";
import { POST as postRender } from "@/app/api/v1/templates/[id]/render/route";
import { GET as getTemplate } from "@/app/api/v1/templates/[id]/route";
import { GET as getSource } from "@/app/api/v1/templates/[id]/source/route";
import { GET as getVersion } from "@/app/api/v1/templates/[id]/versions/[n]/route";
import { GET as listVersions } from "@/app/api/v1/templates/[id]/versions/route";
import { GET as getTeam } from "@/app/api/v1/team/route";
import { GET as getUsage } from "@/app/api/v1/usage/route";
import { GET as getMetrics } from "@/app/api/v1/metrics/route";
import { GET as listWebhookDeliveries } from "@/app/api/v1/webhooks/[id]/deliveries/route";
import { GET as getComponent } from "@/app/api/v1/components/[name]/route";
import { GET as listComponents } from "@/app/api/v1/components/route";
import { GET as getDomain } from "@/app/api/v1/domains/[id]/route";
import { GET as listDomains } from "@/app/api/v1/domains/route";
import { GET as getWebhook } from "@/app/api/v1/webhooks/[id]/route";
import { GET as listWebhooks } from "@/app/api/v1/webhooks/route";
import { GET as listAuditLog } from "@/app/api/v1/audit-log/route";
import { API_OPERATIONS } from "@/lib/api/contract";
import { revokeApiKey } from "@/lib/api-keys/data";
import { getDb } from "@/lib/db/client";
import { listOutbox } from "@/lib/sent-emails/data/outbox";
import { PLANS } from "@/lib/core/plans";
import { auth, call, ISO, sender, setApiCallsUsed, type Sender } from "../support/api";
import { inProcessClient, inProcessFetch, type Reached } from "../support/client";
import { suppressedAddress, WEBHOOK_URL } from "../support/endpoints";

const ORDER = `type Props = { orderId: string; status?: "paid" | "due" };
export default function Order({ orderId, status = "due" }: Props) {
  return <p>Order {orderId} is {status}</p>;
}
`;

const UUID = expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);

/** The body the route at `path` answers `user` directly, without the client. */
async function direct(user: Sender, handler: Parameters<typeof call>[0], path: string, options = {}) {
  const { body } = await call(handler, path, { headers: auth(user), ...options });
  return body;
}

/** What a LetterpressError carries. */
async function thrown(call: Promise<unknown>) {
  const error = await call.then(
    () => expect.unreachable("the call succeeded"),
    (error: unknown) => error,
  );
  expect(error).toBeInstanceOf(LetterpressError);
  const { name, status, code, message, details, requestId } = error as LetterpressError;
  return { name, status, code, message, details, requestId };
}

const welcome = (subject = "Welcome aboard") => ({ template_id: "welcome", to: "ann@example.com", subject });

describe("the letterpress client against the app", () => {
  it("answers every operation's success body through its method", async () => {
    const user = await sender();
    const reached: Reached[] = [];
    const lp = inProcessClient(user.key, inProcessFetch(reached));

    expect(await lp.catalogue.list({ limit: 3 })).toEqual(
      await direct(user, getCatalogue, "/api/v1/catalogue?limit=3"),
    );
    const added = await lp.library.add({ template_id: "magic-link" });
    const library = await lp.library.list();
    expect(library).toEqual(await direct(user, getLibrary, "/api/v1/library"));
    expect(added).toEqual({ success: true, template: library.templates.find(({ slug }) => slug === "magic-link") });
    expect(await lp.library.remove("magic-link")).toEqual({ success: true });

    const created = await lp.templates.create({ name: "Order", files: { "email.tsx": ORDER }, alias: "order" });
    const { id } = created.template;
    expect(created).toEqual(await direct(user, getTemplate, `/api/v1/templates/${id}`, { params: { id } }));
    expect(await lp.templates.get("order")).toEqual(created);
    const renamed = await lp.templates.setAlias(id, { alias: "order-2" });
    expect(renamed).toEqual({ ...created, template: { ...created.template, alias: "order-2", updated_at: ISO } });
    const files = { "email.tsx": ORDER.replace("Order {orderId}", "Your order {orderId}") };
    const replaced = await lp.templates.replace(id, { name: "Order", files, publish: false });
    expect(replaced).toEqual(await direct(user, getTemplate, `/api/v1/templates/${id}`, { params: { id } }));
    expect(replaced.template.draft).toEqual({ revision: expect.any(Number), updated_at: ISO });
    const published = await lp.templates.publish(id, { revision: replaced.template.draft!.revision });
    const versions = await lp.templates.listVersions("order-2", { limit: 5 });
    expect(versions).toEqual(
      await direct(user, listVersions, `/api/v1/templates/${id}/versions?limit=5`, { params: { id } }),
    );
    expect(published).toEqual({ success: true, version: versions.versions[0] });
    expect(published.version.version).toBe(2);
    const first = await lp.templates.getVersion(id, 1);
    expect(first).toEqual(
      await direct(user, getVersion, `/api/v1/templates/${id}/versions/1`, { params: { id, n: "1" } }),
    );
    const restored = await lp.templates.restoreVersion(id, 1, { publish: true });
    expect(restored).toMatchObject({ success: true, version: { version: 3 } });
    expect(await lp.templates.getSource("order-2")).toEqual(
      await direct(user, getSource, `/api/v1/templates/${id}/source`, { params: { id } }),
    );
    const variables = { orderId: "A-1", status: "paid" };
    const rendered = await lp.render("order-2", { variables });
    expect(rendered).toEqual(
      await direct(user, postRender, `/api/v1/templates/${id}/render`, {
        method: "POST",
        params: { id },
        body: { variables },
      }),
    );
    expect(rendered).toMatchObject({ html: expect.stringContaining("Order <!-- -->A-1<!-- --> is <!-- -->paid") });

    const sent = await lp.send(welcome());
    const email = await lp.emails.get(sent.data.id);
    expect(email).toEqual(
      await direct(user, getEmail, `/api/v1/emails/${sent.data.id}`, { params: { id: sent.data.id } }),
    );
    expect(sent.data).toEqual({
      id: sent.data.id,
      from: `hello@${user.domain}`,
      to: ["ann@example.com"],
      subject: "Welcome aboard",
      locale: "en",
      sent_at: ISO,
    });
    const batch = await lp.sendBatch({ emails: [welcome("Welcome again")] });
    expect(batch.data).toEqual([
      {
        id: expect.any(String),
        from: `hello@${user.domain}`,
        to: ["ann@example.com"],
        subject: "Welcome again",
        locale: "en",
        sent_at: ISO,
      },
    ]);
    const later = await lp.send({ ...welcome("Later"), scheduled_at: new Date(Date.now() + 86_400_000).toISOString() });
    const canceled = await lp.emails.cancel(later.data.id);
    expect(canceled).toEqual(
      await direct(user, getEmail, `/api/v1/emails/${later.data.id}`, { params: { id: later.data.id } }),
    );
    expect(canceled.email.status).toBe("canceled");
    expect(await lp.emails.list({ limit: 10 })).toEqual(await direct(user, listEmails, "/api/v1/emails?limit=10"));

    const gone = await suppressedAddress(user);
    const suppressions = await lp.suppressions.list();
    expect(suppressions).toEqual(await direct(user, listSuppressions, "/api/v1/suppressions"));
    expect(await lp.suppressions.delete(gone)).toEqual({ success: true, suppression: suppressions.suppressions[0] });
    expect(await lp.usage.get()).toEqual(await direct(user, getUsage, "/api/v1/usage"));
    expect(await lp.metrics.get({ group_by: "template", test: "true" })).toEqual(
      await direct(user, getMetrics, "/api/v1/metrics?group_by=template&test=true"),
    );
    expect(await lp.team.get()).toEqual(await direct(user, getTeam, "/api/v1/team"));
    expect(await lp.templates.delete(id)).toEqual({ success: true });

    const footer = { "index.tsx": "export default function Footer() { return <p>Acme</p>; }\n" };
    const component = await lp.components.create({ name: "footer", files: footer });
    expect(component).toEqual(
      await direct(user, getComponent, "/api/v1/components/footer", { params: { name: "footer" } }),
    );
    expect(component.component).toMatchObject({ name: "footer", version: 1, files: footer, used_by: [] });
    expect(await lp.components.list()).toEqual(await direct(user, listComponents, "/api/v1/components"));
    const changed = { "index.tsx": footer["index.tsx"].replace("Acme", "Acme Ltd") };
    expect(await lp.components.update("footer", { files: changed })).toMatchObject({
      component: { version: 2, files: changed },
      republished: [],
    });
    expect(await lp.components.get("footer")).toEqual(
      await direct(user, getComponent, "/api/v1/components/footer", { params: { name: "footer" } }),
    );
    expect(await lp.components.delete("footer")).toEqual({ success: true });

    const name = `mail-${user.accountId.slice(0, 8)}.client.example`;
    const domain = await lp.domains.create({ name });
    const domainId = domain.domain.id;
    expect(domain).toEqual(await direct(user, getDomain, `/api/v1/domains/${domainId}`, { params: { id: domainId } }));
    expect(await lp.domains.list()).toEqual(await direct(user, listDomains, "/api/v1/domains"));
    expect(await lp.domains.verify(domainId)).toMatchObject({ domain: { status: "verified" } });
    expect(await lp.domains.update(domainId, { open_tracking: true })).toMatchObject({
      domain: { open_tracking: true },
    });
    expect(await lp.domains.get(domainId)).toEqual(
      await direct(user, getDomain, `/api/v1/domains/${domainId}`, { params: { id: domainId } }),
    );
    expect(await lp.domains.delete(domainId)).toEqual({ success: true });

    const hook = await lp.webhooks.create({ url: WEBHOOK_URL, events: ["email.delivered"] });
    const { secret, ...webhook } = hook.webhook;
    expect(secret).toMatch(/^whsec_/);
    const hookId = webhook.id;
    expect(await lp.webhooks.get(hookId)).toEqual(
      await direct(user, getWebhook, `/api/v1/webhooks/${hookId}`, { params: { id: hookId } }),
    );
    expect(await lp.webhooks.get(hookId)).toEqual({ success: true, webhook });
    expect(await lp.webhooks.list()).toEqual(await direct(user, listWebhooks, "/api/v1/webhooks"));
    const updated = await lp.webhooks.update(hookId, { description: "Orders" });
    expect(updated).toEqual({ success: true, webhook: { ...webhook, description: "Orders", updated_at: ISO } });
    expect(await lp.webhooks.listDeliveries(hookId, { status: "failed" })).toEqual(
      await direct(user, listWebhookDeliveries, `/api/v1/webhooks/${hookId}/deliveries?status=failed`, {
        params: { id: hookId },
      }),
    );
    // Attempts go to a loopback address (stored directly, as no API call takes it): refused without leaving the machine.
    await getDb()`update webhook_endpoints set url = 'https://127.0.0.1:9/hooks' where id = ${hookId}`;
    const tested = await lp.webhooks.test(hookId);
    expect(tested.delivery).toMatchObject({ event_type: "webhook.test", status: "failed", attempts: 1 });
    const replayed = await lp.webhooks.replay(hookId, tested.delivery.id);
    expect(replayed.delivery).toMatchObject({ event_id: tested.delivery.event_id, status: "pending" });
    const rotated = await lp.webhooks.rotateSecret(hookId);
    expect(rotated.webhook.secret).not.toBe(secret);
    expect(await lp.webhooks.delete(hookId)).toEqual({ success: true });
    expect(await lp.auditLog.list({ action: "webhook.deleted" })).toEqual(
      await direct(user, listAuditLog, "/api/v1/audit-log?action=webhook.deleted"),
    );

    // Every operation of the contract was reached through the client, and each send under a key of its own.
    expect(new Set(reached.map(({ operation }) => operation))).toEqual(
      new Set(API_OPERATIONS.map(({ method, path }) => `${method} ${path}`)),
    );
    const keys = reached.filter(({ operation }) => operation.startsWith("POST /send"));
    expect(keys.map(({ headers }) => headers.get("idempotency-key"))).toEqual([UUID, UUID, UUID]);
    expect(new Set(keys.map(({ headers }) => headers.get("idempotency-key"))).size).toBe(3);
  });

  it("retries a send answered 429 after its Retry-After, under the same key, and one email is sent", async () => {
    const user = await sender("free");
    await setApiCallsUsed(user, PLANS.free.apiCallsPerMonth!);
    const reached: Reached[] = [];
    const app = inProcessFetch(reached);
    // The month's API calls are used up until a second from now, when they start over.
    const lp = inProcessClient(user.key, async (request) => {
      const response = await app(request);
      if (response.status !== 429) return response;
      await setApiCallsUsed(user, 0);
      const headers = new Headers(response.headers);
      headers.set("Retry-After", "1");
      return new Response(response.body, { status: 429, headers });
    });
    const started = Date.now();
    const sent = await lp.send(welcome());
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(reached.map(({ operation }) => operation)).toEqual(["POST /send", "POST /send"]);
    expect(reached[1].headers.get("idempotency-key")).toBe(reached[0].headers.get("idempotency-key"));
    expect((await listOutbox(user.accountId)).map(({ id }) => id)).toEqual([sent.data.id]);
  });

  it("throws a 429 whose Retry-After is the month's end at once, sending nothing", async () => {
    const user = await sender("free");
    await setApiCallsUsed(user, PLANS.free.apiCallsPerMonth!);
    const reached: Reached[] = [];
    const lp = inProcessClient(user.key, inProcessFetch(reached));
    expect(await thrown(lp.send(welcome()))).toEqual({
      name: "LetterpressError",
      status: 429,
      code: "RATE_LIMIT_EXCEEDED",
      message: expect.stringContaining("500"),
      details: { limit: 500, remaining: 0, reset: ISO, resetInSeconds: expect.any(Number) },
      requestId: expect.any(String),
    });
    expect(reached).toHaveLength(1);
    expect(await listOutbox(user.accountId)).toEqual([]);
  });

  it("throws a 401 as a LetterpressError whose message is the server's: what is wrong with the key", async () => {
    const user = await sender();
    await revokeApiKey(user.keyId);
    expect(await thrown(inProcessClient(user.key).usage.get())).toEqual({
      name: "LetterpressError",
      status: 401,
      code: "UNAUTHORIZED",
      message:
        "The API key is unknown or revoked: use a key listed on the dashboard's API keys page (Settings), or create one.",
      details: null,
      requestId: UUID,
    });
  });

  it("throws a 400 as a LetterpressError with the details, without retrying", async () => {
    const user = await sender();
    const reached: Reached[] = [];
    const lp = inProcessClient(user.key, inProcessFetch(reached));
    expect(await thrown(lp.send({ template_id: "welcome", to: "not an address", subject: "" }))).toEqual({
      name: "LetterpressError",
      status: 400,
      code: "VALIDATION_ERROR",
      message: "Invalid request body",
      details: [
        { field: "to", message: "must be a valid email address" },
        { field: "subject", message: "subject must be 1 to 998 characters" },
      ],
      requestId: UUID,
    });
    expect(reached).toHaveLength(1);
  });

  it("retries a send whose answer was lost after the app sent it, under the same key, and one email is sent", async () => {
    const user = await sender();
    const reached: Reached[] = [];
    const app = inProcessFetch(reached);
    let lost = false;
    const lp = inProcessClient(user.key, async (request) => {
      const response = await app(request);
      if (lost) return response;
      lost = true;
      throw new TypeError("fetch failed");
    });
    const sent = await lp.send(welcome(), { idempotencyKey: "signup-42" });
    expect(reached.map(({ headers }) => headers.get("idempotency-key"))).toEqual(["signup-42", "signup-42"]);
    expect((await listOutbox(user.accountId)).map(({ id }) => id)).toEqual([sent.data.id]);
  });
});
