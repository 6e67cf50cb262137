import { describe, expect, inject, it } from "vitest";

// Paths Next itself parses before any route code runs, checked against the built app.
const baseUrl = inject("baseUrl");

const INVALID_PATH = {
  error: "Invalid request path",
  code: "VALIDATION_ERROR",
  success: false,
  details: [{ field: "path", message: "must be valid percent-encoded UTF-8" }],
};

describe("a malformed percent-escape under /api/v1 answers JSON, never a text/plain 500", () => {
  const cases = [
    ["POST", "/api/v1/templates/%ff/render"],
    ["GET", "/api/v1/templates/%ff/source"],
    ["GET", "/api/v1/library%ff"],
    ["GET", "/api/v1/%E0%A4%A"],
    ["POST", "/api/v1/send%c3%28"],
  ] as const;
  for (const [method, path] of cases) {
    it(`${method} ${path}`, async () => {
      const response = await fetch(`${baseUrl}${path}`, { method });
      expect(response.status).toBe(400);
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
      expect(await response.json()).toEqual(INVALID_PATH);
    });
  }

  it("a well-formed escape still reaches its route", async () => {
    const render = await fetch(`${baseUrl}/api/v1/templates/%61bc/render`, { method: "POST" });
    expect(render.status).toBe(401);
    expect(await render.json()).toEqual({ error: "Authentication required", code: "UNAUTHORIZED", success: false });
    const unknown = await fetch(`${baseUrl}/api/v1/no%20such%20thing`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: "Not found", code: "NOT_FOUND", success: false });
  });
});
