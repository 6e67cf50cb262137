import { OPEN_VARIABLES_SCHEMA } from "@/lib/templates/variables-schema";
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { GET as getLibrary } from "@/app/api/v1/library/route";
import { GET as getSource } from "@/app/api/v1/templates/[id]/source/route";
import { getDb } from "@/lib/db/client";
import { addLibraryEntry } from "@/lib/catalogue/data/library";
import { createUserTemplate } from "@/lib/templates/data/user-templates";
import { AppError } from "@/lib/core/errors";
import { addToLibrary, auth, call, catalogueId, createUser, nextInstant } from "../support/api";

const TEMPLATE_NOT_FOUND = { error: "Template not found", code: "TEMPLATE_NOT_FOUND", success: false };

describe("GET /api/v1/library", () => {
  it("answers an empty library with an empty page", async () => {
    const user = await createUser();
    const result = await call(getLibrary, "/api/v1/library", { headers: auth(user) });
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ success: true, templates: [], pagination: { limit: 50, offset: 0, total: 0 } });
  });

  it("lists every way a template enters the library, newest addition first, with the whole entry", async () => {
    const user = await createUser("monthly");
    await addToLibrary(user, "welcome");
    await nextInstant();
    await addToLibrary(user, "receipt");
    const own = await createUserTemplate(user.accountId, {
      name: "My invoice",
      description: "Our own invoice",
      code: "export default function Invoice() { return null; }",
      compiledCode: null,
      variables: OPEN_VARIABLES_SCHEMA,
      previewProps: null,
    });
    // Microseconds in storage; the API gives the instant as Date#toISOString() does (milliseconds, truncated).
    await getDb()`update library_entries set added_at = '2026-03-04 05:06:07.891999+00' where template_id = ${own.id}`;
    await getDb()`update templates set updated_at = '2026-03-01 00:00:00.000500+00' where id = ${own.id}`;
    const result = await call(getLibrary, "/api/v1/library", { headers: auth(user) });
    expect(result.status).toBe(200);
    expect(result.body.pagination).toEqual({ limit: 50, offset: 0, total: 3 });
    const [purchased, free, created] = result.body.templates;
    expect(created).toEqual({
      id: own.id,
      name: "My invoice",
      description: "Our own invoice",
      is_public: false,
      price: 0,
      slug: null,
      category: null,
      author: user.email,
      added_via: "created",
      added_at: "2026-03-04T05:06:07.891Z",
      updated_at: "2026-03-01T00:00:00.000Z",
      preview_url: null,
    });
    expect(purchased).toMatchObject({
      id: await catalogueId("receipt"),
      slug: "receipt",
      is_public: true,
      price: 19,
      added_via: "purchased",
      category: "Commerce",
      author: "Letterpress",
    });
    expect(free).toMatchObject({
      id: await catalogueId("welcome"),
      slug: "welcome",
      is_public: true,
      price: 0,
      added_via: "free",
    });
    expect(typeof purchased.price).toBe("number");
    expect(Object.keys(free).sort()).toEqual([
      "added_at",
      "added_via",
      "author",
      "category",
      "description",
      "id",
      "is_public",
      "name",
      "preview_url",
      "price",
      "slug",
      "updated_at",
    ]);
  });

  it("pages with limit and offset and reports the total", async () => {
    const user = await createUser("monthly");
    const slugs = ["welcome", "magic-link", "password-reset", "verify-email", "team-invite"];
    for (const slug of slugs) {
      await addToLibrary(user, slug);
      await nextInstant();
    }
    const newestFirst = [...slugs].reverse();
    const page = async (query: string) =>
      (await call(getLibrary, `/api/v1/library${query}`, { headers: auth(user) })).body;

    const first = await page("?limit=2");
    expect(first.templates.map((t: { slug: string }) => t.slug)).toEqual(newestFirst.slice(0, 2));
    expect(first.pagination).toEqual({ limit: 2, offset: 0, total: 5 });
    const second = await page("?limit=2&offset=2");
    expect(second.templates.map((t: { slug: string }) => t.slug)).toEqual(newestFirst.slice(2, 4));
    const last = await page("?limit=2&offset=4");
    expect(last.templates.map((t: { slug: string }) => t.slug)).toEqual(newestFirst.slice(4));
    expect((await page("?limit=07")).pagination).toEqual({ limit: 7, offset: 0, total: 5 });
    expect((await page("?offset=2147483647")).pagination).toEqual({ limit: 50, offset: 2147483647, total: 5 });
    const beyond = await page("?offset=10");
    expect(beyond).toEqual({ success: true, templates: [], pagination: { limit: 50, offset: 10, total: 5 } });
    expect((await page("?limit=100")).templates).toHaveLength(5);
  });

  it.each([
    ["limit=0", "limit", "limit must be an integer from 1 to 100"],
    ["limit=101", "limit", "limit must be an integer from 1 to 100"],
    ["limit=abc", "limit", "limit must be an integer from 1 to 100"],
    ["limit=1.5", "limit", "limit must be an integer from 1 to 100"],
    ["limit=", "limit", "limit must be an integer from 1 to 100"],
    ["limit=1e1", "limit", "limit must be an integer from 1 to 100"],
    ["limit=0x10", "limit", "limit must be an integer from 1 to 100"],
    ["limit=+5", "limit", "limit must be an integer from 1 to 100"],
    ["limit=%205", "limit", "limit must be an integer from 1 to 100"],
    ["limit=5.0", "limit", "limit must be an integer from 1 to 100"],
    ["offset=-1", "offset", "offset must be an integer from 0 to 2147483647"],
    ["offset=x", "offset", "offset must be an integer from 0 to 2147483647"],
    ["offset=2147483648", "offset", "offset must be an integer from 0 to 2147483647"],
    ["offset=99999999999999999999", "offset", "offset must be an integer from 0 to 2147483647"],
    ["limit=1&limit=2", "limit", "limit must be an integer from 1 to 100"],
  ])("refuses ?%s with a 400 naming the field", async (query, field, message) => {
    const user = await createUser();
    const result = await call(getLibrary, `/api/v1/library?${query}`, { headers: auth(user) });
    expect(result.status).toBe(400);
    expect(result.body).toEqual({
      error: "Invalid query parameters",
      code: "VALIDATION_ERROR",
      success: false,
      details: [{ field, message }],
    });
  });

  it("refuses unknown query parameters", async () => {
    const user = await createUser();
    const result = await call(getLibrary, "/api/v1/library?page=2", { headers: auth(user) });
    expect(result.status).toBe(400);
    expect(result.body.details).toEqual([{ field: "page", message: expect.stringContaining("page") }]);
  });

  it("never shows another account's templates", async () => {
    const owner = await createUser();
    await addToLibrary(owner, "welcome");
    const other = await createUser();
    const result = await call(getLibrary, "/api/v1/library", { headers: auth(other) });
    expect(result.body.pagination.total).toBe(0);
  });
});

describe("GET /api/v1/templates/{id}/source", () => {
  // A localized one (welcome) downloads as its files: tests/catalogue/localized-api.test.ts.
  it("returns the catalogue file's code for a template in the library", async () => {
    const user = await createUser();
    const { template_id } = await addToLibrary(user, "verify-email");
    const result = await call(getSource, `/api/v1/templates/${template_id}/source`, {
      params: { id: template_id },
      headers: auth(user),
    });
    expect(result.status).toBe(200);
    const [row] = await getDb()`select name, description from templates where id = ${template_id}`;
    expect(result.body).toEqual({
      success: true,
      source: { name: row.name, description: row.description, code: await readFile("emails/verify-email.tsx", "utf8") },
    });
  });

  it("returns a user's own template code exactly as stored", async () => {
    const user = await createUser();
    const code = "export default function Mine({ name = 'x' }: { name?: string }) { return <p>{name}</p>; }\n";
    const own = await createUserTemplate(user.accountId, {
      name: "Mine",
      description: "",
      code,
      compiledCode: null,
      variables: OPEN_VARIABLES_SCHEMA,
      previewProps: null,
    });
    const result = await call(getSource, `/api/v1/templates/${own.id}/source`, {
      params: { id: own.id },
      headers: auth(user),
    });
    expect(result.body).toEqual({ success: true, source: { name: "Mine", description: "", code } });
  });

  it.each([
    ["a public free template not in the library", async () => catalogueId("magic-link")],
    ["a paid template not purchased", async () => catalogueId("newsletter")],
    [
      "another user's private template",
      async () => {
        const other = await createUser();
        return (
          await createUserTemplate(other.accountId, {
            name: "Theirs",
            description: "",
            code: "x",
            compiledCode: null,
            variables: OPEN_VARIABLES_SCHEMA,
            previewProps: null,
          })
        ).id;
      },
    ],
    ["an unknown uuid", async () => "4b8f5d0e-7c1a-4e2b-9d3f-0a1b2c3d4e5f"],
    ["an id that is not a uuid", async () => "welcome"],
    ["a SQL-looking id", async () => "1' or '1'='1"],
  ])("answers 404 TEMPLATE_NOT_FOUND for %s", async (_, id) => {
    const user = await createUser();
    const templateId = await id();
    const result = await call(getSource, `/api/v1/templates/${encodeURIComponent(templateId)}/source`, {
      params: { id: templateId },
      headers: auth(user),
    });
    expect(result.status).toBe(404);
    expect(result.body).toEqual(TEMPLATE_NOT_FOUND);
  });
});

describe("library rules of the plans", () => {
  it("the free plan's library holds 10 templates", async () => {
    const user = await createUser("free");
    for (let i = 0; i < 10; i++) {
      await createUserTemplate(user.accountId, {
        name: `T${i}`,
        description: "",
        code: "x",
        compiledCode: null,
        variables: OPEN_VARIABLES_SCHEMA,
        previewProps: null,
      });
    }
    await expect(addLibraryEntry(user.accountId, "welcome")).rejects.toMatchObject({ code: "LIBRARY_LIMIT_REACHED" });
    await getDb()`update accounts set plan = 'monthly' where id = ${user.accountId}`;
    await expect(addLibraryEntry(user.accountId, "welcome")).resolves.toMatchObject({ added_via: "free" });
  });

  it("the free plan buys one paid template a month; paid plans are unlimited", async () => {
    const free = await createUser("free");
    await expect(addLibraryEntry(free.accountId, "receipt")).resolves.toMatchObject({ added_via: "purchased" });
    const second = addLibraryEntry(free.accountId, "newsletter");
    await expect(second).rejects.toBeInstanceOf(AppError);
    await expect(second).rejects.toMatchObject({ code: "PURCHASE_LIMIT_REACHED" });
    await expect(addLibraryEntry(free.accountId, "welcome")).resolves.toMatchObject({ added_via: "free" });

    const paid = await createUser("monthly");
    for (const slug of ["receipt", "newsletter", "order-shipped"]) {
      await expect(addLibraryEntry(paid.accountId, slug)).resolves.toMatchObject({ added_via: "purchased" });
    }
    const [{ n }] =
      await getDb()`select count(*)::int as n from purchases where account_id = ${paid.accountId} and status = 'completed'`;
    expect(n).toBe(3);
  });

  it("refuses a template already in the library, an unknown one, and a private one", async () => {
    const user = await createUser("monthly");
    await addLibraryEntry(user.accountId, "welcome");
    await expect(addLibraryEntry(user.accountId, "welcome")).rejects.toMatchObject({ code: "ALREADY_IN_LIBRARY" });
    await expect(addLibraryEntry(user.accountId, "no-such-template")).rejects.toMatchObject({
      code: "TEMPLATE_NOT_FOUND",
    });
    const other = await createUser();
    const theirs = await createUserTemplate(other.accountId, {
      name: "Theirs",
      description: "",
      code: "x",
      compiledCode: null,
      variables: OPEN_VARIABLES_SCHEMA,
      previewProps: null,
    });
    await expect(addLibraryEntry(user.accountId, theirs.id)).rejects.toMatchObject({ code: "TEMPLATE_NOT_FOUND" });
  });

  it("two concurrent additions cannot both take the last free slot", async () => {
    const user = await createUser("free");
    for (let i = 0; i < 9; i++) {
      await createUserTemplate(user.accountId, {
        name: `T${i}`,
        description: "",
        code: "x",
        compiledCode: null,
        variables: OPEN_VARIABLES_SCHEMA,
        previewProps: null,
      });
    }
    const results = await Promise.allSettled([
      addLibraryEntry(user.accountId, "welcome"),
      addLibraryEntry(user.accountId, "magic-link"),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const [{ n }] = await getDb()`select count(*)::int as n from library_entries where account_id = ${user.accountId}`;
    expect(n).toBe(10);
  });
});
