import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { GET as getCatalogue } from "@/app/api/v1/catalogue/route";
import { DELETE as deleteFromLibrary } from "@/app/api/v1/library/[id]/route";
import { GET as getLibrary, POST as postLibrary } from "@/app/api/v1/library/route";
import { DELETE as deleteTemplate } from "@/app/api/v1/templates/[id]/route";
import { catalogue } from "@/emails/_catalogue";
import { getDb } from "@/lib/db/client";
import { createUserTemplate } from "@/lib/templates/data/user-templates";
import { OPEN_VARIABLES_SCHEMA } from "@/lib/templates/variables-schema";
import { addToLibrary, auth, BASE, call, catalogueId, createUser, ISO, type TestUser } from "../support/api";

const TEMPLATE_NOT_FOUND = { error: "Template not found", code: "TEMPLATE_NOT_FOUND", success: false };

const libraryOf = async (user: TestUser) =>
  (await call(getLibrary, "/api/v1/library", { headers: auth(user) })).body.templates.map(
    (entry: { slug: string | null; name: string }) => entry.slug ?? entry.name,
  );

const add = (user: TestUser, templateId: unknown) =>
  call(postLibrary, "/api/v1/library", { method: "POST", body: { template_id: templateId }, headers: auth(user) });

const remove = (user: TestUser, id: string) =>
  call(deleteFromLibrary, `/api/v1/library/${encodeURIComponent(id)}`, {
    method: "DELETE",
    params: { id },
    headers: auth(user),
  });

const ownTemplate = async (user: TestUser, name = "Own") =>
  createUserTemplate(user.accountId, {
    name,
    description: "",
    code: "export default function Email() { return null; }",
    compiledCode: null,
    variables: OPEN_VARIABLES_SCHEMA,
    previewProps: null,
  });

/** A catalogue template that is not public (a slug of its own: the seeded catalogue is left as it is). */
async function hiddenCatalogueTemplate(): Promise<string> {
  const slug = `hidden-${randomUUID()}`;
  const [row] = await getDb()<{ id: string }[]>`
    insert into templates (owner_account_id, slug, name, is_public, price, code, category)
    values (null, ${slug}, 'Hidden', false, 0, 'export default () => null;', 'Billing')
    returning id`;
  return row.id;
}

/** The catalogue as GET /catalogue lists it: free templates first, then by name. */
const listed = async (inLibrary: string[] = []) =>
  Promise.all(
    [...catalogue]
      .sort((a, b) => Number(Number(b.price) === 0) - Number(Number(a.price) === 0) || (a.name < b.name ? -1 : 1))
      .map(async (entry) => ({
        id: await catalogueId(entry.slug),
        name: entry.name,
        description: entry.description,
        is_public: true,
        price: Number(entry.price),
        slug: entry.slug,
        category: entry.category,
        author: entry.author,
        in_library: inLibrary.includes(entry.slug),
      })),
  );

describe("GET /api/v1/catalogue", () => {
  it("lists the whole public catalogue, free first, saying which templates are in the caller's library", async () => {
    const user = await createUser();
    await addToLibrary(user, "welcome");
    await ownTemplate(user);
    const result = await call(getCatalogue, "/api/v1/catalogue", { headers: auth(user) });
    expect(result.status).toBe(200);
    const templates = await listed(["welcome"]);
    expect(result.body).toEqual({ success: true, templates, pagination: { limit: 50, offset: 0, total: 11 } });
    expect(result.headers.get("x-ratelimit-remaining")).toBe("499");
  });

  it("pages with limit and offset, and filters by category", async () => {
    const user = await createUser();
    const all = await listed();
    const page = async (query: string) =>
      (await call(getCatalogue, `/api/v1/catalogue${query}`, { headers: auth(user) })).body;
    expect(await page("?limit=2&offset=3")).toEqual({
      success: true,
      templates: all.slice(3, 5),
      pagination: { limit: 2, offset: 3, total: 11 },
    });
    expect(await page("?offset=2147483647")).toEqual({
      success: true,
      templates: [],
      pagination: { limit: 50, offset: 2147483647, total: 11 },
    });
    expect(await page("?category=Billing&limit=100")).toEqual({
      success: true,
      templates: all.filter((entry) => entry.category === "Billing"),
      pagination: { limit: 100, offset: 0, total: 3 },
    });
    expect(await page("?category=Nothing")).toEqual({
      success: true,
      templates: [],
      pagination: { limit: 50, offset: 0, total: 0 },
    });
  });

  it("does not list a template someone created, nor a catalogue template that is not public", async () => {
    const user = await createUser();
    const other = await createUser();
    await ownTemplate(other, "Someone's");
    await hiddenCatalogueTemplate();
    const result = await call(getCatalogue, "/api/v1/catalogue?limit=100", { headers: auth(user) });
    expect(result.body.templates).toEqual(await listed());
    expect(result.body.pagination.total).toBe(11);
  });

  it.each([
    ["limit=0", "limit", "limit must be an integer from 1 to 100"],
    ["limit=101", "limit", "limit must be an integer from 1 to 100"],
    ["offset=-1", "offset", "offset must be an integer from 0 to 2147483647"],
    ["category=", "category", "category must not be empty"],
    [`category=${"x".repeat(101)}`, "category", "category must be at most 100 characters"],
    ["category=a%00b", "category", "category must not contain NUL characters"],
  ])("refuses ?%s with a 400 naming the field", async (query, field, message) => {
    const user = await createUser();
    const result = await call(getCatalogue, `/api/v1/catalogue?${query}`, { headers: auth(user) });
    expect(result.status).toBe(400);
    expect(result.body).toEqual({
      error: "Invalid query parameters",
      code: "VALIDATION_ERROR",
      success: false,
      details: [{ field, message }],
    });
  });

  it("refuses an unknown parameter", async () => {
    const user = await createUser();
    const result = await call(getCatalogue, "/api/v1/catalogue?sort=name", { headers: auth(user) });
    expect(result.status).toBe(400);
    expect(result.body.code).toBe("VALIDATION_ERROR");
  });
});

describe("POST /api/v1/library", () => {
  it("adds a free catalogue template by id as `free` (201), then answers 200 with the same entry", async () => {
    const user = await createUser();
    const id = await catalogueId("welcome");
    const welcome = catalogue.find((entry) => entry.slug === "welcome")!;
    const entry = {
      id,
      name: welcome.name,
      description: welcome.description,
      is_public: true,
      price: 0,
      slug: "welcome",
      category: "Onboarding",
      author: welcome.author,
      added_via: "free",
      added_at: ISO,
      updated_at: ISO,
      preview_url: null,
    };
    const first = await add(user, id);
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ success: true, template: entry });
    const again = await add(user, "welcome");
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await libraryOf(user)).toEqual(["welcome"]);
    const listedNow = await call(getCatalogue, "/api/v1/catalogue?category=Onboarding", { headers: auth(user) });
    expect(listedNow.body.templates[0]).toMatchObject({ id, in_library: true });
  });

  it("adds by slug, and leaves another account's library untouched", async () => {
    const user = await createUser();
    const other = await createUser();
    await addToLibrary(other, "magic-link");
    const result = await add(user, "verify-email");
    expect(result.status).toBe(201);
    expect(result.body.template).toMatchObject({ slug: "verify-email", added_via: "free" });
    expect(await libraryOf(user)).toEqual(["verify-email"]);
    expect(await libraryOf(other)).toEqual(["magic-link"]);
  });

  it("answers a paid template not bought with 402 and the checkout URL, adding nothing", async () => {
    const user = await createUser("monthly");
    const result = await add(user, "receipt");
    expect(result.status).toBe(402);
    expect(result.body).toEqual({
      error: "Purchase required",
      code: "PURCHASE_REQUIRED",
      success: false,
      message: '"Order receipt" costs $19.00. Buy it at checkout_url; it is in your library once paid.',
      checkout_url: `${BASE}/dashboard/catalogue`,
    });
    expect(await libraryOf(user)).toEqual([]);
    const [{ n }] = await getDb()<{ n: number }[]>`
      select count(*)::int as n from purchases where account_id = ${user.accountId}`;
    expect(n).toBe(0);
  });

  it("answers a paid template already bought with 200 and its entry", async () => {
    const user = await createUser("monthly");
    await addToLibrary(user, "receipt");
    const result = await add(user, "receipt");
    expect(result.status).toBe(200);
    expect(result.body.template).toMatchObject({ slug: "receipt", added_via: "purchased", price: 19 });
  });

  it("puts back a paid template bought before and removed since, as `purchased`, charging nothing again", async () => {
    const user = await createUser("monthly");
    await addToLibrary(user, "receipt");
    expect((await remove(user, "receipt")).status).toBe(200);
    expect(await libraryOf(user)).toEqual([]);
    const result = await add(user, "receipt");
    expect(result.status).toBe(201);
    expect(result.body.template).toMatchObject({ slug: "receipt", added_via: "purchased", price: 19 });
    const [{ n }] = await getDb()<{ n: number }[]>`
      select count(*)::int as n from purchases where account_id = ${user.accountId}`;
    expect(n).toBe(1);
  });

  it("refuses a free plan's eleventh template with 403 LIBRARY_LIMIT_REACHED", async () => {
    const user = await createUser("free");
    for (let i = 0; i < 10; i++) await ownTemplate(user, `Own ${i}`);
    const result = await add(user, "welcome");
    expect(result.status).toBe(403);
    expect(result.body).toEqual({
      error: "Library limit reached",
      code: "LIBRARY_LIMIT_REACHED",
      success: false,
      message:
        "Your free plan's library holds 10 templates and it is full. Upgrade to a paid plan for an unlimited library.",
    });
    expect(await libraryOf(user)).not.toContain("welcome");
  });

  it("answers 404 for an unknown id or slug, a template someone created and a catalogue template not public", async () => {
    const user = await createUser();
    const other = await createUser();
    const theirs = await ownTemplate(other);
    const hidden = await hiddenCatalogueTemplate();
    for (const id of ["no-such-template", "00000000-0000-4000-8000-000000000000", theirs.id, hidden, "a\0b"]) {
      const result = await add(user, id);
      expect(result.status).toBe(404);
      expect(result.body).toMatchObject(TEMPLATE_NOT_FOUND);
    }
    expect(await libraryOf(user)).toEqual([]);
  });

  it.each([
    [{}, "template_id", "Invalid input: expected string, received undefined"],
    [{ template_id: "" }, "template_id", "template_id must not be empty"],
    [{ template_id: "x".repeat(65) }, "template_id", "template_id must be at most 64 characters"],
    [{ template_id: 5 }, "template_id", "Invalid input: expected string, received number"],
  ])("refuses the body %j with a 400 naming the field", async (body, field, message) => {
    const user = await createUser();
    const result = await call(postLibrary, "/api/v1/library", { method: "POST", body, headers: auth(user) });
    expect(result.status).toBe(400);
    expect(result.body).toEqual({
      error: "Invalid request body",
      code: "VALIDATION_ERROR",
      success: false,
      details: [{ field, message }],
    });
  });
});

describe("DELETE /api/v1/library/{id}", () => {
  it("removes a catalogue template by id or slug, then answers 404", async () => {
    const user = await createUser();
    const other = await createUser();
    const { template_id: welcome } = await addToLibrary(user, "welcome");
    await addToLibrary(user, "magic-link");
    await addToLibrary(other, "welcome");
    const byId = await remove(user, welcome);
    expect(byId.status).toBe(200);
    expect(byId.body).toEqual({ success: true });
    const bySlug = await remove(user, "magic-link");
    expect(bySlug.status).toBe(200);
    expect(bySlug.body).toEqual({ success: true });
    expect(await libraryOf(user)).toEqual([]);
    expect(await libraryOf(other)).toEqual(["welcome"]);
    const again = await remove(user, welcome);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({
      ...TEMPLATE_NOT_FOUND,
      message: "No catalogue template with this id in your library",
    });
  });

  it("does not remove a template the caller created (404), which DELETE /templates/{id} deletes", async () => {
    const user = await createUser();
    const own = await ownTemplate(user);
    const result = await remove(user, own.id);
    expect(result.status).toBe(404);
    expect(result.body).toEqual({
      ...TEMPLATE_NOT_FOUND,
      message: "No catalogue template with this id in your library",
    });
    expect(await libraryOf(user)).toEqual(["Own"]);
    const deleted = await call(deleteTemplate, `/api/v1/templates/${own.id}`, {
      method: "DELETE",
      params: { id: own.id },
      headers: auth(user),
    });
    expect(deleted.status).toBe(200);
    expect(await libraryOf(user)).toEqual([]);
  });

  it.each(["no-such-template", "00000000-0000-4000-8000-000000000000", "a\0b", "x".repeat(500)])(
    "answers 404 for %j, a template not in the library",
    async (id) => {
      const user = await createUser();
      await addToLibrary(user, "welcome");
      const result = await remove(user, id);
      expect(result.status).toBe(404);
      expect(result.body).toMatchObject(TEMPLATE_NOT_FOUND);
      expect(await libraryOf(user)).toEqual(["welcome"]);
    },
  );

  it("answers 404 for a catalogue template in another account's library only", async () => {
    const user = await createUser();
    const other = await createUser();
    await addToLibrary(other, "welcome");
    const result = await remove(user, "welcome");
    expect(result.status).toBe(404);
    expect(await libraryOf(other)).toEqual(["welcome"]);
  });
});
