import { randomUUID } from "node:crypto";
import { POST as cancelEmail } from "@/app/api/v1/emails/[id]/cancel/route";
import { GET as getEmail } from "@/app/api/v1/emails/[id]/route";
import { GET as listEmails } from "@/app/api/v1/emails/route";
import { GET as getCatalogue } from "@/app/api/v1/catalogue/route";
import { DELETE as deleteLibraryEntry } from "@/app/api/v1/library/[id]/route";
import { GET as getLibrary, POST as postLibrary } from "@/app/api/v1/library/route";
import { POST as postTemplate } from "@/app/api/v1/templates/route";
import { DELETE as deleteTemplate, GET as getTemplate, PUT as putTemplate } from "@/app/api/v1/templates/[id]/route";
import { POST as postRender } from "@/app/api/v1/templates/[id]/render/route";
import { GET as getSource } from "@/app/api/v1/templates/[id]/source/route";
import { POST as postPublish } from "@/app/api/v1/templates/[id]/publish/route";
import { POST as postRestore } from "@/app/api/v1/templates/[id]/versions/[n]/restore/route";
import { GET as getVersion } from "@/app/api/v1/templates/[id]/versions/[n]/route";
import { GET as listVersions } from "@/app/api/v1/templates/[id]/versions/route";
import { DELETE as deleteSuppression } from "@/app/api/v1/suppressions/[email]/route";
import { GET as listSuppressions } from "@/app/api/v1/suppressions/route";
import { GET as getUsage } from "@/app/api/v1/usage/route";
import { getDb } from "@/lib/db/client";
import { recordCountedEmail } from "@/lib/db/emails/records";
import { createUserTemplate } from "@/lib/db/user-templates";
import { OPEN_VARIABLES_SCHEMA } from "@/lib/schemas/variables";
import { billingPeriod } from "@/lib/plans";
import { catalogueId, type CallOptions, type TestUser } from "./api";

export type Endpoint = {
  name: string;
  handler: (...args: any[]) => Promise<Response>;
  /** The path and call for the resource `id` addresses: a template in the caller's library, or `resource`'s. */
  path: (id: string) => string;
  options: (id: string) => CallOptions;
  metered: boolean;
  /** The status of a call that succeeds (200 unless said). */
  status?: number;
  /** Makes the caller a resource of its own for the endpoint to address (by default: the template). */
  resource?: (user: TestUser) => Promise<string>;
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

/** Every authenticated /api/v1 endpoint, so tables of cases can run against all of them. */
export const endpoints: Endpoint[] = [
  { name: "GET /library", handler: getLibrary, path: () => "/api/v1/library", options: () => ({}), metered: true },
  {
    // The template is in the caller's library already: the answer is 200 with its entry.
    name: "POST /library",
    handler: postLibrary,
    path: () => "/api/v1/library",
    options: (id) => ({ method: "POST", body: { template_id: id } }),
    metered: true,
  },
  {
    name: "DELETE /library/{id}",
    handler: deleteLibraryEntry,
    path: (id) => `/api/v1/library/${encodeURIComponent(id)}`,
    options: (id) => ({ method: "DELETE", params: { id } }),
    metered: true,
    resource: magicLinkInLibrary,
  },
  {
    name: "GET /catalogue",
    handler: getCatalogue,
    path: () => "/api/v1/catalogue",
    options: () => ({}),
    metered: true,
  },
  {
    name: "POST /templates/{id}/render",
    handler: postRender,
    path: (id) => `/api/v1/templates/${id}/render`,
    options: (id) => ({ method: "POST", params: { id }, body: {} }),
    metered: true,
  },
  {
    name: "GET /templates/{id}",
    handler: getTemplate,
    path: (id) => `/api/v1/templates/${id}`,
    options: (id) => ({ params: { id } }),
    metered: false,
  },
  {
    name: "GET /templates/{id}/source",
    handler: getSource,
    path: (id) => `/api/v1/templates/${id}/source`,
    options: (id) => ({ params: { id } }),
    metered: false,
  },
  { name: "GET /usage", handler: getUsage, path: () => "/api/v1/usage", options: () => ({}), metered: false },
  { name: "GET /emails", handler: listEmails, path: () => "/api/v1/emails", options: () => ({}), metered: true },
  {
    name: "GET /emails/{id}",
    handler: getEmail,
    path: (id) => `/api/v1/emails/${id}`,
    options: (id) => ({ params: { id } }),
    metered: true,
    resource: recordedEmail,
  },
  {
    name: "POST /emails/{id}/cancel",
    handler: cancelEmail,
    path: (id) => `/api/v1/emails/${id}/cancel`,
    options: (id) => ({ method: "POST", params: { id } }),
    metered: true,
    resource: (user) => recordedEmail(user, new Date(Date.now() + 24 * 3600_000)),
  },
  {
    name: "GET /suppressions",
    handler: listSuppressions,
    path: () => "/api/v1/suppressions",
    options: () => ({}),
    metered: true,
  },
  {
    name: "DELETE /suppressions/{email}",
    handler: deleteSuppression,
    path: (email) => `/api/v1/suppressions/${encodeURIComponent(email)}`,
    options: (email) => ({ method: "DELETE", params: { email } }),
    metered: true,
    resource: suppressedAddress,
  },
  {
    name: "POST /templates",
    handler: postTemplate,
    path: () => "/api/v1/templates",
    options: () => ({ method: "POST", body: { name: "Mine", files: { "email.tsx": TEMPLATE_SOURCE } } }),
    metered: true,
    status: 201,
  },
  {
    name: "PUT /templates/{id}",
    handler: putTemplate,
    path: (id) => `/api/v1/templates/${id}`,
    options: (id) => ({
      method: "PUT",
      params: { id },
      body: { name: "Mine", files: { "email.tsx": TEMPLATE_SOURCE } },
    }),
    metered: true,
    resource: ownTemplate,
  },
  {
    name: "DELETE /templates/{id}",
    handler: deleteTemplate,
    path: (id) => `/api/v1/templates/${id}`,
    options: (id) => ({ method: "DELETE", params: { id } }),
    metered: true,
    resource: ownTemplate,
  },
  {
    name: "POST /templates/{id}/publish",
    handler: postPublish,
    path: (id) => `/api/v1/templates/${id}/publish`,
    options: (id) => ({ method: "POST", params: { id } }),
    metered: true,
    resource: (user) => ownTemplate(user, false),
  },
  {
    name: "GET /templates/{id}/versions",
    handler: listVersions,
    path: (id) => `/api/v1/templates/${id}/versions`,
    options: (id) => ({ params: { id } }),
    metered: true,
    resource: ownTemplate,
  },
  {
    name: "GET /templates/{id}/versions/{n}",
    handler: getVersion,
    path: (id) => `/api/v1/templates/${id}/versions/1`,
    options: (id) => ({ params: { id, n: "1" } }),
    metered: true,
    resource: ownTemplate,
  },
  {
    name: "POST /templates/{id}/versions/{n}/restore",
    handler: postRestore,
    path: (id) => `/api/v1/templates/${id}/versions/1/restore`,
    options: (id) => ({ method: "POST", params: { id, n: "1" } }),
    metered: true,
    resource: ownTemplate,
  },
];
