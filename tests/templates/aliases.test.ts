import { describe, expect, it } from "vitest";
import { GET as getEmail } from "@/app/api/v1/emails/[id]/route";
import { POST as sendBatch } from "@/app/api/v1/send/batch/route";
import { POST as send } from "@/app/api/v1/send/route";
import { POST as postRender } from "@/app/api/v1/templates/[id]/render/route";
import {
  DELETE as deleteTemplate,
  GET as getTemplate,
  PATCH as patchTemplate,
  PUT as putTemplate,
} from "@/app/api/v1/templates/[id]/route";
import { GET as getSource } from "@/app/api/v1/templates/[id]/source/route";
import { POST as postTemplate } from "@/app/api/v1/templates/route";
import { getDb } from "@/lib/db/client";
import { addToLibrary, auth, call, catalogueId, createUser, sender, type TestUser } from "../support/api";
import { storedCompatibility } from "../support/compatibility";

const TEMPLATE_NOT_FOUND = { error: "Template not found", code: "TEMPLATE_NOT_FOUND", success: false };
const NOT_IN_LIBRARY = {
  ...TEMPLATE_NOT_FOUND,
  message: "This template is not in your library. Add or purchase it first.",
};
const aliasTaken = (alias: string) => ({
  error: "Alias taken",
  code: "ALIAS_TAKEN",
  success: false,
  message: `Another of your templates has the alias "${alias}". Choose another, or clear it there first.`,
});
const invalid = (details: { field: string; message: string }[]) => ({
  error: "Invalid request body",
  code: "VALIDATION_ERROR",
  success: false,
  details,
});

const GREETING = `import { Html, Text } from "@react-email/components";
export default function Greeting({ name = "there" }: { name?: string }) {
  return <Html><Text>Hello {name}</Text></Html>;
}
Greeting.PreviewProps = { name: "Ada" };
`;
const GREETING_VARIABLES = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  properties: { name: { type: "string", default: "there" } },
  additionalProperties: true,
};

const responseOf = ({ status, body }: { status: number; body: unknown }) => ({ status, body });
const create = (user: TestUser, body: Record<string, unknown>) =>
  call(postTemplate, "/x", { method: "POST", headers: auth(user), body: { name: "Greeting", ...body } });
const details = (user: TestUser, id: string) => call(getTemplate, "/x", { params: { id }, headers: auth(user) });
const replace = (user: TestUser, id: string, body: Record<string, unknown> = {}) =>
  call(putTemplate, "/x", {
    method: "PUT",
    params: { id },
    headers: auth(user),
    body: { name: "Greeting", files: { "email.tsx": GREETING }, ...body },
  });
const patch = (user: TestUser, id: string, body: unknown) =>
  call(patchTemplate, "/x", { method: "PATCH", params: { id }, headers: auth(user), body });
const remove = (user: TestUser, id: string) =>
  call(deleteTemplate, "/x", { method: "DELETE", params: { id }, headers: auth(user) });
const render = (user: TestUser, id: string) =>
  call(postRender, "/x", { method: "POST", params: { id }, headers: auth(user), body: { variables: { name: "Bo" } } });
const source = (user: TestUser, id: string) => call(getSource, "/x", { params: { id }, headers: auth(user) });
const sendOne = (user: TestUser, templateId: string) =>
  call(send, "/x", {
    method: "POST",
    headers: auth(user),
    body: { template_id: templateId, to: "ann@example.com", subject: "Hi" },
  });

/** A template of the user's own, created with `alias`: its id. */
async function own(user: TestUser, alias: string | null): Promise<string> {
  const created = await create(user, { files: { "email.tsx": GREETING }, alias });
  expect(created.status).toBe(201);
  return created.body.template.id;
}

/** GET /templates/{id}'s template, as its owner reads a greeting template of theirs. */
async function ownTemplate(user: TestUser, id: string, alias: string | null) {
  const [row] = await getDb()<{ updated_at: Date }[]>`select updated_at from templates where id = ${id}`;
  return {
    id,
    name: "Greeting",
    description: "",
    is_public: false,
    price: 0,
    slug: null,
    category: null,
    author: user.email,
    alias,
    in_library: true,
    added_via: "created",
    updated_at: row.updated_at.toISOString(),
    // Saving the same files again makes no new version.
    version: 1,
    draft: null,
    variables: GREETING_VARIABLES,
    example: { name: "Ada" },
    compatibility: await storedCompatibility(id),
  };
}

async function templateIdOfEmail(user: TestUser, id: string): Promise<string> {
  const email = await call(getEmail, "/x", { params: { id }, headers: auth(user) });
  return email.body.email.template_id;
}

describe("a template's alias: set, changed and cleared", () => {
  it("is set by POST /templates, kept by a PUT that leaves it out, changed by PUT and PATCH, cleared by null", async () => {
    const user = await createUser("monthly");
    const created = await create(user, { files: { "email.tsx": GREETING }, alias: "welcome-v2" });
    const id = created.body.template.id;
    expect(responseOf(created)).toEqual({
      status: 201,
      body: { success: true, template: await ownTemplate(user, id, "welcome-v2") },
    });
    expect(responseOf(await details(user, "welcome-v2"))).toEqual(responseOf(await details(user, id)));

    const kept = await replace(user, "welcome-v2");
    expect(responseOf(kept)).toEqual({
      status: 200,
      body: { success: true, template: await ownTemplate(user, id, "welcome-v2") },
    });
    const renamed = await replace(user, "welcome-v2", { alias: "welcome.v3" });
    expect(responseOf(renamed)).toEqual({
      status: 200,
      body: { success: true, template: await ownTemplate(user, id, "welcome.v3") },
    });
    expect(responseOf(await details(user, "welcome-v2"))).toEqual({ status: 404, body: TEMPLATE_NOT_FOUND });

    const patched = await patch(user, "welcome.v3", { alias: "0_welcome" });
    expect(responseOf(patched)).toEqual({
      status: 200,
      body: { success: true, template: await ownTemplate(user, id, "0_welcome") },
    });
    const unchanged = await patch(user, id, { alias: "0_welcome" });
    expect(responseOf(unchanged)).toEqual({
      status: 200,
      body: { success: true, template: await ownTemplate(user, id, "0_welcome") },
    });
    const cleared = await patch(user, "0_welcome", { alias: null });
    expect(responseOf(cleared)).toEqual({
      status: 200,
      body: { success: true, template: await ownTemplate(user, id, null) },
    });
    expect(responseOf(await details(user, "0_welcome"))).toEqual({ status: 404, body: TEMPLATE_NOT_FOUND });
    expect(responseOf(await replace(user, id, { alias: "again" }))).toEqual({
      status: 200,
      body: { success: true, template: await ownTemplate(user, id, "again") },
    });
    expect(responseOf(await replace(user, "again", { alias: null }))).toEqual({
      status: 200,
      body: { success: true, template: await ownTemplate(user, id, null) },
    });
  });

  it("is answered null for a template without one and for a catalogue template", async () => {
    const user = await createUser("monthly");
    const id = await own(user, null);
    expect(responseOf(await details(user, id))).toEqual({
      status: 200,
      body: { success: true, template: await ownTemplate(user, id, null) },
    });
    const welcome = await details(user, await catalogueId("welcome"));
    expect([welcome.status, welcome.body.template.alias]).toEqual([200, null]);
  });

  it("answers each path under /templates/{id} by alias as by id", async () => {
    const user = await createUser("monthly");
    const id = await own(user, "greeting");
    const byId = await render(user, id);
    expect(byId.status).toBe(200);
    expect(responseOf(await render(user, "greeting"))).toEqual(responseOf(byId));
    expect(responseOf(await source(user, "greeting"))).toEqual({
      status: 200,
      body: { success: true, source: { name: "Greeting", description: "", code: GREETING } },
    });
    expect(responseOf(await remove(user, "greeting"))).toEqual({ status: 200, body: { success: true } });
    expect(responseOf(await details(user, id))).toEqual({ status: 404, body: TEMPLATE_NOT_FOUND });
  });

  it("names a catalogue template in the library by its slug; the caller's own alias comes first", async () => {
    const user = await createUser("monthly");
    await addToLibrary(user, "welcome");
    const welcomeId = await catalogueId("welcome");
    const bySlug = await details(user, "welcome");
    expect(responseOf(bySlug)).toEqual(responseOf(await details(user, welcomeId)));
    expect(bySlug.body.template).toMatchObject({ id: welcomeId, slug: "welcome", alias: null, in_library: true });
    expect((await render(user, "welcome")).status).toBe(200);
    expect((await source(user, "welcome")).status).toBe(200);

    const mine = await own(user, "welcome");
    expect((await details(user, "welcome")).body.template.id).toBe(mine);
    expect(responseOf(await render(user, "welcome"))).toEqual(responseOf(await render(user, mine)));
  });

  it("sends by alias and by a catalogue slug in the library, one email and in a batch; emails record the id", async () => {
    const user = await sender("monthly");
    const id = await own(user, "greeting");
    const one = await sendOne(user, "greeting");
    expect(one.status).toBe(200);
    expect(await templateIdOfEmail(user, one.body.data.id)).toBe(id);
    const bySlug = await sendOne(user, "welcome");
    expect(bySlug.status).toBe(200);
    expect(await templateIdOfEmail(user, bySlug.body.data.id)).toBe(user.welcomeId);

    const batch = await call(sendBatch, "/x", {
      method: "POST",
      headers: auth(user),
      body: {
        emails: [
          { template_id: "greeting", to: "ann@example.com", subject: "One" },
          { template_id: id, to: "bob@example.com", subject: "Two" },
          { template_id: "welcome", to: "cy@example.com", subject: "Three" },
        ],
      },
    });
    expect(batch.status).toBe(200);
    const ids = [];
    for (const { id: emailId } of batch.body.data) ids.push(await templateIdOfEmail(user, emailId));
    expect(ids).toEqual([id, id, user.welcomeId]);
  });
});

describe("a template's alias: refused", () => {
  it("answers 409 ALIAS_TAKEN for another of the account's templates' alias, on POST, PUT and PATCH, changing nothing", async () => {
    const user = await createUser("monthly");
    const first = await own(user, "taken");
    const second = await own(user, "free-one");
    expect(responseOf(await create(user, { files: { "email.tsx": GREETING }, alias: "taken" }))).toEqual({
      status: 409,
      body: aliasTaken("taken"),
    });
    expect(responseOf(await replace(user, second, { alias: "taken" }))).toEqual({
      status: 409,
      body: aliasTaken("taken"),
    });
    expect(responseOf(await patch(user, "free-one", { alias: "taken" }))).toEqual({
      status: 409,
      body: aliasTaken("taken"),
    });
    expect((await details(user, "taken")).body.template.id).toBe(first);
    expect((await details(user, "free-one")).body.template.id).toBe(second);
    const [{ n }] = await getDb()<{ n: number }[]>`
      select count(*)::int as n from templates where owner_account_id = ${user.accountId}`;
    expect(n).toBe(2);
  });

  it("lets one of two concurrent saves of an alias win: the database decides", async () => {
    const user = await createUser("monthly");
    const ids = [await own(user, null), await own(user, null), await own(user, null)];
    const responses = await Promise.all(ids.map((id) => patch(user, id, { alias: "race" })));
    expect(responses.map((a) => a.status).sort()).toEqual([200, 409, 409]);
    const winner = ids[responses.findIndex((a) => a.status === 200)];
    expect((await details(user, "race")).body.template.id).toBe(winner);
  });

  it("refuses an alias that is not one: 400 with field alias", async () => {
    const user = await createUser("monthly");
    const id = await own(user, null);
    const cases: [unknown, string][] = [
      ["", "alias must be 1 to 64 characters"],
      ["a".repeat(65), "alias must be 1 to 64 characters"],
      ["Welcome", "alias may hold only a-z, 0-9, -, _ and ."],
      ["my alias", "alias may hold only a-z, 0-9, -, _ and ."],
      ["a/b", "alias may hold only a-z, 0-9, -, _ and ."],
      ["é", "alias may hold only a-z, 0-9, -, _ and ."],
      ["-welcome", "alias must start with a letter (a-z) or a digit"],
      [".hidden", "alias must start with a letter (a-z) or a digit"],
      ["4b8f5d0e-7c1a-4e2b-9d3f-0a1b2c3d4e5f", "alias must not be a uuid: a uuid always names a template by its id"],
      [42, "alias must be a string or null"],
    ];
    for (const [alias, message] of cases) {
      const expected = { status: 400, body: invalid([{ field: "alias", message }]) };
      expect(responseOf(await patch(user, id, { alias })), String(alias)).toEqual(expected);
      expect(responseOf(await create(user, { files: { "email.tsx": GREETING }, alias })), String(alias)).toEqual(
        expected,
      );
    }
    expect(responseOf(await patch(user, id, { alias: "a".repeat(64) }))).toMatchObject({ status: 200 });
    expect(responseOf(await patch(user, id, {}))).toEqual({
      status: 400,
      body: invalid([{ field: "alias", message: "alias must be a string or null" }]),
    });
    expect(responseOf(await patch(user, id, { alias: null, name: "x" }))).toEqual({
      status: 400,
      body: invalid([{ field: "name", message: "name is not a recognised field" }]),
    });
  });

  it("answers 404 for PATCH of a catalogue template (by id or slug) and for an alias or slug that names nothing", async () => {
    const user = await sender("monthly");
    expect(responseOf(await patch(user, user.welcomeId, { alias: "mine" }))).toEqual({
      status: 404,
      body: TEMPLATE_NOT_FOUND,
    });
    expect(responseOf(await patch(user, "welcome", { alias: "mine" }))).toEqual({
      status: 404,
      body: TEMPLATE_NOT_FOUND,
    });
    expect(responseOf(await replace(user, "welcome"))).toEqual({ status: 404, body: TEMPLATE_NOT_FOUND });
    expect(responseOf(await remove(user, "welcome"))).toEqual({ status: 404, body: TEMPLATE_NOT_FOUND });
    for (const name of ["nothing-here", "Not An Alias!", "x".repeat(65)]) {
      expect(responseOf(await details(user, name)), name).toEqual({ status: 404, body: TEMPLATE_NOT_FOUND });
      expect(responseOf(await render(user, name)), name).toEqual({ status: 404, body: TEMPLATE_NOT_FOUND });
      expect(responseOf(await source(user, name)), name).toEqual({ status: 404, body: TEMPLATE_NOT_FOUND });
      expect(responseOf(await patch(user, name, { alias: "mine" })), name).toEqual({
        status: 404,
        body: TEMPLATE_NOT_FOUND,
      });
    }
    expect(responseOf(await sendOne(user, "nothing-here"))).toEqual({ status: 404, body: NOT_IN_LIBRARY });
  });

  it("answers 404 for the slug of a catalogue template not in the library, though its id answers GET and render", async () => {
    const user = await sender("monthly");
    expect((await details(user, await catalogueId("verify-email"))).status).toBe(200);
    expect(responseOf(await details(user, "verify-email"))).toEqual({ status: 404, body: TEMPLATE_NOT_FOUND });
    expect(responseOf(await render(user, "verify-email"))).toEqual({ status: 404, body: TEMPLATE_NOT_FOUND });
    expect(responseOf(await source(user, "verify-email"))).toEqual({ status: 404, body: TEMPLATE_NOT_FOUND });
    expect(responseOf(await sendOne(user, "verify-email"))).toEqual({ status: 404, body: NOT_IN_LIBRARY });
  });

  it("refuses a template_id that can be neither an id nor an alias in a send", async () => {
    const user = await sender("monthly");
    expect(responseOf(await sendOne(user, "Not An Alias!"))).toEqual({
      status: 400,
      body: invalid([{ field: "template_id", message: "template_id must be a template id (uuid) or alias" }]),
    });
  });
});

describe("a template's alias: tenant isolation", () => {
  it("names only the caller's own templates: another account's alias is 404 everywhere, and free for the caller", async () => {
    const owner = await sender("monthly");
    const ownerTemplate = await own(owner, "shared-name");
    const other = await sender("monthly");
    expect(responseOf(await details(other, "shared-name"))).toEqual({ status: 404, body: TEMPLATE_NOT_FOUND });
    expect(responseOf(await render(other, "shared-name"))).toEqual({ status: 404, body: TEMPLATE_NOT_FOUND });
    expect(responseOf(await source(other, "shared-name"))).toEqual({ status: 404, body: TEMPLATE_NOT_FOUND });
    expect(responseOf(await replace(other, "shared-name"))).toEqual({ status: 404, body: TEMPLATE_NOT_FOUND });
    expect(responseOf(await patch(other, "shared-name", { alias: null }))).toEqual({
      status: 404,
      body: TEMPLATE_NOT_FOUND,
    });
    expect(responseOf(await remove(other, "shared-name"))).toEqual({ status: 404, body: TEMPLATE_NOT_FOUND });
    expect(responseOf(await sendOne(other, "shared-name"))).toEqual({ status: 404, body: NOT_IN_LIBRARY });
    const batch = await call(sendBatch, "/x", {
      method: "POST",
      headers: auth(other),
      body: { emails: [{ template_id: "shared-name", to: "ann@example.com", subject: "Hi" }] },
    });
    expect(responseOf(batch)).toEqual({
      status: 404,
      body: { ...NOT_IN_LIBRARY, details: [{ field: "emails.0.template_id", message: NOT_IN_LIBRARY.message }] },
    });

    // The same alias on another account is its own, and the first account's template is untouched.
    const otherTemplate = await own(other, "shared-name");
    expect((await details(other, "shared-name")).body.template.id).toBe(otherTemplate);
    expect((await details(owner, "shared-name")).body.template.id).toBe(ownerTemplate);
  });
});
