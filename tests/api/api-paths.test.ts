import { NextRequest } from "next/server";
import { beforeAll, describe, expect, it } from "vitest";
import { DELETE as unknownDelete, GET as unknownGet } from "@/app/api/[[...path]]/route";
import { config, proxy } from "@/proxy";
import { call } from "../support/api";

// Every answer under /api is JSON, whatever the path: Next parses some paths itself before any route code runs (a
// malformed percent-escape is its text/plain 500), and a path no route serves is its HTML 404 page. The proxy answers
// the first, the catch-all route at /api the second. Checked against the built app in tests/e2e/api-paths.e2e.ts.

const INVALID_PATH = {
  error: "Invalid request path",
  code: "VALIDATION_ERROR",
  success: false,
  details: [{ field: "path", message: "must be valid percent-encoded UTF-8" }],
};
const NOT_FOUND = { error: "Not found", code: "NOT_FOUND", success: false };

/** Whether Next runs the proxy for a path, by the matcher as Next compiles it. */
let proxied: (pathname: string) => boolean;

beforeAll(async () => {
  // Loaded once Next's server modules are (next/server above): on its own it finds no AsyncLocalStorage.
  const { unstable_doesMiddlewareMatch } = await import("next/experimental/testing/server");
  proxied = (url) => unstable_doesMiddlewareMatch({ config, url });
});

describe("a malformed percent-escape anywhere under /api answers the JSON 400", () => {
  it.each([
    ["GET", "/api/dashboard/templates/%ff/thumbnail"],
    ["GET", "/api/dashboard/templates/%ff/download"],
    ["POST", "/api/dashboard/templates/preview%c3%28"],
    ["GET", "/api/v1/templates/%ff/source"],
    ["GET", "/api/health%ff"],
    ["POST", "/api/webhooks/resend%E0%A4%A"],
    ["GET", "/api/cron/dispatch-scheduled%ff"],
    ["GET", "/api/%ff"],
    // A path that ends as a static file's would (the matcher leaves those out elsewhere) is still an API path.
    ["GET", "/api/v1/library%ff.css"],
    ["GET", "/api/dashboard/templates/%ff.png"],
    ["GET", "/api/x%ff.map"],
  ])("%s %s", async (method, path) => {
    expect(proxied(path)).toBe(true);
    const response = await proxy(new NextRequest(new URL(path, "http://localhost:3000"), { method }));
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(await response.json()).toEqual(INVALID_PATH);
  });

  it("leaves the API's own routes out of the proxy unless their path holds a percent sign", async () => {
    for (const path of ["/api/v1/library", "/api/health", "/api/webhooks/resend", "/api/cron/dispatch-scheduled"]) {
      expect([path, proxied(path)]).toEqual([path, false]);
    }
    for (const path of ["/api/v1/emails/%00", "/api/webhooks/resend%20", "/api/v1/templates/%2e%2e/%2e%2e/usage"]) {
      expect([path, proxied(path)]).toEqual([path, true]);
      const response = await proxy(new NextRequest(new URL(path, "http://localhost:3000")));
      expect(response.headers.get("x-middleware-next")).toBe("1");
    }
  });
});

describe("a path no route serves under /api answers the JSON 404", () => {
  // `/api/v1/templates/%2e%2e/%2e%2e/usage` is `/api/usage` once its dot segments are resolved, as Next resolves them.
  it.each(["/api", "/api/usage", "/api/nope/deeper", "/api/dashboard/templates/x/nothing", "/api/v1/nope"])(
    "GET %s",
    async (path) => {
      const result = await call(unknownGet, path, { params: { path: path.split("/").slice(2) } });
      expect(result.status).toBe(404);
      expect(result.body).toEqual(NOT_FOUND);
      expect(result.headers.get("content-type")).toContain("application/json");
      expect(result.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    },
  );

  it("DELETE /api/usage", async () => {
    const result = await call(unknownDelete, "/api/usage", { method: "DELETE", params: { path: ["usage"] } });
    expect(result).toMatchObject({ status: 404, body: NOT_FOUND });
  });
});
