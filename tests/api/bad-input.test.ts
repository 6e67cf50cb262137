import { NextRequest } from "next/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { GET as unknownGet, POST as unknownPost } from "@/app/api/[[...path]]/route";
import { GET as getLibrary } from "@/app/api/v1/library/route";
import { POST as postPreview } from "@/app/api/dashboard/templates/preview/route";
import { POST as postDashboardRender } from "@/app/api/dashboard/templates/[id]/render/route";
import { POST as postSendBatch } from "@/app/api/v1/send/batch/route";
import { POST as postSend } from "@/app/api/v1/send/route";
import { POST as postTemplates } from "@/app/api/v1/templates/route";
import { PUT as putTemplate } from "@/app/api/v1/templates/[id]/route";
import { POST as postRender } from "@/app/api/v1/templates/[id]/render/route";
import { addSendingDomain } from "@/lib/sending-domains/data";
import {
  addToLibrary,
  auth,
  BASE,
  call,
  callReadingLazily,
  catalogueId,
  createUser,
  sender,
  sessionCookie,
  setApiCallsUsed,
  uniqueDomain,
} from "../support/api";
import { ISSUE_VARIABLES, objectOfKeys } from "../support/json-shapes";

const NOT_FOUND = { error: "Not found", code: "NOT_FOUND", success: false };
const validation = (details: { field: string; message: string }[]) => ({
  error: "Invalid request body",
  code: "VALIDATION_ERROR",
  success: false,
  details,
});

describe("bad input never gets a 500 or an HTML page", () => {
  it.each(["/api/v1", "/api/v1/nope", "/api/v1/templates", "/api/v1/templates/x/delete", "/api/v1/library/extra"])(
    "GET %s answers the JSON 404",
    async (path) => {
      const result = await call(unknownGet, path, { params: { path: path.split("/").slice(2) } });
      expect(result.status).toBe(404);
      expect(result.body).toEqual(NOT_FOUND);
      expect(result.headers.get("content-type")).toContain("application/json");
      expect(result.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    },
  );

  it("POST to an unknown path answers the JSON 404", async () => {
    const result = await call(unknownPost, "/api/v1/emails", { method: "POST", body: { a: 1 } });
    expect(result).toMatchObject({ status: 404, body: NOT_FOUND });
  });

  describe("POST /templates/{id}/render bodies", async () => {
    const cases: [string, string, number, unknown][] = [
      [
        "malformed JSON",
        "{not json",
        400,
        validation([
          { field: "body", message: expect.stringMatching(/^Request body is not valid JSON: /) as unknown as string },
        ]),
      ],
      ["a JSON array", "[1,2]", 400, validation([{ field: "body", message: "Request body must be a JSON object" }])],
      ["JSON null", "null", 400, validation([{ field: "body", message: "Request body must be a JSON object" }])],
      ["a JSON string", '"hello"', 400, validation([{ field: "body", message: "Request body must be a JSON object" }])],
      [
        "variables as a string",
        '{"variables":"x"}',
        400,
        validation([{ field: "variables", message: "variables must be an object" }]),
      ],
      [
        "variables as an array",
        '{"variables":[1]}',
        400,
        validation([{ field: "variables", message: "variables must be an object" }]),
      ],
      [
        "variables as null",
        '{"variables":null}',
        400,
        validation([{ field: "variables", message: "variables must be an object" }]),
      ],
      [
        "variables as a number",
        '{"variables":42}',
        400,
        validation([{ field: "variables", message: "variables must be an object" }]),
      ],
      [
        "variables as a boolean",
        '{"variables":true}',
        400,
        validation([{ field: "variables", message: "variables must be an object" }]),
      ],
      [
        "an unknown format",
        '{"format":"pdf"}',
        400,
        validation([{ field: "format", message: 'format must be "html" or "react"' }]),
      ],
      [
        "format in capitals",
        '{"format":"HTML"}',
        400,
        validation([{ field: "format", message: 'format must be "html" or "react"' }]),
      ],
      [
        "plain_text as a string",
        '{"plain_text":"yes"}',
        400,
        validation([{ field: "plain_text", message: "plain_text must be a boolean" }]),
      ],
      [
        "an unpaired surrogate inside a list",
        '{"variables":{"list":[{"a":"x"},{"b":"\\ud800"}]}}',
        400,
        validation([
          { field: "variables.list.1.b", message: "must be valid Unicode text: it holds an unpaired surrogate" },
        ]),
      ],
      [
        "a key with an unpaired surrogate",
        '{"variables":{"ok":{"\\udc00":1}}}',
        400,
        validation([
          { field: "variables.ok", message: "holds a key that is not valid Unicode text (an unpaired surrogate)" },
        ]),
      ],
      [
        "lists nested 40 deep",
        `{"variables":{"deep":${"[".repeat(40)}${"]".repeat(40)}}}`,
        400,
        validation([
          { field: ["variables", "deep", ...Array(30).fill("0")].join("."), message: "nests deeper than 32 levels" },
        ]),
      ],
      [
        "several problems at once",
        '{"variables":"x","format":1,"plain_text":0}',
        400,
        validation([
          { field: "variables", message: "variables must be an object" },
          { field: "format", message: 'format must be "html" or "react"' },
          { field: "plain_text", message: "plain_text must be a boolean" },
        ]),
      ],
    ];

    it.each(cases)("%s", async (_, body, status, expected) => {
      const user = await createUser("monthly");
      const { template_id } = await addToLibrary(user, "welcome");
      const result = await call(postRender, `/api/v1/templates/${template_id}/render`, {
        method: "POST",
        params: { id: template_id },
        headers: auth(user),
        body,
      });
      expect(result.status).toBe(status);
      expect(result.body).toEqual(expected);
    });
  });

  it("an empty body renders with the defaults", async () => {
    const user = await createUser("monthly");
    const { template_id } = await addToLibrary(user, "welcome");
    const result = await call(postRender, `/api/v1/templates/${template_id}/render`, {
      method: "POST",
      params: { id: template_id },
      headers: auth(user),
      body: "",
    });
    expect(result.status).toBe(200);
    expect(result.body.html).toMatch(/^<!DOCTYPE html/);
  });

  const TOO_MANY_VALUES = validation([
    {
      field: "body",
      message: "holds more than 100,000 JSON values (objects, arrays, strings, numbers, booleans and nulls)",
    },
  ]);
  const VARIABLES_TOO_LARGE = validation([
    { field: "variables", message: "variables must be at most 1 MB (1,048,576 bytes) as JSON" },
  ]);

  it("answers the issue's 9.8 MB body of 29 nested levels holding 4.9 million zeros at once", async () => {
    const user = await createUser("monthly");
    const { template_id } = await addToLibrary(user, "welcome");
    const body = `{"variables":${'{"a":'.repeat(26)}[${"0,".repeat(4_900_000 - 1)}0]${"}".repeat(26)}}`;
    const started = performance.now();
    const result = await call(postRender, `/api/v1/templates/${template_id}/render`, {
      method: "POST",
      params: { id: template_id },
      headers: auth(user),
      body,
    });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(result.status).toBe(400);
    expect(result.body).toEqual(TOO_MANY_VALUES);
  });

  it("takes a body of 100,000 JSON values and refuses one more", async () => {
    const user = await createUser("monthly");
    const { template_id } = await addToLibrary(user, "welcome");
    // The body object, variables and the list are three values; the strings make up the rest, each of 11 bytes.
    const withValues = (count: number) => `{"variables":{"n":[${'"abcdefgh",'.repeat(count - 4)}""]}}`;
    const render = (body: string) =>
      call(postRender, `/api/v1/templates/${template_id}/render`, {
        method: "POST",
        params: { id: template_id },
        headers: auth(user),
        body,
      });
    // Past the count, this body is still refused for its size: about 1.1 MB of variables.
    expect((await render(withValues(100_000))).body).toEqual(VARIABLES_TOO_LARGE);
    expect((await render(withValues(100_001))).body).toEqual(TOO_MANY_VALUES);
  });

  it("a body declared over 10 MB answers 413 without being read", async () => {
    const user = await createUser("monthly");
    const { template_id } = await addToLibrary(user, "welcome");
    const result = await call(postRender, `/api/v1/templates/${template_id}/render`, {
      method: "POST",
      params: { id: template_id },
      headers: { ...auth(user), "content-length": String(10 * 1024 * 1024 + 1) },
      body: "{}",
    });
    expect(result.status).toBe(413);
    expect(result.body).toEqual({ error: "Request body too large", code: "PAYLOAD_TOO_LARGE", success: false });
  });

  it("a body over 10 MB without a Content-Length answers 413", async () => {
    const user = await createUser("monthly");
    const { template_id } = await addToLibrary(user, "welcome");
    const big = JSON.stringify({ variables: { name: "x".repeat(10 * 1024 * 1024) } });
    const result = await call(postRender, `/api/v1/templates/${template_id}/render`, {
      method: "POST",
      params: { id: template_id },
      headers: auth(user),
      body: big,
    });
    expect(result.status).toBe(413);
    expect(result.body).toEqual({ error: "Request body too large", code: "PAYLOAD_TOO_LARGE", success: false });
  });

  it.each([
    ["a very long X-API-Key", { "x-api-key": "lp_live_" + "a".repeat(100_000) }],
    ["an X-API-Key with control characters", { "x-api-key": "lp_live_\tabc" }],
    ["a non-ASCII Bearer token", { authorization: "Bearer lp_live_ÿÿÿ" }],
  ])("%s answers 401, saying the key is malformed", async (_, headers) => {
    const result = await call(getLibrary, "/api/v1/library", { headers });
    expect(result.status).toBe(401);
    expect(result.body).toEqual({
      error: "Authentication required",
      code: "UNAUTHORIZED",
      success: false,
      message: "The API key is malformed: after its prefix a key has 49 letters and digits.",
    });
  });

  it.each(["%00", "..%2F..%2Fetc%2Fpasswd", "' or 1=1 --", "00000000-0000-0000-0000-00000000000g"])(
    "template id %s answers 404",
    async (id) => {
      const user = await createUser("monthly");
      const decoded = decodeURIComponent(id);
      const result = await call(postRender, `/api/v1/templates/${encodeURIComponent(decoded)}/render`, {
        method: "POST",
        params: { id: decoded },
        headers: auth(user),
        body: {},
      });
      expect(result.status).toBe(404);
      expect(result.body).toEqual({ error: "Template not found", code: "TEMPLATE_NOT_FOUND", success: false });
    },
  );
});

describe("JSON bodies: each shape is capped, and counted before the body is parsed", () => {
  const TOO_MANY_KEYS = validation([
    { field: "body", message: "holds more than 20,000 object keys (in all its objects)" },
  ]);
  const NUMBER_TOO_LONG = validation([{ field: "body", message: "holds a number longer than 100 characters" }]);
  const keyOf = (length: number) => "k".repeat(length);

  it("the issue's 700,000 keys are refused at once by every route that reads JSON, the dashboard's included", async () => {
    const user = await sender("monthly");
    const browser = { cookie: await sessionCookie(user.accountId), origin: BASE };
    const post = (
      handler: Parameters<typeof call>[0],
      path: string,
      body: string,
      headers: Record<string, string> = auth(user),
      id?: string,
    ) => call(handler, path, { method: "POST", headers, body, params: id ? { id } : {} });
    const email = `"template_id":"${user.welcomeId}","from":"hi@${user.domain}","to":"ann@example.com","subject":"Hi"`;
    const answers = await Promise.all([
      post(postRender, `/api/v1/templates/welcome/render`, `{"variables":${ISSUE_VARIABLES}}`, auth(user), "welcome"),
      post(postSend, "/api/v1/send", `{${email},"variables":${ISSUE_VARIABLES}}`),
      post(postSendBatch, "/api/v1/send/batch", `{"emails":[{${email},"variables":${ISSUE_VARIABLES}}]}`),
      post(postTemplates, "/api/v1/templates", `{"name":"Keys","files":${ISSUE_VARIABLES}}`),
      call(putTemplate, "/api/v1/templates/welcome", {
        method: "PUT",
        headers: auth(user),
        params: { id: "welcome" },
        body: `{"name":"Keys","files":${ISSUE_VARIABLES}}`,
      }),
      post(postPreview, "/api/dashboard/templates/preview", `{"code":"","variables":${ISSUE_VARIABLES}}`, browser),
      post(
        postDashboardRender,
        `/api/dashboard/templates/${user.welcomeId}/render`,
        `{"variables":${ISSUE_VARIABLES}}`,
        browser,
        user.welcomeId,
      ),
    ]);
    expect(answers.map(({ status, body }) => ({ status, body }))).toEqual(
      Array.from({ length: 7 }, () => ({ status: 400, body: TOO_MANY_KEYS })),
    );
  });

  it("a call past the month's API calls, or without a key, is refused before its body is read", async () => {
    const user = await createUser("free");
    await setApiCallsUsed(user, 500);
    const render = (headers: Record<string, string>) =>
      callReadingLazily(postRender, "/api/v1/templates/welcome/render", `{"variables":${ISSUE_VARIABLES}}`, {
        headers,
        params: { id: "welcome" },
      });
    const [overQuota, anonymous] = [await render(auth(user)), await render({})];
    expect(
      [overQuota, anonymous].map(({ status, body, bytesRead }) => ({ status, code: body.code, bytesRead })),
    ).toEqual([
      { status: 429, code: "RATE_LIMIT_EXCEEDED", bytesRead: 0 },
      { status: 401, code: "UNAUTHORIZED", bytesRead: 0 },
    ]);
  });

  it("takes 20,000 object keys in all and refuses one more", async () => {
    const user = await createUser("monthly");
    const { template_id } = await addToLibrary(user, "welcome");
    const render = (body: string) =>
      call(postRender, `/api/v1/templates/${template_id}/render`, {
        method: "POST",
        params: { id: template_id },
        headers: auth(user),
        body,
      });
    // `variables`, `userName` and `rows` are three keys, and the list's objects hold the rest.
    const withKeys = (count: number) =>
      `{"variables":{"userName":"Ada","rows":[${Array.from({ length: count - 3 }, () => '{"a":0}').join(",")}]}}`;
    const atCap = await render(withKeys(20_000));
    expect({ status: atCap.status, success: atCap.body.success }).toEqual({ status: 200, success: true });
    expect(atCap.body.html).toContain("Ada");
    const over = await render(withKeys(20_001));
    expect({ status: over.status, body: over.body }).toEqual({ status: 400, body: TOO_MANY_KEYS });
  });

  it("takes a key of 256 characters and refuses a longer one, naming the object that holds it", async () => {
    const user = await createUser("monthly");
    const { template_id } = await addToLibrary(user, "welcome");
    const render = (body: string) =>
      call(postRender, `/api/v1/templates/${template_id}/render`, {
        method: "POST",
        params: { id: template_id },
        headers: auth(user),
        body,
      });
    const keyTooLong = (field: string) => validation([{ field, message: "holds a key longer than 256 characters" }]);
    const atCap = await render(`{"variables":{"userName":"Ada","more":{"${keyOf(256)}":1}}}`);
    expect({ status: atCap.status, success: atCap.body.success }).toEqual({ status: 200, success: true });
    expect(await render(`{"variables":{"userName":"Ada","more":{"${keyOf(257)}":1}}}`)).toMatchObject({
      status: 400,
      body: keyTooLong("variables.more"),
    });
    expect(await render(`{"${keyOf(257)}":1}`)).toMatchObject({ status: 400, body: keyTooLong("body") });
    // A key of 9 MB, one of the issue's shapes.
    expect(await render(`{"variables":{"${keyOf(9 * 1024 * 1024)}":1}}`)).toMatchObject({
      status: 400,
      body: keyTooLong("variables"),
    });
  });

  it("takes a number written in 100 characters and refuses a longer one, and the issue's 500,000 digits", async () => {
    const user = await createUser("monthly");
    const { template_id } = await addToLibrary(user, "welcome");
    const render = (number: string) =>
      call(postRender, `/api/v1/templates/${template_id}/render`, {
        method: "POST",
        params: { id: template_id },
        headers: auth(user),
        body: `{"variables":{"userName":"Ada","n":${number}}}`,
      });
    const atCap = await render(`-0.${"1".repeat(97)}`);
    expect({ status: atCap.status, success: atCap.body.success }).toEqual({ status: 200, success: true });
    for (const number of [`-0.${"1".repeat(98)}`, `1e+${"0".repeat(98)}`, "1".repeat(500_000)]) {
      expect(await render(number)).toMatchObject({ status: 400, body: NUMBER_TOO_LONG });
    }
    // Inside a string they are text, not a number.
    const text = await render(`"${"1".repeat(500_000)}"`);
    expect({ status: text.status, success: text.body.success }).toEqual({ status: 200, success: true });
  });

  it("counts what is in strings as text: quotes, braces, colons and commas escaped or not", async () => {
    const user = await createUser("monthly");
    const { template_id } = await addToLibrary(user, "welcome");
    // An escaped quote, a brace, a colon, a comma, brackets and an escaped backslash: none ends the string or counts,
    // after a few characters as after a long run of them.
    const text = `${'\\"{:,}[]\\\\'.repeat(20_000)}${`${"a".repeat(40)}\\"{:,}[]${"b".repeat(40)}\\\\`.repeat(5_000)}`;
    const result = await call(postRender, `/api/v1/templates/${template_id}/render`, {
      method: "POST",
      params: { id: template_id },
      headers: auth(user),
      body: `{"variables":{"userName":"Ada","note":"${text}","keys":${objectOfKeys(19_990)}}}`,
    });
    expect({ status: result.status, success: result.body.success }).toEqual({ status: 200, success: true });
  });
});

describe("variables of at most 1 MB as JSON", () => {
  const VARIABLES_TOO_LARGE = validation([
    { field: "variables", message: "variables must be at most 1 MB (1,048,576 bytes) as JSON" },
  ]);
  /** `{"userName":"…"}` of exactly `bytes` bytes of JSON, its name made of `char`. */
  const userNameOf = (bytes: number, char = "x") => ({
    userName: char.repeat((bytes - '{"userName":""}'.length) / Buffer.byteLength(char)),
  });

  it("POST /templates/{id}/render: 1 MB passes on to the template's own checks, a byte more is refused", async () => {
    const user = await createUser("monthly");
    const { template_id } = await addToLibrary(user, "welcome");
    const render = (variables: unknown) =>
      call(postRender, `/api/v1/templates/${template_id}/render`, {
        method: "POST",
        params: { id: template_id },
        headers: auth(user),
        body: { variables },
      });
    const atBound = await render(userNameOf(1024 * 1024));
    expect(atBound.status).toBe(400);
    expect(atBound.body).toEqual(
      validation([{ field: "variables.userName", message: "must be at most 200 characters" }]),
    );
    const over = await render(userNameOf(1024 * 1024 + 1));
    expect(over.status).toBe(400);
    expect(over.body).toEqual(VARIABLES_TOO_LARGE);
    // Counted in UTF-8 bytes: 600,000 two-byte characters are over, though fewer than 1,048,576 UTF-16 units.
    expect((await render({ userName: "é".repeat(600_000) })).body).toEqual(VARIABLES_TOO_LARGE);
    // The issue's welcome with a 9 MB userName.
    expect((await render({ userName: "x".repeat(9_000_000) })).body).toEqual(VARIABLES_TOO_LARGE);
  });

  it("the issue's newsletter of 110,000 articles is refused for its keys, 6,000 long ones for their size, and 51 articles under 1 MB by the template", async () => {
    const user = await createUser("monthly");
    const { template_id } = await addToLibrary(user, "newsletter");
    const render = (count: number, summary = "S") =>
      call(postRender, `/api/v1/templates/${template_id}/render`, {
        method: "POST",
        params: { id: template_id },
        headers: auth(user),
        body: {
          variables: {
            unsubscribeUrl: "https://acme.test/u",
            articles: Array(count).fill({ title: "A", summary, url: "https://acme.test/a" }),
          },
        },
      });
    const huge = await render(110_000);
    expect(huge.status).toBe(400);
    expect(huge.body).toEqual(
      validation([{ field: "body", message: "holds more than 20,000 object keys (in all its objects)" }]),
    );
    // 18,000 keys and 24,000 values, within the body's caps: about 1.5 MB of variables.
    const long = await render(6_000, "s".repeat(200));
    expect(long.status).toBe(400);
    expect(long.body).toEqual(VARIABLES_TOO_LARGE);
    const many = await render(51);
    expect(many.status).toBe(400);
    expect(many.body).toEqual(validation([{ field: "variables.articles", message: "must list at most 50 articles" }]));
  });

  it("POST /send: over 1 MB is refused before anything is sent", async () => {
    const user = await createUser();
    await addSendingDomain(user.accountId, { domain: uniqueDomain(), verified: true });
    await addToLibrary(user, "welcome");
    const result = await call(postSend, "/api/v1/send", {
      method: "POST",
      headers: auth(user),
      body: {
        template_id: await catalogueId("welcome"),
        to: "ann@example.com",
        subject: "Hi",
        variables: userNameOf(1024 * 1024 + 1),
      },
    });
    expect(result.status).toBe(400);
    expect(result.body).toEqual(VARIABLES_TOO_LARGE);
  });
});

describe("wrong methods answer 405 with an Allow header", () => {
  it.each([
    ["DELETE /library", () => import("@/app/api/v1/library/route").then((m) => m.DELETE), "GET, HEAD, POST"],
    ["POST /usage", () => import("@/app/api/v1/usage/route").then((m) => m.POST), "GET, HEAD"],
    [
      "PUT /templates/{id}/source",
      () => import("@/app/api/v1/templates/[id]/source/route").then((m) => m.PUT),
      "GET, HEAD",
    ],
    ["GET /templates/{id}/render", () => import("@/app/api/v1/templates/[id]/render/route").then((m) => m.GET), "POST"],
    ["PATCH /openapi.json", () => import("@/app/api/v1/openapi.json/route").then((m) => m.PATCH), "GET, HEAD"],
  ])("%s", async (_, load, allow) => {
    const handler = await load();
    const result = await call(handler, "/api/v1/x", { method: "DELETE" });
    expect(result.status).toBe(405);
    expect(result.headers.get("allow")).toBe(allow);
    expect(result.body).toEqual({
      error: "Method not allowed",
      code: "METHOD_NOT_ALLOWED",
      success: false,
      message: `Use ${allow}.`,
    });
  });
});

describe("a failure while handling a request", () => {
  afterEach(() => void vi.restoreAllMocks());

  // A body whose stream fails after its first bytes, as Next's does when the connection drops mid-upload.
  async function renderWithFailingBody(clientGone: boolean) {
    const user = await createUser("monthly");
    const { template_id } = await addToLibrary(user, "welcome");
    const connection = new AbortController();
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => controller.enqueue(new TextEncoder().encode('{"variables":')),
      pull: (controller) => {
        if (clientGone) connection.abort();
        controller.error(new Error("aborted"));
      },
    });
    const request = new NextRequest(new URL(`/api/v1/templates/${template_id}/render`, BASE), {
      method: "POST",
      headers: { ...auth(user), "content-type": "application/json" },
      body,
      duplex: "half",
      signal: connection.signal,
    } as ConstructorParameters<typeof NextRequest>[1]);
    const response = await postRender(request, { params: Promise.resolve({ id: template_id }) });
    return { status: response.status, requestId: response.headers.get("x-request-id"), body: await response.json() };
  }

  it("answers the generic 500 and logs the details as an error, with the request id", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const result = await renderWithFailingBody(false);
    expect(result.status).toBe(500);
    expect(result.body).toEqual({ error: "Internal server error", code: "INTERNAL_ERROR", success: false });
    expect(logged).toHaveBeenCalledTimes(1);
    expect(JSON.parse(String(logged.mock.calls[0]![0]))).toEqual({
      level: "error",
      requestId: result.requestId,
      message: "aborted",
      stack: expect.stringContaining("Error: aborted"),
    });
  });

  it("is logged as information, not as an error, when the client closed the connection", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const infos = vi.spyOn(console, "info").mockImplementation(() => {});
    const result = await renderWithFailingBody(true);
    expect(result.status).toBe(500);
    expect(errors).not.toHaveBeenCalled();
    expect(infos).toHaveBeenCalledTimes(1);
    expect(JSON.parse(String(infos.mock.calls[0]![0]))).toEqual({
      level: "info",
      requestId: result.requestId,
      message: "The client closed the connection before the request was handled (aborted)",
    });
  });
});
