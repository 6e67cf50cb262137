import { expect, test } from "@playwright/test";
import { NO_CREDENTIALS, url } from "./served-app";

// Paths Next itself parses before any route code runs, checked against the built app.

const INVALID_PATH = {
  error: "Invalid request path",
  code: "VALIDATION_ERROR",
  success: false,
  details: [{ field: "path", message: "must be valid percent-encoded UTF-8" }],
};

const NOT_FOUND = { error: "Not found", code: "NOT_FOUND", success: false };

test.describe("a malformed percent-escape under /api answers JSON, never a text/plain 500", () => {
  const cases = [
    ["POST", "/api/v1/templates/%ff/render"],
    ["GET", "/api/v1/templates/%ff/source"],
    ["GET", "/api/v1/library%ff"],
    ["GET", "/api/v1/%E0%A4%A"],
    ["POST", "/api/v1/send%c3%28"],
    ["GET", "/api/dashboard/templates/%ff/thumbnail"],
    ["GET", "/api/dashboard/templates/%ff/download"],
    ["GET", "/api/health%ff"],
    ["POST", "/api/webhooks/resend%ff"],
    ["GET", "/api/cron/dispatch-scheduled%ff"],
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
    expect(await render.json()).toEqual(NO_CREDENTIALS);
    const unknown = await request.get(url("/api/v1/no%20such%20thing"));
    expect(unknown.status()).toBe(404);
    expect(await unknown.json()).toEqual(NOT_FOUND);
  });
});

test.describe("a path no route serves under /api answers the JSON 404, never Next's HTML page", () => {
  // The escaped dot segments resolve as plain ones do: this is /api/usage.
  for (const path of ["/api/v1/templates/%2e%2e/%2e%2e/usage", "/api/usage", "/api", "/api/dashboard/nothing"]) {
    test(`GET ${path}`, async ({ request }) => {
      const response = await request.get(url(path));
      expect(response.status()).toBe(404);
      expect(response.headers()["content-type"]).toMatch(/^application\/json/);
      expect(response.headers()["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
      expect(await response.json()).toEqual(NOT_FOUND);
    });
  }

  test("a NUL in a path parameter reaches its route, which answers JSON", async ({ request }) => {
    const response = await request.get(url("/api/v1/emails/%00"));
    expect(response.status()).toBe(401);
    expect(await response.json()).toEqual(NO_CREDENTIALS);
  });
});
