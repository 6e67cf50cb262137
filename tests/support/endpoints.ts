import { randomBytes, randomUUID } from "node:crypto";
import path from "node:path";
import { contract } from "@/lib/api/contract";
import { getDb } from "@/lib/db/client";
import { recordCountedEmail } from "@/lib/sent-emails/data/records";
import { createUserTemplate } from "@/lib/templates/data/user-templates";
import { OPEN_VARIABLES_SCHEMA } from "@/lib/templates/variables-schema";
import { billingPeriod } from "@/lib/core/plans";
import { catalogueId, type CallOptions, type TestUser } from "./api";

export type OperationId = keyof typeof contract;

export type Endpoint = {
  /** The operation's method and contract path: `GET /templates/{id}`. */
  name: string;
  operationId: OperationId;
  handler: (...args: any[]) => Promise<Response>;
  /** The path and call for the resource `id` addresses: a template in the caller's library, or `resource`'s. */
  path: (id: string) => string;
  options: (id: string) => CallOptions;
  metered: boolean;
  /** The status of a call that succeeds. */
  status: number;
  /** Makes the caller a resource of its own for the endpoint to address (by default: the template). */
  resource?: (user: TestUser) => Promise<string>;
};

/** What a call of an operation that succeeds needs beyond what the contract says of the operation. */
type EndpointCase = {
  /** The JSON body, for the resource `id` addresses (none when absent). */
  body?: (id: string) => unknown;
  /** The path parameters after the first, which is the resource `id` (or made from it). */
  params?: Record<string, string> | ((id: string) => Record<string, string>);
  resource?: (user: TestUser) => Promise<string>;
  /** Where it is not the contract's success status. */
  status?: number;
  /**
   * Succeeds only for a sender (tests/support/api.ts `sender`: a verified domain of its own), so it is left out of
   * `endpoints`, for callers without one, and is in `senderEndpoints`.
   */
  sender?: true;
};

/** The id an endpoint's call addresses for `user`, whose library holds `templateId`. */
export async function addressedId(endpoint: Endpoint, user: TestUser, templateId: string): Promise<string> {
  return endpoint.resource ? endpoint.resource(user) : templateId;
}

/** An email in the embedded outbox, recorded (and counted) as POST /send records one. */
async function recordedEmail(user: TestUser, scheduledAt: Date | null = null): Promise<string> {
  const counted = await recordCountedEmail(
    {
      accountId: user.accountId,
      templateId: await catalogueId("welcome"),
      templateVersion: "1",
      status: scheduledAt ? "scheduled" : "sent",
      provider: "outbox",
      from: "hello@acme.example",
      to: ["ann@example.com"],
      cc: [],
      bcc: [],
      replyTo: [],
      subject: "Welcome",
      html: "<p>Welcome</p>",
      text: "Welcome",
      headers: {},
      attachments: [],
      tags: [],
      scheduledAt,
      providerIdempotencyKey: null,
    },
    { periodStart: billingPeriod().start, limit: 100, overage: false },
  );
  if (!counted.allowed) throw new Error("the test account has no emails left");
  return counted.id;
}

/** An address the account has suppressed (as a hard bounce would). */
export async function suppressedAddress(user: TestUser): Promise<string> {
  const email = `gone-${randomUUID()}@example.com`;
  await getDb()`insert into email_suppressions (account_id, email, reason) values (${user.accountId}, ${email}, 'bounced')`;
  return email;
}

const TEMPLATE_SOURCE = `export default function Email() { return <p>Hi</p>; }\n`;

/**
 * A template the user wrote, in their library (stored directly: what it holds does not matter to the call): its
 * version 1, or with `publish` false only its draft.
 */
async function ownTemplate(user: TestUser, publish = true): Promise<string> {
  const created = await createUserTemplate(
    user.accountId,
    {
      name: "Own",
      description: "",
      code: TEMPLATE_SOURCE,
      compiledCode: null,
      variables: OPEN_VARIABLES_SCHEMA,
      previewProps: null,
    },
    publish,
  );
  return created.id;
}

/** A catalogue template in the caller's library (added the first time), for DELETE /library/{id}. */
async function magicLinkInLibrary(user: TestUser): Promise<string> {
  const id = await catalogueId("magic-link");
  await getDb()`
    insert into library_entries (account_id, template_id, added_via) values (${user.accountId}, ${id}, 'free')
    on conflict do nothing`;
  return id;
}

/** A public address's URL (an IP literal: nothing to look up) that POST /webhooks takes; nothing connects to it. */
export const WEBHOOK_URL = "https://93.184.215.14/hooks/letterpress";

/**
 * The URL of the tables' stored webhooks: a loopback address, stored directly, so that an attempt (a test event, a
 * replay) is refused at once without leaving the machine (or, with WEBHOOKS_ALLOW_PRIVATE_URLS=1, finds no server).
 */
const UNREACHABLE_WEBHOOK_URL = "https://127.0.0.1:9/hooks";

/**
 * A webhook endpoint of the user's: its oldest, made (stored directly) when it has none, so that the tables' many calls
 * for one user stay within the account's 10.
 */
export async function ownWebhook(user: TestUser): Promise<string> {
  const [row] = await getDb()<{ id: string }[]>`
    with existing as (
      select id from webhook_endpoints where account_id = ${user.accountId} order by created_at, id limit 1
    ), made as (
      insert into webhook_endpoints (account_id, url, events, secret)
      select ${user.accountId}, ${UNREACHABLE_WEBHOOK_URL}, array['email.delivered'],
             ${`whsec_${randomBytes(32).toString("base64")}`}
      where not exists (select 1 from existing)
      returning id
    )
    select id from existing union all select id from made`;
  return row.id;
}

/** The delivery webhookDelivered made last for each webhook, for the replay's {delivery_id}. */
const latestDelivery = new Map<string, string>();

/** The user's webhook (ownWebhook), with a delivery of an event to it that failed, as the runner leaves one. */
async function webhookWithDelivery(user: TestUser): Promise<string> {
  const endpointId = await ownWebhook(user);
  const [row] = await getDb()<{ id: string }[]>`
    with event as (
      insert into webhook_events (account_id, type, payload)
      values (${user.accountId}, 'email.delivered', '{"type":"email.delivered","created_at":"2026-12-01T00:00:00.000Z","data":{}}')
      returning id
    )
    insert into webhook_deliveries (account_id, endpoint_id, event_id, status, attempts, finished_at)
    select ${user.accountId}, ${endpointId}, event.id, 'failed', 8, now() from event
    returning id`;
  latestDelivery.set(endpointId, row.id);
  return endpointId;
}

const TEMPLATE_FILES = { name: "Mine", files: { "email.tsx": TEMPLATE_SOURCE } };

const COMPONENT_FILES = { "index.tsx": `export default function Footer() { return <p>Acme</p>; }\n` };
const componentName = () => `c-${randomUUID().slice(0, 8)}`;

/** A component of the user's named `name` (stored directly, the first time), which no template imports. */
async function ownComponent(user: TestUser, name: string): Promise<string> {
  await getDb()`
    with made as (
      insert into components (account_id, name, version) values (${user.accountId}, ${name}, 1)
      on conflict (account_id, name) do nothing
      returning id
    )
    insert into component_versions (component_id, version, files, entry)
    select id, 1, ${JSON.stringify(COMPONENT_FILES)}::json, 'index.tsx' from made`;
  return name;
}

const domainName = () => `d${randomUUID().slice(0, 8)}.endpoints.example`;

/** A sending domain of the user's, not verified (stored directly, as the dashboard's add form stores one). */
async function ownDomain(user: TestUser): Promise<string> {
  const [{ id }] = await getDb()<{ id: string }[]>`
    insert into sending_domains (account_id, domain, verified, default_sender)
    values (${user.accountId}, ${domainName()}, false, null) returning id`;
  return id;
}

/**
 * Every operation of the contract (lib/api/contract/), which the tables below are made from: an operation added there
 * without a case here fails the type check, and loading this file.
 */
const CASES: Record<OperationId, EndpointCase> = {
  listLibrary: {},
  // The template is in the caller's library already: the answer is 200 with its entry.
  addToLibrary: { body: (id) => ({ template_id: id }), status: 200 },
  removeFromLibrary: { resource: magicLinkInLibrary },
  listCatalogue: {},
  createTemplate: { body: () => TEMPLATE_FILES },
  getTemplate: {},
  replaceTemplate: { body: () => TEMPLATE_FILES, resource: ownTemplate },
  // Clearing the alias: a call for each of a caller's templates succeeds.
  setTemplateAlias: { body: () => ({ alias: null }), resource: ownTemplate },
  deleteTemplate: { resource: ownTemplate },
  renderTemplate: { body: () => ({}) },
  getTemplateSource: {},
  publishTemplate: { resource: (user) => ownTemplate(user, false) },
  listTemplateVersions: { resource: ownTemplate },
  getTemplateVersion: { params: { n: "1" }, resource: ownTemplate },
  restoreTemplateVersion: { params: { n: "1" }, resource: ownTemplate },
  createComponent: { body: () => ({ name: componentName(), files: COMPONENT_FILES }) },
  listComponents: {},
  getComponent: { resource: (user) => ownComponent(user, "shared") },
  updateComponent: { body: () => ({ files: COMPONENT_FILES }), resource: (user) => ownComponent(user, "shared") },
  deleteComponent: { resource: (user) => ownComponent(user, componentName()) },
  sendEmail: { body: (id) => ({ template_id: id, to: "ann@example.com", subject: "Hi" }), sender: true },
  sendBatch: {
    body: (id) => ({ emails: [{ template_id: id, to: "ann@example.com", subject: "Hi" }] }),
    sender: true,
  },
  listEmails: {},
  getEmail: { resource: recordedEmail },
  cancelEmail: { resource: (user) => recordedEmail(user, new Date(Date.now() + 24 * 3600_000)) },
  listSuppressions: {},
  deleteSuppression: { resource: suppressedAddress },
  getUsage: {},
  getMetrics: {},
  getTeam: {},
  listDomains: {},
  createDomain: { body: () => ({ name: domainName() }) },
  getDomain: { resource: ownDomain },
  verifyDomain: { resource: ownDomain },
  updateDomain: { body: () => ({ open_tracking: true }), resource: ownDomain },
  deleteDomain: { resource: ownDomain },
  createWebhook: { body: () => ({ url: WEBHOOK_URL, events: ["email.delivered"] }) },
  listWebhooks: {},
  getWebhook: { resource: ownWebhook },
  updateWebhook: { body: () => ({ description: "Orders" }), resource: ownWebhook },
  deleteWebhook: { resource: ownWebhook },
  listWebhookDeliveries: { resource: ownWebhook },
  rotateWebhookSecret: { resource: ownWebhook },
  replayWebhookDelivery: {
    params: (id) => ({ delivery_id: latestDelivery.get(id) ?? id }),
    resource: webhookWithDelivery,
  },
  testWebhook: { resource: ownWebhook },
  listAuditLog: {},
};

const API_V1 = path.join(import.meta.dirname, "..", "..", "app", "api", "v1");

/** The route module of each path of the contract, from the file at that path (`{id}` as `[id]`). */
export const ROUTE_MODULES: Record<string, Record<string, unknown>> = Object.fromEntries(
  await Promise.all(
    [...new Set(Object.values(contract).map((operation) => operation.path))].map(async (contractPath) => [
      contractPath,
      await import(path.join(API_V1, contractPath.replace(/\{(\w+)\}/g, "[$1]"), "route.ts")),
    ]),
  ),
);

function endpointOf(operationId: OperationId): Endpoint {
  const operation = contract[operationId];
  const known = CASES[operationId] as EndpointCase | undefined;
  if (!known) throw new Error(`tests/support/endpoints.ts has no case for ${operationId}: add one to CASES`);
  const { body, params = {}, resource, status } = known;
  const others = (id: string) => (typeof params === "function" ? params(id) : params);
  const [addressed, ...rest] = [...operation.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => name);
  const missing = rest.filter((name) => others("x")[name] === undefined);
  if (missing.length)
    throw new Error(`${operationId}'s case in tests/support/endpoints.ts has no ${missing.join(", ")}`);
  const paramsFor = (id: string): Record<string, string> => (addressed ? { [addressed]: id, ...others(id) } : {});
  return {
    name: `${operation.method} ${operation.path}`,
    operationId,
    handler: ROUTE_MODULES[operation.path][operation.method] as Endpoint["handler"],
    path: (id) =>
      `/api/v1${operation.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(paramsFor(id)[name]))}`,
    options: (id) => ({
      method: operation.method,
      ...(addressed ? { params: paramsFor(id) } : {}),
      ...(body ? { body: body(id) } : {}),
    }),
    metered: operation.metered,
    status: status ?? operation.success.status,
    ...(resource ? { resource } : {}),
  };
}

const allEndpoints = (Object.keys(contract) as OperationId[]).map(endpointOf);

/** Every authenticated /api/v1 endpoint a caller without a sending domain succeeds at, in the contract's order. */
export const endpoints: Endpoint[] = allEndpoints.filter(({ operationId }) => !CASES[operationId].sender);

/** The endpoints that succeed only for a sender (POST /send, POST /send/batch). */
export const senderEndpoints: Endpoint[] = allEndpoints.filter(({ operationId }) => CASES[operationId].sender);
