import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { contract, API_OPERATIONS } from "@/lib/api/contract";
import { defineOperation } from "@/lib/api/contract/define";
import { implement } from "@/lib/api/route";
import { call } from "../support/api";

// Every route file is made by lib/api/route.ts: the contract's operations implemented under their own method, and one
// 405 for the methods a route does not serve.

const API_ROOT = path.join(import.meta.dirname, "..", "..", "app", "api");
const EXPORTED_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

/** Every route file under app/api, by its path under /api (`[id]` as written). */
const routeFiles = readdirSync(API_ROOT, { recursive: true, encoding: "utf8" })
  .filter((file) => path.basename(file) === "route.ts")
  .map((file) => `/${path.dirname(file).split(path.sep).join("/")}`.replace(/^\/\.$/, "/"));

const loadRoute = (route: string): Promise<Record<string, unknown>> => import(path.join(API_ROOT, route, "route.ts"));

const METHOD_NOT_ALLOWED = (allow: string) => ({
  error: "Method not allowed",
  code: "METHOD_NOT_ALLOWED",
  success: false,
  message: `Use ${allow}.`,
});

describe("route files", () => {
  it("implement each operation of the contract under its method, in the file at its path", async () => {
    for (const operation of API_OPERATIONS) {
      const file = `/v1${operation.path.replace(/\{(\w+)\}/g, "[$1]")}`;
      const handler = (await loadRoute(file))[operation.method] as { operation?: unknown };
      expect([operation.operationId, handler.operation === operation]).toEqual([operation.operationId, true]);
    }
  });

  it("export every method, so none is left to Next's bare 405", async () => {
    expect(routeFiles.length).toBeGreaterThan(20);
    for (const route of routeFiles) {
      const routeModule = await loadRoute(route);
      const exported = EXPORTED_METHODS.filter((method) => typeof routeModule[method] === "function");
      expect([route, exported]).toEqual([route, EXPORTED_METHODS]);
    }
  });

  it.each([
    ["/dashboard/templates/[id]/download", "POST", "GET, HEAD"],
    ["/dashboard/templates/[id]/thumbnail", "DELETE", "GET, HEAD"],
    ["/dashboard/templates/preview", "GET", "POST"],
    ["/cron/report-usage", "PATCH", "GET, HEAD, POST"],
    ["/webhooks/stripe", "PUT", "POST"],
    ["/health", "POST", "GET, HEAD"],
  ])("%s answers %s with a 405 naming what it serves, and OPTIONS with it", async (route, method, allow) => {
    const routeModule = await loadRoute(route);
    const refused = await call(routeModule[method] as Parameters<typeof call>[0], `/api${route}`, { method });
    expect([refused.status, refused.headers.get("allow"), refused.body]).toEqual([
      405,
      allow,
      METHOD_NOT_ALLOWED(allow),
    ]);
    const options = await call(routeModule.OPTIONS as Parameters<typeof call>[0], `/api${route}`, {
      method: "OPTIONS",
    });
    expect([options.status, options.headers.get("allow")]).toEqual([204, `${allow}, OPTIONS`]);
  });
});

describe("defineOperation", () => {
  const operation = {
    method: "GET",
    path: "/things/{id}",
    operationId: "getThing",
    summary: "A thing",
    metered: false,
    success: { status: 200, description: "The thing", schema: z.object({ success: z.literal(true) }) },
    errors: [],
  } as const;

  it("refuses path parameters other than the path's, and a notFound that is not a 404", () => {
    expect(() => defineOperation({ ...operation, pathParameters: { id: z.uuid() } })).not.toThrow();
    expect(() => defineOperation(operation)).toThrow("getThing's path parameters (none) are not /things/{id}'s");
    expect(() => defineOperation({ ...operation, pathParameters: { thing: z.uuid() } })).toThrow(
      "getThing's path parameters (thing) are not /things/{id}'s",
    );
    expect(() =>
      defineOperation({ ...operation, pathParameters: { id: z.uuid() }, notFound: "EMAIL_NOT_CANCELABLE" }),
    ).toThrow("getThing's notFound, EMAIL_NOT_CANCELABLE, is not a 404");
  });
});

describe("the compiler holds a handler to its operation's success schema", () => {
  it("refuses a body of another shape (checked by tsc, not run)", () => {
    const wrongBodies = () => [
      // @ts-expect-error `usage` is an object of limits, not a string.
      implement(contract.getUsage, async () => ({ success: true, usage: "plenty" })),
      // @ts-expect-error A success answers `success: true`.
      implement(contract.deleteTemplate, async () => ({ success: false })),
      // @ts-expect-error The template's details are required.
      implement(contract.getTemplate, async () => ({ success: true })),
    ];
    expect(wrongBodies).toBeTypeOf("function");
  });
});
