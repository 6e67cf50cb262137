/**
 * The dashboard's renders outside the metered API (the editor's live preview, a template page's preview as its
 * variables are edited, card thumbnails): limited per minute, per account and per client address, with the counters in
 * PostgreSQL; the live previews refused once the month's API calls are used up; unchanged thumbnails answered from the
 * browser's cache without a render.
 */
import { describe, expect, it } from "vitest";
import { checkCompatibility } from "@/lib/render/analysis/compatibility";
import { POST as postTemplatePreview } from "@/app/api/dashboard/templates/[id]/render/route";
import { GET as getThumbnail } from "@/app/api/dashboard/templates/[id]/thumbnail/route";
import { POST as postPreview } from "@/app/api/dashboard/templates/preview/route";
import { POST as postRender } from "@/app/api/v1/templates/[id]/render/route";
import { GET as getUsage } from "@/app/api/v1/usage/route";
import { clientAddress } from "@/lib/api/client-address";
import { PREVIEW_LIMITS } from "@/lib/core/limits";
import { THUMBNAIL_UNAVAILABLE_HTML } from "@/lib/dashboard/preview";
import { getDb } from "@/lib/db/client";
import { recordRateLimitHits } from "@/lib/db/rate-limits";
import { billingPeriod } from "@/lib/core/plans";
import { compileTemplate } from "@/lib/render/sandbox/compile";
import { JSON_SCHEMA_DIALECT } from "@/lib/templates/variables-schema";
import { createTemplateFromSource } from "@/lib/templates/user-templates";
import {
  addToLibrary,
  auth,
  BASE,
  call,
  callReadingLazily,
  counter,
  createUser,
  fillPreviewBucket,
  sessionCookie,
  setApiCallsUsed,
  type TestUser,
} from "../support/api";
import { setTestEnv } from "../support/env";
import { ISSUE_VARIABLES } from "../support/json-shapes";

const HELLO = `import { Html, Body, Text } from "@react-email/components";
export default function Hello({ name = "there" }: { name?: string }) {
  return <Html><Body><Text>Hello {name}</Text></Body></Html>;
}
Hello.PreviewProps = { name: "Ada" };
`;

const session = async (user: TestUser, address = "203.0.113.7") => ({
  cookie: await sessionCookie(user.accountId),
  origin: BASE,
  "x-forwarded-for": address,
});

const preview = async (user: TestUser, address?: string) =>
  call(postPreview, "/api/dashboard/templates/preview", {
    method: "POST",
    headers: await session(user, address),
    body: { code: HELLO, variables: { name: "Grace" } },
  });

const thumbnail = async (user: TestUser, id: string, headers: Record<string, string> = {}) =>
  call(getThumbnail, `/api/dashboard/templates/${id}/thumbnail`, {
    headers: { ...(await session(user)), ...headers },
    params: { id },
  });

/** A refusal as the tests compare it: its status, whether it says when to retry, and its body. */
const refusal = (result: { status: number; headers: Headers; body: unknown }) => ({
  status: result.status,
  retryAfter: Number(result.headers.get("retry-after")) > 0,
  body: result.body,
});

/** /render's 429 to a free account whose 500 API calls of the month are used up, with `result`'s Retry-After. */
function apiLimitRefusal(result: { headers: Headers }) {
  const reset = billingPeriod().reset.toISOString();
  return {
    status: 429,
    retryAfter: true,
    body: {
      error: "API usage limit exceeded",
      code: "RATE_LIMIT_EXCEEDED",
      message: `Your free plan includes 500 API calls per month. The limit resets at ${reset}; upgrade for unlimited calls.`,
      details: { limit: 500, remaining: 0, reset, resetInSeconds: Number(result.headers.get("retry-after")) },
      upgrade_url: "http://localhost:3000/dashboard/billing",
      documentation: "http://localhost:3000/docs#rate-limits",
    },
  };
}

const previewLimitBody = (limit: number, per: string, retryAfter: number) => ({
  error: "Preview limit exceeded",
  code: "RATE_LIMIT_EXCEEDED",
  success: false,
  message: `Dashboard previews are limited to ${limit} a minute per ${per}. Try again in ${retryAfter} seconds.`,
  details: { limit, remaining: 0, resetInSeconds: retryAfter },
});

describe("the editor's live preview", () => {
  it("renders for a signed-in account with API calls left, without spending any", async () => {
    const user = await createUser("free");
    await setApiCallsUsed(user, 499);
    const result = await preview(user);
    expect({ status: result.status, body: result.body }).toEqual({
      status: 200,
      body: {
        ok: true,
        html: expect.stringContaining("Hello <!-- -->Grace"),
        props: { name: "Grace" },
        // The email client support of the HTML it answers.
        compatibility: checkCompatibility(result.body.html),
        variables: {
          $schema: JSON_SCHEMA_DIALECT,
          type: "object",
          properties: { name: { type: "string", default: "there" } },
          additionalProperties: true,
        },
      },
    });
    const [usage] = await getDb()<{ count: number }[]>`
      select count from usage_counters where account_id = ${user.accountId} and metric = 'api_calls' and period_start = ${billingPeriod().start}`;
    expect(usage.count).toBe(499);
  });

  it("renders the editor's files as saving links them, and names the file of a compile error or a refused path", async () => {
    const user = await createUser("annual");
    const entry = `import { Html, Text } from "@react-email/components";
import { Footer } from "./components/footer";
export default function Hello({ name = "there" }: { name?: string }) {
  return <Html><Text>Hello {name}</Text><Footer /></Html>;
}
`;
    const draft = async (files: Record<string, string>) => {
      const result = await call(postPreview, "/api/dashboard/templates/preview", {
        method: "POST",
        headers: await session(user),
        body: { files, entry: "template.tsx", variables: { name: "Grace" } },
      });
      return { status: result.status, body: result.body };
    };
    const footer =
      'import { Text } from "@react-email/components";\nexport const Footer = () => <Text>The footer</Text>;\n';
    const drafted = await draft({ "template.tsx": entry, "components/footer.tsx": footer });
    expect(drafted).toEqual({
      status: 200,
      body: {
        ok: true,
        html: expect.stringMatching(/Hello <!-- -->Grace<\/p>.*The footer<\/p>/),
        props: { name: "Grace" },
        compatibility: checkCompatibility(drafted.body.html),
        variables: {
          $schema: JSON_SCHEMA_DIALECT,
          type: "object",
          properties: { name: { type: "string", default: "there" } },
          additionalProperties: true,
        },
      },
    });
    expect(
      await draft({ "template.tsx": entry, "components/footer.tsx": "export function Footer() {\n  return <p>;\n}\n" }),
    ).toEqual({
      status: 200,
      body: {
        ok: false,
        message: "Syntax error: `<p>` opened on line 2 is never closed",
        line: 2,
        column: 11,
        path: "components/footer.tsx",
      },
    });
    expect(await draft({ "template.tsx": entry, "/components/footer.tsx": footer })).toEqual({
      status: 200,
      body: {
        ok: false,
        message: "/components/footer.tsx must be relative: no leading /",
        path: "/components/footer.tsx",
      },
    });
  });

  it("answers the draft's variables: its PreviewProps as optional variables of their types, nested ones included", async () => {
    const user = await createUser("annual");
    const code = `import { Html, Text } from "@react-email/components";
export default function Order({ customer, items }: any) {
  return <Html><Text>{customer} ordered {items.length}</Text></Html>;
}
Order.PreviewProps = { customer: "Ada", items: [{ name: "Pen", qty: 2, gift: false }], note: null, tags: [] };
`;
    const result = await call(postPreview, "/api/dashboard/templates/preview", {
      method: "POST",
      headers: await session(user),
      body: { code },
    });
    expect({ status: result.status, body: result.body }).toEqual({
      status: 200,
      body: {
        ok: true,
        html: expect.stringContaining("Ada<!-- --> ordered <!-- -->1"),
        props: { customer: "Ada", items: [{ name: "Pen", qty: 2, gift: false }], note: null, tags: [] },
        compatibility: checkCompatibility(result.body.html),
        variables: {
          $schema: JSON_SCHEMA_DIALECT,
          type: "object",
          properties: {
            customer: { type: "string" },
            items: {
              type: "array",
              items: {
                type: "object",
                properties: { name: { type: "string" }, qty: { type: "number" }, gift: { type: "boolean" } },
                additionalProperties: true,
              },
            },
            note: {},
            tags: { type: "array" },
          },
          additionalProperties: true,
        },
      },
    });
  });

  it("answers a compile error's message with its line and column beside it, not in it", async () => {
    const user = await createUser("annual");
    const result = await call(postPreview, "/api/dashboard/templates/preview", {
      method: "POST",
      headers: await session(user),
      body: { code: "export default function Broken() {\n  return <div>;\n}\n" },
    });
    expect({ status: result.status, body: result.body }).toEqual({
      status: 200,
      body: {
        ok: false,
        message: "Syntax error: `<div>` opened on line 2 is never closed",
        line: 2,
        column: 11,
      },
    });
  });

  it("names the required variables PreviewProps lacks when their render fails, and not for the editor's variables", async () => {
    const user = await createUser("annual");
    const code = `import { Html, Text } from "@react-email/components";
export default function Order({ customer, items }: { customer: string; items: string[] }) {
  return <Html><Text>{customer}: {items.map((item) => item).join(", ")}</Text></Html>;
}
Order.PreviewProps = { customer: "Ada" };
`;
    const draft = async (variables?: Record<string, unknown>) => {
      const result = await call(postPreview, "/api/dashboard/templates/preview", {
        method: "POST",
        headers: await session(user),
        body: { code, ...(variables ? { variables } : {}) },
      });
      return { status: result.status, body: result.body };
    };
    expect(await draft()).toEqual({
      status: 200,
      body: {
        ok: false,
        message:
          "PreviewProps lacks the required variable items: the example render failed with: Template threw: TypeError: cannot read property 'map' of undefined",
      },
    });
    expect(await draft({ customer: "Grace" })).toEqual({
      status: 200,
      body: { ok: false, message: "Template threw: TypeError: cannot read property 'map' of undefined" },
    });
  });

  it("answers /render's 429 once the month's API calls are used up", async () => {
    const user = await createUser("free");
    await setApiCallsUsed(user, 500);
    const result = await preview(user);
    expect(refusal(result)).toEqual(apiLimitRefusal(result));
  });

  it(`refuses the ${PREVIEW_LIMITS.perAccount + 1}st preview of an account within a minute, with Retry-After`, async () => {
    const user = await createUser("annual");
    await fillPreviewBucket(`preview:account:${user.accountId}`, PREVIEW_LIMITS.perAccount - 1);
    expect((await preview(user)).status).toBe(200);
    const refused = await preview(user);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 429,
      body: previewLimitBody(PREVIEW_LIMITS.perAccount, "account", retryAfter),
    });
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(PREVIEW_LIMITS.windowSeconds);
  });

  it(`refuses previews past ${PREVIEW_LIMITS.perAddress} a minute from one address, whichever accounts ask`, async () => {
    const address = "198.51.100.23";
    await fillPreviewBucket(`preview:address:${address}`, PREVIEW_LIMITS.perAddress);
    const freshSignUp = await createUser("free");
    const refused = await preview(freshSignUp, address);
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 429,
      body: previewLimitBody(PREVIEW_LIMITS.perAddress, "network address", Number(refused.headers.get("retry-after"))),
    });
    expect((await preview(freshSignUp, "198.51.100.24")).status).toBe(200);
  });

  it("counts concurrent previews exactly (one statement in the database, not read then written)", async () => {
    const user = await createUser("annual");
    const bucket = `preview:account:${user.accountId}`;
    await fillPreviewBucket(bucket, 0);
    const hits = await Promise.all(
      Array.from({ length: 25 }, () => recordRateLimitHits([bucket], PREVIEW_LIMITS.windowSeconds)),
    );
    expect(hits.map(([hit]) => hit.hits).sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
  });

  it("keeps no rows of ended windows: a hit that opens a window deletes them", async () => {
    await getDb()`insert into rate_limit_windows (bucket, window_end, hits) values ('preview:address:192.0.2.1', now() - interval '1 minute', 5)`;
    const user = await createUser("annual");
    await recordRateLimitHits([`preview:account:${user.accountId}`], PREVIEW_LIMITS.windowSeconds);
    const [ended] = await getDb()<
      { rows: number }[]
    >`select count(*)::int as rows from rate_limit_windows where window_end <= now()`;
    expect(ended.rows).toBe(0);
  });

  it("bounds its variables as POST /render does: more than 1 MB of JSON is a 400 on variables", async () => {
    const user = await createUser("annual");
    const result = await call(postPreview, "/api/dashboard/templates/preview", {
      method: "POST",
      headers: await session(user),
      body: { code: HELLO, variables: { name: "x".repeat(1024 * 1024) } },
    });
    expect({ status: result.status, body: result.body }).toEqual({
      status: 400,
      body: {
        error: "Invalid request body",
        code: "VALIDATION_ERROR",
        success: false,
        details: [{ field: "variables", message: "variables must be at most 1 MB (1,048,576 bytes) as JSON" }],
      },
    });
  });

  it("is for the dashboard's session only: an API key gets 401", async () => {
    const user = await createUser("annual");
    const result = await call(postPreview, "/api/dashboard/templates/preview", {
      method: "POST",
      headers: auth(user),
      body: { code: HELLO },
    });
    expect({ status: result.status, body: result.body }).toEqual({
      status: 401,
      body: { error: "Authentication required", code: "UNAUTHORIZED", success: false },
    });
  });

  it("refuses a cross-site request with the API's own same-origin answer", async () => {
    const user = await createUser("annual");
    const refused = {
      status: 403,
      body: { error: "Cross-site request refused", code: "CSRF_REJECTED", success: false },
    };
    const { origin: _sameOrigin, ...withoutOrigin } = await session(user);
    for (const headers of [
      { ...withoutOrigin, origin: "https://evil.example" },
      { ...withoutOrigin, "sec-fetch-site": "cross-site" },
    ]) {
      const result = await call(postPreview, "/api/dashboard/templates/preview", {
        method: "POST",
        headers,
        body: { code: HELLO },
      });
      expect({ status: result.status, body: result.body }).toEqual(refused);
    }
  });
});

describe("a template page's preview as its variables are edited", () => {
  const EDITED = { variables: { userName: "Grace" }, plain_text: true };
  const templatePreview = async (user: TestUser, id: string, body: object = EDITED, address?: string) =>
    call(postTemplatePreview, `/api/dashboard/templates/${id}/render`, {
      method: "POST",
      headers: await session(user, address),
      body,
      params: { id },
    });
  const welcome = async (user: TestUser) => (await addToLibrary(user, "welcome")).template_id;

  it("answers what POST /render answers, HTML or React source, and leaves the API usage as it was", async () => {
    const user = await createUser("free");
    const id = await welcome(user);
    await setApiCallsUsed(user, 499);
    const usage = async () => (await call(getUsage, "/api/v1/usage", { headers: auth(user) })).body;
    const before = await usage();

    const html = await templatePreview(user, id);
    const react = await templatePreview(user, id, { variables: { userName: "Grace" }, format: "react" });
    expect(await usage()).toEqual(before);
    expect(await counter(user, "api_calls")).toBe(499);
    expect([html.headers.get("x-ratelimit-limit"), react.headers.get("x-ratelimit-remaining")]).toEqual([null, null]);

    // The API's answers to the same requests (its one call left spent on the first).
    const fromApi = async (body: object) =>
      (
        await call(postRender, `/api/v1/templates/${id}/render`, {
          method: "POST",
          headers: auth(user),
          body,
          params: { id },
        })
      ).body;
    expect({ status: html.status, body: html.body }).toEqual({
      status: 200,
      body: {
        success: true,
        locale: "en",
        html: expect.stringContaining("Grace"),
        text: expect.stringContaining("WELCOME TO ACME, GRACE!"),
      },
    });
    // The same body: a catalogue template's API render has no email client warnings either (its page lists them).
    expect(html.body).toEqual(await fromApi(EDITED));
    expect({ status: react.status, body: react.body }).toEqual({
      status: 200,
      body: { success: true, locale: "en", react: expect.stringContaining('"userName": "Grace"') },
    });
  });

  it("answers /render's 429 once the month's API calls are used up", async () => {
    const user = await createUser("free");
    const id = await welcome(user);
    await setApiCallsUsed(user, 500);
    const refused = await templatePreview(user, id);
    expect(refusal(refused)).toEqual(apiLimitRefusal(refused));
  });

  it(`refuses an account's previews past ${PREVIEW_LIMITS.perAccount} a minute, with Retry-After`, async () => {
    const user = await createUser("annual");
    const id = await welcome(user);
    await fillPreviewBucket(`preview:account:${user.accountId}`, PREVIEW_LIMITS.perAccount - 1);
    expect((await templatePreview(user, id)).status).toBe(200);
    const refused = await templatePreview(user, id);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 429,
      body: previewLimitBody(PREVIEW_LIMITS.perAccount, "account", retryAfter),
    });
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(PREVIEW_LIMITS.windowSeconds);
  });

  it(`refuses previews past ${PREVIEW_LIMITS.perAddress} a minute from one address, and previews from another`, async () => {
    const user = await createUser("annual");
    const id = await welcome(user);
    await fillPreviewBucket("preview:address:198.51.100.41", PREVIEW_LIMITS.perAddress);
    const refused = await templatePreview(user, id, EDITED, "198.51.100.41");
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 429,
      body: previewLimitBody(PREVIEW_LIMITS.perAddress, "network address", Number(refused.headers.get("retry-after"))),
    });
    expect((await templatePreview(user, id, EDITED, "198.51.100.42")).status).toBe(200);
  });

  it("previews only what the account may render: another account's template is not found", async () => {
    const [owner, other] = [await createUser("annual"), await createUser("annual")];
    const template = await createTemplateFromSource(owner.accountId, { name: "Hello", description: "", code: HELLO });
    const result = await templatePreview(other, template.id);
    expect({ status: result.status, body: result.body }).toEqual({
      status: 404,
      body: { error: "Template not found", code: "TEMPLATE_NOT_FOUND", success: false },
    });
  });

  it("is for the dashboard's session only: an API key gets 401", async () => {
    const user = await createUser("annual");
    const id = await welcome(user);
    const result = await call(postTemplatePreview, `/api/dashboard/templates/${id}/render`, {
      method: "POST",
      headers: auth(user),
      body: EDITED,
      params: { id },
    });
    expect({ status: result.status, body: result.body }).toEqual({
      status: 401,
      body: { error: "Authentication required", code: "UNAUTHORIZED", success: false },
    });
  });

  it("refuses a cross-site request with the API's own same-origin answer, rendering nothing", async () => {
    const user = await createUser("annual");
    const id = await welcome(user);
    const { origin: _sameOrigin, ...withoutOrigin } = await session(user);
    for (const headers of [
      { ...withoutOrigin, origin: "https://evil.example" },
      { ...withoutOrigin, "sec-fetch-site": "cross-site" },
    ]) {
      const result = await call(postTemplatePreview, `/api/dashboard/templates/${id}/render`, {
        method: "POST",
        headers,
        body: EDITED,
        params: { id },
      });
      expect({ status: result.status, body: result.body }).toEqual({
        status: 403,
        body: { error: "Cross-site request refused", code: "CSRF_REJECTED", success: false },
      });
    }
  });
});

describe("thumbnails", () => {
  const helloTemplate = (user: TestUser) =>
    createTemplateFromSource(user.accountId, { name: "Hello", description: "", code: HELLO });

  it("answers /render's 429 once the month's API calls are used up, as the live preview does; other accounts' render", async () => {
    const [spent, other] = [await createUser("free"), await createUser("free")];
    const [spentTemplate, otherTemplate] = [await helloTemplate(spent), await helloTemplate(other)];
    await setApiCallsUsed(spent, 500);
    await setApiCallsUsed(other, 499);
    const refused = await thumbnail(spent, spentTemplate.id);
    expect(refusal(refused)).toEqual(apiLimitRefusal(refused));
    const rendered = await thumbnail(other, otherTemplate.id);
    expect({ status: rendered.status, hello: rendered.text.includes("Hello <!-- -->Ada") }).toEqual({
      status: 200,
      hello: true,
    });
    // Not counted as an API call.
    expect(await counter(other, "api_calls")).toBe(499);
  });

  it(`refuses an account past ${PREVIEW_LIMITS.perAccount} renders a minute, and renders another account's`, async () => {
    const [busy, other] = [await createUser("annual"), await createUser("annual")];
    const [busyTemplate, otherTemplate] = [await helloTemplate(busy), await helloTemplate(other)];
    await fillPreviewBucket(`preview:account:${busy.accountId}`, PREVIEW_LIMITS.perAccount);
    const refused = await thumbnail(busy, busyTemplate.id);
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 429,
      body: previewLimitBody(PREVIEW_LIMITS.perAccount, "account", Number(refused.headers.get("retry-after"))),
    });
    expect((await thumbnail(other, otherTemplate.id)).status).toBe(200);
  });

  it(`refuses renders past ${PREVIEW_LIMITS.perAddress} a minute from one address, and renders from another`, async () => {
    const user = await createUser("annual");
    const template = await helloTemplate(user);
    await fillPreviewBucket("preview:address:198.51.100.31", PREVIEW_LIMITS.perAddress);
    const refused = await thumbnail(user, template.id, { "x-forwarded-for": "198.51.100.31" });
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 429,
      body: previewLimitBody(PREVIEW_LIMITS.perAddress, "network address", Number(refused.headers.get("retry-after"))),
    });
    expect((await thumbnail(user, template.id, { "x-forwarded-for": "198.51.100.32" })).status).toBe(200);
  });

  it("renders a template saved before its PreviewProps were kept, and whose PreviewProps fail, with sample values", async () => {
    const user = await createUser("annual");
    const template = await helloTemplate(user);
    // Reading them fails as a render does (RENDER_ERROR); only a busy sandbox keeps the thumbnail from rendering.
    const failing = compileTemplate(
      HELLO.replace(
        'Hello.PreviewProps = { name: "Ada" };',
        'Object.defineProperty(Hello, "PreviewProps", { get() { throw new Error("unreadable"); } });',
      ),
    );
    if (!failing.ok) throw new Error(failing.message);
    await getDb()`update templates set preview_props = null, compiled_code = ${failing.code} where id = ${template.id}`;
    const rendered = await thumbnail(user, template.id);
    expect({ status: rendered.status, unavailable: rendered.text === THUMBNAIL_UNAVAILABLE_HTML }).toEqual({
      status: 200,
      unavailable: false,
    });
    expect(rendered.text).toContain("Hello <!-- -->");
  });

  it("answers an unchanged thumbnail 304 from its ETag, without rendering or counting", async () => {
    const user = await createUser("annual");
    const template = await createTemplateFromSource(user.accountId, { name: "Hello", description: "", code: HELLO });
    const first = await thumbnail(user, template.id);
    const etag = first.headers.get("etag");
    expect({ status: first.status, cacheControl: first.headers.get("cache-control"), hasEtag: Boolean(etag) }).toEqual({
      status: 200,
      cacheControl: "private, max-age=300",
      hasEtag: true,
    });
    expect(first.text).toContain("Hello <!-- -->Ada");
    const bucket = `preview:account:${user.accountId}`;
    await fillPreviewBucket(bucket, PREVIEW_LIMITS.perAccount);
    const again = await thumbnail(user, template.id, { "if-none-match": etag! });
    expect({ status: again.status, text: again.text, etag: again.headers.get("etag") }).toEqual({
      status: 304,
      text: "",
      etag,
    });
    const [row] = await getDb()<
      { hits: number }[]
    >`select hits from rate_limit_windows where bucket = ${bucket} and window_end > now()`;
    expect(row.hits).toBe(PREVIEW_LIMITS.perAccount);
    // A thumbnail not in the browser's cache must render, and the account is at its limit.
    const refused = await thumbnail(user, template.id);
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 429,
      body: previewLimitBody(PREVIEW_LIMITS.perAccount, "account", Number(refused.headers.get("retry-after"))),
    });
  });
});

describe("the previews' limits are checked before the body is read", () => {
  // The issue's body: 700,000 keys (8 MB), which took seconds to parse before admitPreview refused it.
  type Route = [name: string, handler: typeof postPreview, path: (id: string) => string, body: string];
  const routes: Route[] = [
    [
      "the live preview",
      postPreview,
      () => "/api/dashboard/templates/preview",
      `{"code":"","variables":${ISSUE_VARIABLES}}`,
    ],
    [
      "a template page's preview",
      postTemplatePreview,
      (id: string) => `/api/dashboard/templates/${id}/render`,
      `{"variables":${ISSUE_VARIABLES}}`,
    ],
  ];
  const send = async (user: TestUser, [, handler, path, body]: Route) => {
    const id = (await addToLibrary(user, "welcome")).template_id;
    return callReadingLazily(handler, path(id), body, { headers: await session(user), params: { id } });
  };

  it.each(routes)("%s: once the month's API calls are used up, /render's 429, reading none of it", async (...route) => {
    const user = await createUser("free");
    await setApiCallsUsed(user, 500);
    const refused = await send(user, route);
    expect({ ...refusal(refused), bytesRead: refused.bytesRead }).toEqual({
      ...apiLimitRefusal(refused),
      bytesRead: 0,
    });
  });

  it.each(routes)(
    "%s: past the account's previews a minute, the preview limit's 429, reading none of it",
    async (...route) => {
      const user = await createUser("annual");
      await fillPreviewBucket(`preview:account:${user.accountId}`, PREVIEW_LIMITS.perAccount);
      const refused = await send(user, route);
      const retryAfter = Number(refused.headers.get("retry-after"));
      expect({ status: refused.status, body: refused.body, bytesRead: refused.bytesRead }).toEqual({
        status: 429,
        body: previewLimitBody(PREVIEW_LIMITS.perAccount, "account", retryAfter),
        bytesRead: 0,
      });
    },
  );

  it.each(routes)("%s: an API key gets 401, reading none of it", async (...route) => {
    const user = await createUser("annual");
    const id = (await addToLibrary(user, "welcome")).template_id;
    const [, handler, path, body] = route;
    const refused = await callReadingLazily(handler, path(id), body, { headers: auth(user), params: { id } });
    expect({ status: refused.status, code: refused.body.code, bytesRead: refused.bytesRead }).toEqual({
      status: 401,
      code: "UNAUTHORIZED",
      bytesRead: 0,
    });
  });
});

describe("the client's address", () => {
  const headers = (entries: Record<string, string>) => new Headers(entries);

  it("is X-Forwarded-For's last entry by default, its first on Vercel, and only CLIENT_IP_HEADER's when that is set", () => {
    const byDefault = [
      clientAddress(headers({ "x-forwarded-for": "198.51.100.1, 203.0.113.9" })),
      // X-Real-IP is only as good as a proxy that sets it: unless CLIENT_IP_HEADER names it, a client could.
      clientAddress(headers({ "x-forwarded-for": "198.51.100.1", "x-real-ip": "203.0.113.5" })),
      clientAddress(headers({ "x-forwarded-for": "2001:DB8::1" })),
    ];
    setTestEnv({ CLIENT_IP_HEADER: "X-Real-IP" });
    const named = [
      clientAddress(headers({ "x-forwarded-for": "198.51.100.1", "x-real-ip": "203.0.113.5" })),
      clientAddress(headers({ "x-forwarded-for": "198.51.100.1" })),
    ];
    setTestEnv({ CLIENT_IP_HEADER: undefined, VERCEL: "1" });
    const onVercel = clientAddress(
      headers({ "x-forwarded-for": "2001:db8::1, 203.0.113.9", "x-real-ip": "203.0.113.5" }),
    );
    expect({ byDefault, named, onVercel }).toEqual({
      byDefault: ["203.0.113.9", "198.51.100.1", "2001:db8::1"],
      named: ["203.0.113.5", null],
      onVercel: "2001:db8::1",
    });
  });

  it("is none for what is not an address: garbage, a zone id of the client's choosing, nothing", () => {
    const none = ["not an address", `fe80::1%${"x".repeat(300)}`, "fe80::1%eth0", ""].map((forwarded) =>
      clientAddress(headers({ "x-forwarded-for": forwarded })),
    );
    expect([...none, clientAddress(headers({}))]).toEqual([null, null, null, null, null]);
  });

  it("previews from requests with no usable address share one bucket, so forged addresses do not escape the limit", async () => {
    const user = await createUser("annual");
    const forged = await preview(user, `fe80::1%${"x".repeat(300)}`);
    expect(forged.status).toBe(200);
    const counted = await getDb()<{ hits: number }[]>`
      select hits from rate_limit_windows where bucket = 'preview:address:unknown' and window_end > now()`;
    expect(counted).toEqual([{ hits: expect.any(Number) }]);
    expect(counted[0].hits).toBeGreaterThan(0);
  });
});
