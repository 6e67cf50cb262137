import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { GET as getOpenApi } from "@/app/api/v1/openapi.json/route";
import { POST as send } from "@/app/api/v1/send/route";
import { getDb } from "@/lib/db/client";
import { addSendingDomain } from "@/lib/sending-domains/data";
import { listOutbox } from "@/lib/sent-emails/data/outbox";
import { addToLibrary, auth, call, catalogueId, createUser, type TestUser } from "../support/api";

// POST /send input safety: addresses parsed in linear time under a length cap, and nothing header-bound carries a
// control character or an unquoted display name into the message.

const DOMAIN = `safety-${randomUUID().slice(0, 8)}.example`;
const CONTROLS = "must not contain control characters (U+0000 to U+001F, U+007F to U+009F)";
const validation = (details: { field: string; message: string }[]) => ({
  error: "Invalid request body",
  code: "VALIDATION_ERROR",
  success: false,
  details,
});

// A sending domain belongs to one account, so the file's sends share one sender; each test reads its newest message.
let sharedSender: Promise<TestUser & { welcomeId: string }> | undefined;
function sender(): Promise<TestUser & { welcomeId: string }> {
  sharedSender ??= (async () => {
    const user = await createUser("monthly");
    await addSendingDomain(user.accountId, { domain: DOMAIN, verified: true });
    await addToLibrary(user, "welcome");
    return { ...user, welcomeId: await catalogueId("welcome") };
  })();
  return sharedSender;
}

const post = (user: TestUser, body: unknown) =>
  call(send, "/api/v1/send", { method: "POST", headers: auth(user), body });

const message = (user: { welcomeId: string }, extra: Record<string, unknown> = {}) => ({
  template_id: user.welcomeId,
  to: "ann@example.com",
  subject: "Welcome aboard",
  ...extra,
});

const storedCount = async (user: TestUser) =>
  (
    await getDb()<
      { count: number }[]
    >`select count(*)::int as count from sent_emails where account_id = ${user.accountId}`
  )[0].count;

/** An address of exactly `length` characters. */
const addressOf = (length: number) => `${"a".repeat(length - "@example.com".length)}@example.com`;

describe("addresses: linear-time parsing under a 320-character cap", () => {
  it("answers a from of 5,000 spaces and a `<` with its 400 at once", async () => {
    const user = await sender();
    const started = performance.now();
    const result = await post(user, message(user, { from: `${" ".repeat(5000)}<` }));
    expect(result.status).toBe(400);
    expect(result.body).toEqual(validation([{ field: "from", message: "from is at most 320 characters" }]));
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it("refuses 318 spaces and a `<`, within the cap, as no mailbox", async () => {
    const user = await sender();
    const result = await post(user, message(user, { from: `${" ".repeat(318)}<` }));
    expect(result.body).toEqual(
      validation([{ field: "from", message: 'from must be "address@domain" or "Name <address@domain>"' }]),
    );
  });

  it("caps every address of to, cc, bcc and reply_to at 320 characters, naming each one", async () => {
    const user = await sender();
    const storedBefore = await storedCount(user);
    const long = addressOf(321);
    const result = await post(
      user,
      message(user, {
        to: ["a@example.com", "b@example.com", "c@example.com", long],
        cc: long,
        bcc: [long],
        reply_to: long,
      }),
    );
    const tooLong = "an address is at most 320 characters";
    expect(result.status).toBe(400);
    expect(result.body).toEqual(
      validation([
        { field: "to.3", message: tooLong },
        { field: "cc", message: tooLong },
        { field: "bcc.0", message: tooLong },
        { field: "reply_to", message: tooLong },
      ]),
    );
    expect(await storedCount(user)).toBe(storedBefore);
  });

  it("refuses an address of megabytes before zod's email pattern sees it", async () => {
    const user = await sender();
    const result = await post(user, message(user, { to: `${"a.".repeat(4_900_000)}@` }));
    expect(result.status).toBe(400);
    expect(result.body).toEqual(validation([{ field: "to", message: "an address is at most 320 characters" }]));
  });

  it("accepts addresses of exactly 320 characters", async () => {
    const user = await sender();
    const from = `${"h".repeat(320 - `@${DOMAIN}`.length)}@${DOMAIN}`;
    const result = await post(user, message(user, { from, to: addressOf(320) }));
    expect(result.status).toBe(200);
    expect(result.body.data).toMatchObject({ from, to: [addressOf(320)] });
  });
});

describe("header-bound fields refuse control characters", () => {
  it("lists every bad field once: subject, from's name, header value, filename, content_type and tags", async () => {
    const user = await sender();
    const storedBefore = await storedCount(user);
    const result = await post(
      user,
      message(user, {
        subject: "Hi\u2028Bcc: all@example.com",
        from: `Acme\u0001 <hello@${DOMAIN}>`,
        headers: { "X-Ref": "a\u000bb", "X-Ok": "tab\tallowed" },
        attachments: [
          { filename: "a.txt\r\nBcc: all@example.com", content: "aGk=", content_type: "text/plain\r\nX-Evil: 1" },
          { filename: "b.txt", content: "aGk=", content_type: "text plain" },
        ],
        tags: [{ name: "a\tb", value: "c\u0085" }],
      }),
    );
    expect(result.status).toBe(400);
    const mimeType = 'content_type must be a MIME type such as "text/csv" or "text/plain; charset=utf-8"';
    expect(result.body).toEqual(
      validation([
        { field: "subject", message: "subject must not contain line breaks" },
        { field: "from", message: `from ${CONTROLS}` },
        { field: "headers.X-Ref", message: "header values must not contain line breaks" },
        { field: "attachments.0.filename", message: "filename must not contain line breaks" },
        { field: "attachments.0.content_type", message: mimeType },
        { field: "attachments.1.content_type", message: mimeType },
        { field: "tags.0.name", message: `name ${CONTROLS}` },
        { field: "tags.0.value", message: "value must not contain line breaks" },
      ]),
    );
    expect(await storedCount(user)).toBe(storedBefore);
  });

  it.each([
    ["U+0001", "\u0001", CONTROLS],
    ["U+001F", "\u001f", CONTROLS],
    ["DEL", "\u007f", CONTROLS],
    ["U+0080", "\u0080", CONTROLS],
    ["U+009F", "\u009f", CONTROLS],
    ["a vertical tab", "\u000b", "must not contain line breaks"],
    ["a form feed", "\u000c", "must not contain line breaks"],
    ["NEL (U+0085)", "\u0085", "must not contain line breaks"],
    ["U+2028", "\u2028", "must not contain line breaks"],
    ["U+2029", "\u2029", "must not contain line breaks"],
  ])("refuses %s in the subject, a header value, a filename and a tag", async (_name, character, problem) => {
    const user = await sender();
    const result = await post(
      user,
      message(user, {
        subject: `Hi${character}`,
        headers: { "X-Ref": `a${character}` },
        attachments: [{ filename: `a${character}.txt`, content: "aGk=" }],
        tags: [{ name: "n", value: `v${character}` }],
      }),
    );
    expect(result.body).toEqual(
      validation([
        { field: "subject", message: `subject ${problem}` },
        { field: "headers.X-Ref", message: `header values ${problem}` },
        { field: "attachments.0.filename", message: `filename ${problem}` },
        { field: "tags.0.value", message: `value ${problem}` },
      ]),
    );
  });

  it("lets a tab through where a header may fold (subject, header values), and well-formed MIME types", async () => {
    const user = await sender();
    const result = await post(
      user,
      message(user, {
        subject: "Hi\tthere",
        headers: { "X-Ref": "a\tb" },
        attachments: [
          { filename: "a.txt", content: "aGk=", content_type: 'text/plain; charset="utf-8"' },
          {
            filename: "b.xlsx",
            content: "aGk=",
            content_type: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
          },
        ],
      }),
    );
    expect(result.status).toBe(200);
    const [stored] = await listOutbox(user.accountId);
    expect(stored).toMatchObject({ subject: "Hi\tthere", headers: { "X-Ref": "a\tb" } });
  });
});

describe("from's display name is sent as one well-formed mailbox", () => {
  it.each([
    [
      "with specials, unquoted",
      `Acme, Inc.: Sales; Team <hello@${DOMAIN}>`,
      `"Acme, Inc.: Sales; Team" <hello@${DOMAIN}>`,
    ],
    [
      "quoted, with escapes",
      `"Ann \\"The Boss\\" O\\\\Brien" <hello@${DOMAIN}>`,
      `"Ann \\"The Boss\\" O\\\\Brien" <hello@${DOMAIN}>`,
    ],
    [
      "quoted, holding @ < >",
      `"billing@bank.example <x>" <hello@${DOMAIN}>`,
      `"billing@bank.example <x>" <hello@${DOMAIN}>`,
    ],
    ["quoted without need", `  "Acme"   <hello@${DOMAIN}> `, `Acme <hello@${DOMAIN}>`],
    ["plain", `Acme Team <hello@${DOMAIN}>`, `Acme Team <hello@${DOMAIN}>`],
    ["empty", `<hello@${DOMAIN}>`, `hello@${DOMAIN}`],
  ])("%s", async (_name, from, sent) => {
    const user = await sender();
    const result = await post(user, message(user, { from }));
    expect(result.status).toBe(200);
    expect(result.body.data.from).toBe(sent);
    expect((await listOutbox(user.accountId))[0].from).toBe(sent);
  });

  it.each([
    ["an unterminated quote", `"Acme <hello@${DOMAIN}>`],
    ["a quote in an unquoted name", `Acme "Mail" <hello@${DOMAIN}>`],
    ["text after the address", `Acme <hello@${DOMAIN}> Bcc`],
    ["two addresses", `a@${DOMAIN}, b@${DOMAIN}`],
  ])("refuses %s", async (_name, from) => {
    const user = await sender();
    const result = await post(user, message(user, { from }));
    expect(result.body).toEqual(
      validation([{ field: "from", message: 'from must be "address@domain" or "Name <address@domain>"' }]),
    );
  });
});

describe("validation: bounded work and a bounded answer", () => {
  it("lists at most 100 problems, then says that more were found", async () => {
    const user = await sender();
    const storedBefore = await storedCount(user);
    // 2 + 2 × 50 = 102 problems.
    const result = await post(
      user,
      message(user, { to: "nope", subject: "", tags: Array.from({ length: 50 }, () => ({})) }),
    );
    expect(result.status).toBe(400);
    expect(result.body).toEqual(
      validation([
        { field: "to", message: "must be a valid email address" },
        { field: "subject", message: "subject must be 1 to 998 characters" },
        ...Array.from({ length: 49 }, (_, i) => [
          { field: `tags.${i}.name`, message: "name is required" },
          { field: `tags.${i}.value`, message: "value is required" },
        ]).flat(),
        { field: "body", message: "more problems were found than the 100 listed" },
      ]),
    );
    expect(await storedCount(user)).toBe(storedBefore);
  });

  it("answers 100,000 tags with one small 400 at once, without reading them", async () => {
    const user = await sender();
    const storedBefore = await storedCount(user);
    const started = performance.now();
    // With the rest of the body, just within the 100,000 JSON values a body may hold.
    const tags = `[${"{},".repeat(99_989)}{}]`;
    const result = await post(
      user,
      `{"template_id":"${user.welcomeId}","to":"ann@example.com","subject":"Hi","tags":${tags}}`,
    );
    expect(result.status).toBe(400);
    expect(result.body).toEqual(validation([{ field: "tags", message: "tags must list at most 50 tags" }]));
    expect(performance.now() - started).toBeLessThan(2000);
    expect(await storedCount(user)).toBe(storedBefore);
  });

  it("answers 19,990 headers with one small 400 at once, without reading them", async () => {
    const user = await sender();
    const storedBefore = await storedCount(user);
    // With the body's own keys, just within the 20,000 object keys a body may hold.
    const headers = `{${Array.from({ length: 19_990 }, (_, i) => `"X ${i}":1`).join(",")}}`;
    const started = performance.now();
    const result = await post(
      user,
      `{"template_id":"${user.welcomeId}","to":"ann@example.com","subject":"Hi","headers":${headers}}`,
    );
    expect(result.status).toBe(400);
    expect(result.body).toEqual(validation([{ field: "headers", message: "headers must hold at most 50 headers" }]));
    expect(performance.now() - started).toBeLessThan(2000);
    expect(await storedCount(user)).toBe(storedBefore);
  });

  it("answers 200,000 NUL characters nested 30 arrays deep with a bounded 400 at once", async () => {
    const user = await sender();
    const storedBefore = await storedCount(user);
    // 32 levels with the body and variables, and just within the 100,000 JSON values a body may hold.
    const deep = `${"[".repeat(29)}[${'"\\u0000\\u0000",'.repeat(99_899)}"\\u0000\\u0000"]${"]".repeat(29)}`;
    const started = performance.now();
    const result = await post(
      user,
      `{"template_id":"${user.welcomeId}","to":"ann@example.com","subject":"Hi","variables":{"deep":${deep}}}`,
    );
    expect(result.status).toBe(400);
    const field = (i: number) => ["variables", "deep", ...Array(29).fill("0"), i].join(".");
    expect(result.body).toEqual(
      validation([
        { field: "variables", message: "variables must be at most 1 MB (1,048,576 bytes) as JSON" },
        ...Array.from({ length: 99 }, (_, i) => ({
          field: field(i),
          message: `${field(i)} must not contain the NUL character (\\u0000)`,
        })),
        { field: "body", message: "more problems were found than the 100 listed" },
      ]),
    );
    expect(performance.now() - started).toBeLessThan(2000);
    expect(await storedCount(user)).toBe(storedBefore);
  });

  it("refuses each list longer than its maximum with one entry, not one per item", async () => {
    const user = await sender();
    const storedBefore = await storedCount(user);
    const bad = (item: unknown) => Array.from({ length: 51 }, () => item);
    const result = await post(
      user,
      message(user, {
        to: bad("nope"),
        cc: bad("nope"),
        bcc: bad(7),
        reply_to: bad("nope"),
        headers: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`Bad Name ${i}`, 7])),
        attachments: bad({}),
        tags: bad({ name: "" }),
      }),
    );
    expect(result.status).toBe(400);
    expect(result.body).toEqual(
      validation([
        { field: "to", message: "must list at most 50 addresses" },
        { field: "cc", message: "must list at most 50 addresses" },
        { field: "bcc", message: "must list at most 50 addresses" },
        { field: "reply_to", message: "must list at most 50 addresses" },
        { field: "headers", message: "headers must hold at most 50 headers" },
        { field: "attachments", message: "attachments must list at most 50 files" },
        { field: "tags", message: "tags must list at most 50 tags" },
      ]),
    );
    expect(await storedCount(user)).toBe(storedBefore);
  });
});

describe("the OpenAPI document", () => {
  it("states a maximum length for every string of the send request", async () => {
    const document = (await call(getOpenApi, "/api/v1/openapi.json")).body;
    const unbounded: string[] = [];
    const walk = (schema: unknown, path: string) => {
      if (schema === null || typeof schema !== "object") return;
      const node = schema as Record<string, unknown>;
      if (node.type === "string" && typeof node.maxLength !== "number") unbounded.push(path);
      for (const [key, child] of Object.entries(node)) walk(child, `${path}/${key}`);
    };
    // `variables` is bounded as a whole (1 MB of JSON), by its own change.
    const { variables: _variables, ...fields } = document.components.schemas.SendRequest.properties;
    walk(fields, "SendRequest/properties");
    expect(unbounded).toEqual([]);
    const properties = document.components.schemas.SendRequest.properties;
    expect(properties.from.maxLength).toBe(320);
    expect(properties.to.anyOf[0].maxLength).toBe(320);
    expect(properties.to.anyOf[1].items.maxLength).toBe(320);
  });

  it("states a maximum number of items for every array of the send request", async () => {
    const document = (await call(getOpenApi, "/api/v1/openapi.json")).body;
    const unbounded: string[] = [];
    const walk = (schema: unknown, path: string) => {
      if (schema === null || typeof schema !== "object") return;
      const node = schema as Record<string, unknown>;
      if (node.type === "array" && typeof node.maxItems !== "number") unbounded.push(path);
      for (const [key, child] of Object.entries(node)) walk(child, `${path}/${key}`);
    };
    walk(document.components.schemas.SendRequest, "SendRequest");
    expect(unbounded).toEqual([]);
  });
});
