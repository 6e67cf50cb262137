import { expect, it, vi } from "vitest";

const SERVER = "https://letterpress.example.com";

// Next bundles pages, route handlers and client components apart, so one server process can hold several copies of a
// schema module, each declaring its components again in zod's registry, which is one per process. /docs and
// GET /openapi.json once answered 500 ("Duplicate schema id") on a server that had loaded a second copy of one.
it("builds the same OpenAPI document however many copies of the schema modules the process has loaded", async () => {
  const first = await import("@/lib/api/openapi");
  const document = first.buildOpenApiDocument(SERVER);
  expect(Object.keys(document.components.schemas)).toContain("Warnings");

  vi.resetModules();
  await import("@/lib/templates/schemas");
  expect(first.buildOpenApiDocument(SERVER)).toEqual(document);

  vi.resetModules();
  const second = await import("@/lib/api/openapi");
  expect(second.buildOpenApiDocument).not.toBe(first.buildOpenApiDocument);
  expect(second.buildOpenApiDocument(SERVER)).toEqual(document);
  expect(first.buildOpenApiDocument(SERVER)).toEqual(document);
});
