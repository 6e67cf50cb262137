import { revalidatePath } from "next/cache";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { addTemplateAction } from "@/app/dashboard/catalogue/actions";
import { addDomainAction, updateDefaultSenderAction, verifyDomainAction } from "@/app/dashboard/domains/actions";
import { cancelEmailAction } from "@/app/dashboard/emails/actions";
import { removeSuppressionAction } from "@/app/dashboard/emails/suppressions/actions";
import { createApiKeyAction } from "@/app/dashboard/settings/api-keys/actions";
import { createTemplateAction } from "@/app/dashboard/templates/new/actions";
import { GET as getDownload } from "@/app/api/dashboard/templates/[id]/download/route";
import { GET as getThumbnail } from "@/app/api/dashboard/templates/[id]/thumbnail/route";
import { POST as postTemplate } from "@/app/api/v1/templates/route";
import { PUT as putTemplate } from "@/app/api/v1/templates/[id]/route";
import { getDb } from "@/lib/db/client";
import { listApiKeys } from "@/lib/api-keys/data";
import { auth, BASE, call, createUser, sender, sessionCookie, type Sender, type TestUser } from "../support/api";
import { endpoints } from "../support/endpoints";
import { signedIn } from "../support/signed-in";

// PostgreSQL's text cannot hold the NUL character (U+0000): a statement given one fails ("invalid byte sequence"). A
// path or form value holding one names nothing stored and cannot be stored, so it is answered before any SQL runs: as
// not found where it looks something up, refused with a clear message where it would be stored. Never a 500.

vi.mock("next/cache", () => ({ revalidatePath: vi.fn() }));
vi.mock("next/headers", () => import("../support/next-headers"));
vi.mock("@/lib/auth/current", () => import("../support/signed-in"));

const EMAIL_NOT_FOUND = { error: "Email not found", code: "EMAIL_NOT_FOUND", success: false };
const SUPPRESSION_NOT_FOUND = { error: "Suppression not found", code: "SUPPRESSION_NOT_FOUND", success: false };
const TEMPLATE_NOT_FOUND = { error: "Template not found", code: "TEMPLATE_NOT_FOUND", success: false };
const WEBHOOK_NOT_FOUND = { error: "Webhook not found", code: "WEBHOOK_NOT_FOUND", success: false };
const COMPONENT_NOT_FOUND = { error: "Component not found", code: "COMPONENT_NOT_FOUND", success: false };
const DOMAIN_NOT_FOUND = { error: "Domain not found", code: "DOMAIN_NOT_FOUND", success: false };
const validation = (details: { field: string; message: string }[]) => ({
  error: "Invalid request body",
  code: "VALIDATION_ERROR",
  success: false,
  details,
});

const SOURCE = `export default function Email() { return <p>Hi</p>; }\n`;

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
}

const idle = { status: "idle" as const };

beforeEach(() => void vi.mocked(revalidatePath).mockClear());

describe("a NUL in a path parameter answers the route's JSON 404", () => {
  // Each route with a path parameter, by its name in the endpoints table, and its 404.
  const notFound: Record<string, object> = {
    "DELETE /library/{id}": TEMPLATE_NOT_FOUND,
    "GET /templates/{id}": TEMPLATE_NOT_FOUND,
    "PUT /templates/{id}": TEMPLATE_NOT_FOUND,
    "PATCH /templates/{id}": TEMPLATE_NOT_FOUND,
    "DELETE /templates/{id}": TEMPLATE_NOT_FOUND,
    "POST /templates/{id}/render": TEMPLATE_NOT_FOUND,
    "GET /templates/{id}/source": TEMPLATE_NOT_FOUND,
    "POST /templates/{id}/publish": TEMPLATE_NOT_FOUND,
    "GET /templates/{id}/versions": TEMPLATE_NOT_FOUND,
    "GET /templates/{id}/versions/{n}": TEMPLATE_NOT_FOUND,
    "POST /templates/{id}/versions/{n}/restore": TEMPLATE_NOT_FOUND,
    "GET /components/{name}": COMPONENT_NOT_FOUND,
    "PUT /components/{name}": COMPONENT_NOT_FOUND,
    "DELETE /components/{name}": COMPONENT_NOT_FOUND,
    "GET /emails/{id}": EMAIL_NOT_FOUND,
    "POST /emails/{id}/cancel": EMAIL_NOT_FOUND,
    "DELETE /suppressions/{email}": SUPPRESSION_NOT_FOUND,
    "GET /domains/{id}": DOMAIN_NOT_FOUND,
    "POST /domains/{id}/verify": DOMAIN_NOT_FOUND,
    "PATCH /domains/{id}": DOMAIN_NOT_FOUND,
    "DELETE /domains/{id}": DOMAIN_NOT_FOUND,
    "GET /webhooks/{id}": WEBHOOK_NOT_FOUND,
    "PATCH /webhooks/{id}": WEBHOOK_NOT_FOUND,
    "DELETE /webhooks/{id}": WEBHOOK_NOT_FOUND,
    "GET /webhooks/{id}/deliveries": WEBHOOK_NOT_FOUND,
    "POST /webhooks/{id}/deliveries/{delivery_id}/replay": WEBHOOK_NOT_FOUND,
    "POST /webhooks/{id}/test": WEBHOOK_NOT_FOUND,
    "POST /webhooks/{id}/rotate-secret": WEBHOOK_NOT_FOUND,
  };

  it("covers every /api/v1 route that takes a path parameter", () => {
    expect(endpoints.filter(({ name }) => name.includes("{")).map(({ name }) => name)).toEqual(Object.keys(notFound));
  });

  for (const endpoint of endpoints.filter(({ name }) => name.includes("{"))) {
    it.each(["\0", "a\0", "\0@example.com"])(`${endpoint.name} with %j`, async (value) => {
      const user = await createUser("annual");
      // The caller has a resource of the kind the route addresses: the NUL must not be taken for it.
      await endpoint.resource?.(user);
      const options = endpoint.options(value);
      const result = await call(endpoint.handler, endpoint.path(value), {
        ...options,
        headers: { ...options.headers, ...auth(user) },
      });
      expect(result.status).toBe(404);
      expect(result.body).toEqual(notFound[endpoint.name]);
      expect(result.headers.get("content-type")).toContain("application/json");
    });
  }

  it.each([
    ["thumbnail", getThumbnail],
    ["download", getDownload],
  ])("GET /api/dashboard/templates/{id}/%s", async (route, handler) => {
    const user = await createUser();
    const result = await call(handler, `/api/dashboard/templates/%00/${route}`, {
      headers: { cookie: await sessionCookie(user.accountId), origin: BASE },
      params: { id: "\0" },
    });
    expect(result.status).toBe(404);
    expect(result.body).toEqual(TEMPLATE_NOT_FOUND);
  });
});

describe("a NUL in a template saved through the API is a 400 naming its field", () => {
  const save = (user: TestUser, body: Record<string, unknown>) =>
    call(postTemplate, "/api/v1/templates", {
      method: "POST",
      headers: auth(user),
      body: { name: "Mine", files: { "email.tsx": SOURCE }, ...body },
    });

  it.each([
    ["name", { name: "Mi\0ne" }, [{ field: "name", message: "name must not contain the NUL character (\\u0000)" }]],
    [
      "description",
      { description: "a\0" },
      [{ field: "description", message: "description must not contain the NUL character (\\u0000)" }],
    ],
    [
      "a file's source",
      { files: { "email.tsx": SOURCE, "parts/footer.tsx": "export const a = 1;\n// \0\n" } },
      [
        {
          field: "files.parts/footer.tsx",
          message: "line 2, column 4: A template's source must not contain the NUL character (\\u0000)",
        },
      ],
    ],
    [
      "PreviewProps",
      { files: { "email.tsx": `${SOURCE}Email.PreviewProps = { greeting: "a\\u0000b" };\n` } },
      [
        {
          field: "files.email.tsx",
          message: "PreviewProps hold the NUL character (\\u0000), which a request's variables may not",
        },
      ],
    ],
  ])("POST /templates: %s", async (_name, body, details) => {
    const user = await createUser("annual");
    const result = await save(user, body);
    expect(result.status).toBe(400);
    expect(result.body).toEqual(validation(details));
    expect(await getDb()`select id from templates where owner_account_id = ${user.accountId}`).toEqual([]);
  });

  it("PUT /templates/{id}: the template is left as it was", async () => {
    const user = await createUser("annual");
    const { id } = (await save(user, {})).body.template;
    const result = await call(putTemplate, `/api/v1/templates/${id}`, {
      method: "PUT",
      headers: auth(user),
      params: { id },
      body: { name: "Mine", files: { "email.tsx": SOURCE.replace("Hi", "H\0i") } },
    });
    expect(result.status).toBe(400);
    expect(result.body).toEqual(
      validation([
        {
          field: "files.email.tsx",
          message: "line 1, column 46: A template's source must not contain the NUL character (\\u0000)",
        },
      ]),
    );
    const [row] = await getDb()`select code from templates where id = ${id}`;
    expect(row.code).toBe(SOURCE);
  });
});

describe("a NUL in a dashboard form value is answered before any SQL runs", () => {
  let user: Sender;
  beforeEach(async () => {
    user = await sender();
    signedIn.accountId = user.accountId;
  });

  it("cancel email: Email not found", async () => {
    expect(await cancelEmailAction(form({ id: "\0" }))).toEqual({ status: "error", message: "Email not found" });
    expect(await cancelEmailAction(form({ id: "a\0" }))).toEqual({ status: "error", message: "Email not found" });
  });

  it("remove suppression: nothing suppressed under that address, so nothing to do", async () => {
    await expect(removeSuppressionAction(form({ email: "\0" }))).resolves.toBeUndefined();
    await expect(removeSuppressionAction(form({ email: "gone\0@bounce.test" }))).resolves.toBeUndefined();
    expect(vi.mocked(revalidatePath).mock.calls).toEqual([
      ["/dashboard/emails/suppressions"],
      ["/dashboard/emails/suppressions"],
    ]);
  });

  it("new API key: a name or a domain holding NUL is refused by its field, and no key is made", async () => {
    const keyForm = (fields: Record<string, string>) =>
      form({ name: "Server", kind: "live", scope: "full_access", domain: "", expiresInDays: "never", ...fields });
    expect(await createApiKeyAction(idle, keyForm({ name: "Ser\0ver" }))).toEqual({
      status: "error",
      message: "Use letters, digits and punctuation: not the NUL character",
      fields: { name: "Use letters, digits and punctuation: not the NUL character" },
      values: { name: "Ser\0ver", kind: "live", scope: "full_access", domain: "", expiresInDays: "never" },
    });
    expect(await createApiKeyAction(idle, keyForm({ domain: `${user.domain}\0` }))).toEqual({
      status: "error",
      message: "Choose one of your sending domains",
      fields: { domain: "Choose one of your sending domains" },
      values: {
        name: "Server",
        kind: "live",
        scope: "full_access",
        domain: `${user.domain}\0`,
        expiresInDays: "never",
      },
    });
    expect((await listApiKeys(user.accountId)).map(({ name }) => name)).toEqual(["test key"]);
  });

  it("add a catalogue template: no longer in the catalogue", async () => {
    expect(await addTemplateAction(idle, form({ templateId: "welcome\0" }))).toEqual({
      status: "error",
      message: "That template is no longer in the catalogue.",
    });
  });

  it("new template: a name, description or source holding NUL is refused by its field, and nothing is stored", async () => {
    const templateForm = (fields: Record<string, string>) =>
      form({ name: "Mine", description: "", code: SOURCE, ...fields });
    const refused = (field: string, values: Record<string, string>) => ({
      status: "error",
      message: "Check the highlighted fields.",
      fields: { [field]: "Use letters, digits and punctuation: not the NUL character" },
      values,
    });
    expect(await createTemplateAction(idle, templateForm({ name: "Mi\0ne" }))).toEqual(
      refused("name", { name: "Mi\0ne", description: "" }),
    );
    expect(await createTemplateAction(idle, templateForm({ description: "\0" }))).toEqual(
      refused("description", { name: "Mine", description: "\0" }),
    );
    expect(await createTemplateAction(idle, templateForm({ code: SOURCE.replace("Hi", "H\0i") }))).toEqual({
      status: "error",
      message: "A template's source must not contain the NUL character (\\u0000)",
      line: 1,
      column: 46,
      values: { name: "Mine", description: "" },
    });
    expect(await getDb()`select id from templates where owner_account_id = ${user.accountId}`).toEqual([]);
  });

  it("domains: a domain holding NUL is not on the list, and is not a domain name", async () => {
    expect(await verifyDomainAction(idle, form({ id: "\0", domain: `${user.domain}\0` }))).toEqual({
      status: "error",
      message: "That domain is no longer on your list.",
    });
    expect(
      await updateDefaultSenderAction(idle, form({ domain: `${user.domain}\0`, defaultSender: `a@${user.domain}` })),
    ).toEqual({ status: "error", message: "That domain is no longer on your list." });
    expect(await addDomainAction(idle, form({ domain: "mail\0.example.com", defaultSender: "" }))).toEqual({
      status: "error",
      message: '"mail\0.example.com" is not a domain name (e.g. mail.example.com)',
      fields: { domain: '"mail\0.example.com" is not a domain name (e.g. mail.example.com)' },
      values: { domain: "mail\0.example.com", defaultSender: "" },
    });
  });

  it("domains: a default sender holding NUL is refused, and the domain keeps its sender", async () => {
    const domain = `nul-${user.accountId.slice(0, 8)}.example`;
    expect(await addDomainAction(idle, form({ domain, defaultSender: `he\0llo@${domain}` }))).toEqual({
      status: "error",
      message: `The default sender must be an address @${domain}`,
      fields: { domain: `The default sender must be an address @${domain}` },
      values: { domain, defaultSender: `he\0llo@${domain}` },
    });
    expect(
      await updateDefaultSenderAction(idle, form({ domain: user.domain, defaultSender: `he\0llo@${user.domain}` })),
    ).toEqual({
      status: "error",
      message: "Enter an email address",
      fields: { defaultSender: "Enter an email address" },
    });
    const rows = await getDb()`select default_sender from sending_domains where account_id = ${user.accountId}`;
    expect(rows.map((row) => row.default_sender)).toEqual([`hello@${user.domain}`]);
  });
});
