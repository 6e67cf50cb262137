import { expect, test } from "@playwright/test";
import { url } from "./served-app";

// Paths Next itself parses before any route code runs, checked against the built app.

const INVALID_PATH = {
  error: "Invalid request path",
  code: "VALIDATION_ERROR",
  success: false,
  details: [{ field: "path", message: "must be valid percent-encoded UTF-8" }],
};

test.describe("a malformed percent-escape under /api/v1 answers JSON, never a text/plain 500", () => {
  const cases = [
    ["POST", "/api/v1/templates/%ff/render"],
    ["GET", "/api/v1/templates/%ff/source"],
    ["GET", "/api/v1/library%ff"],
    ["GET", "/api/v1/%E0%A4%A"],
    ["POST", "/api/v1/send%c3%28"],
  ] as const;
  for (const [method, path] of cases) {
    test(`${method} ${path}`, async ({ request }) => {
      const response = await request.fetch(url(path), { method });
      expect(response.status()).toBe(400);
      expect(response.headers()["content-type"]).toMatch(/^application\/json/);
      expect(response.headers()["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
      expect(await response.json()).toEqual(INVALID_PATH);
    });
  }

  test("a well-formed escape still reaches its route", async ({ request }) => {
    const render = await request.post(url("/api/v1/templates/%61bc/render"));
    expect(render.status()).toBe(401);
    expect(await render.json()).toEqual({ error: "Authentication required", code: "UNAUTHORIZED", success: false });
    const unknown = await request.get(url("/api/v1/no%20such%20thing"));
    expect(unknown.status()).toBe(404);
    expect(await unknown.json()).toEqual({ error: "Not found", code: "NOT_FOUND", success: false });
  });
});
