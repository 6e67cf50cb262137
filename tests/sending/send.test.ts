import { randomUUID } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { GET as dispatchCron, PUT as cronPut } from "@/app/api/cron/dispatch-scheduled/route";
import { GET as sendGet, OPTIONS as sendOptions, POST as send } from "@/app/api/v1/send/route";
import { getDb } from "@/lib/db/client";
import { addSendingDomain } from "@/lib/sending-domains/data";
import { listOutbox } from "@/lib/sent-emails/data/outbox";
import { billingPeriod, type PlanName } from "@/lib/core/plans";
import { sendRequestSchema, sendResponseSchema } from "@/lib/sending/schemas";
import { hashRequest } from "@/lib/sending/idempotency";
import {
  addToLibrary,
  auth,
  call,
  catalogueId,
  counter,
  createUser,
  nextInstant,
  setEmailsUsed,
  type TestUser,
  uniqueDomain,
} from "../support/api";
import { envForEachTest } from "../support/env";

// How long a send waits on an identical one in flight: as shipped, unless a test shortens it.
const idempotencyWait = vi.hoisted(() => ({ ms: null as number | null }));
vi.mock("@/lib/core/limits", async (importOriginal) => {
  const limits = await importOriginal<typeof import("@/lib/core/limits")>();
  return {
    ...limits,
    get IDEMPOTENCY_WAIT_MS() {
      return idempotencyWait.ms ?? limits.IDEMPOTENCY_WAIT_MS;
    },
  };
});

/** A domain belongs to one account, and the tests' accounts share one database: each gets its own. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A user who can send: a verified domain of its own (default sender hello@domain) and `welcome` in the library. */
async function sender(plan: PlanName = "free"): Promise<TestUser & { welcomeId: string; domain: string }> {
  const user = await createUser(plan);
  const domain = uniqueDomain();
  await addSendingDomain(user.accountId, { domain, verified: true });
  await addToLibrary(user, "welcome");
  return { ...user, welcomeId: await catalogueId("welcome"), domain };
}

const post = (user: TestUser, body: unknown, headers: Record<string, string> = {}) =>
  call(send, "/api/v1/send", { method: "POST", headers: { ...auth(user), ...headers }, body });

const message = (user: { welcomeId: string }, extra: Record<string, unknown> = {}) => ({
  template_id: user.welcomeId,
  to: "ann@example.com",
  subject: "Welcome aboard",
  ...extra,
});

/** As if an identical request had claimed `key` and were still running. */
async function holdKeyInFlight(user: TestUser, key: string, body: unknown): Promise<void> {
  await getDb()`
    insert into idempotency_keys (account_id, scope, key, request_hash, token, status)
    values (${user.accountId}, 'send', ${key}, ${hashRequest(body)}, ${randomUUID()}, 'in_flight')`;
}

async function rows(user: TestUser) {
  return getDb()<
    {
      id: string;
      status: string;
      provider: string;
      html: string;
      text_body: string | null;
      is_overage: boolean;
      sent_at: Date | null;
      scheduled_at: Date | null;
    }[]
  >`
    select * from sent_emails where account_id = ${user.accountId} order by created_at, id`;
}

describe("POST /api/v1/send through the embedded outbox", () => {
  it("answers with the sent record and the email usage, and keeps the complete message", async () => {
    const user = await sender();
    const result = await post(
      user,
      message(user, {
        from: `Acme Team <hello@${user.domain}>`,
        cc: ["cc@example.com"],
        variables: { userName: "Ann" },
      }),
    );

    expect(result.status).toBe(200);
    expect(result.body).toEqual({
      success: true,
      data: {
        id: expect.stringMatching(UUID),
        from: `Acme Team <hello@${user.domain}>`,
        to: ["ann@example.com"],
        subject: "Welcome aboard",
        locale: "en",
        sent_at: expect.stringMatching(ISO),
      },
      meta: {
        email_usage: {
          monthly_limit: 100,
          current_usage: 1,
          remaining: 99,
          plan_type: "free",
          is_overage: false,
          overage_emails: 0,
          billing_usage_reported: false,
        },
      },
    });
    expect(Object.keys(result.body.data)).toEqual(["id", "from", "to", "subject", "locale", "sent_at"]);
    expect(sendResponseSchema.parse(result.body)).toEqual(result.body);
    expect(Math.abs(Date.parse(result.body.data.sent_at) - Date.now())).toBeLessThan(60_000);
    expect(result.headers.get("x-request-id")).toMatch(UUID);
    expect(result.headers.get("x-ratelimit-limit")).toBe("500");
    expect(result.headers.get("x-ratelimit-remaining")).toBe("499");
    expect(result.headers.get("idempotent-replayed")).toBeNull();

    const [row] = await getDb()`select * from sent_emails where account_id = ${user.accountId}`;
    expect(row).toMatchObject({
      id: result.body.data.id,
      template_id: user.welcomeId,
      status: "sent",
      provider: "outbox",
      provider_message_id: null,
      from_address: `Acme Team <hello@${user.domain}>`,
      to_addresses: ["ann@example.com"],
      cc_addresses: ["cc@example.com"],
      bcc_addresses: [],
      reply_to: [],
      subject: "Welcome aboard",
      headers: {},
      attachments: [],
      tags: [],
      scheduled_at: null,
      error: null,
      is_overage: false,
    });
    expect(row.sent_at).toBeInstanceOf(Date);
    expect(row.html).toMatch(/^<!DOCTYPE html/);
    expect(row.html).toContain("Ann");
    expect(row.text_body).toContain("WELCOME TO ACME, ANN!");
    expect(row.text_body).not.toContain("<");

    // The API call and the email are counted separately.
    expect(await counter(user, "emails")).toBe(1);
    expect(await counter(user, "api_calls")).toBe(1);
  });

  it("keeps text that looks like SQL quoting byte for byte, SQL comments and dollar quotes included", async () => {
    const user = await sender();
    const tricky = "It's $$ $lp$ $lp_0123456789abcdef$ $tag$ \\' \\\\ ''); drop table sent_emails; -- ü 😀";
    const endsInTagStart = "A subject that ends in $lp";
    const result = await post(
      user,
      message(user, {
        subject: endsInTagStart,
        text: tricky,
        headers: { "X-Note": tricky },
        reply_to: ["a'b@example.com"],
        variables: { userName: tricky },
      }),
    );
    expect(result.status).toBe(200);
    const [row] = await getDb()`select * from sent_emails where account_id = ${user.accountId}`;
    expect(row).toMatchObject({
      subject: endsInTagStart,
      text_body: tricky,
      headers: { "X-Note": tricky },
      reply_to: ["a'b@example.com"],
    });
    expect(row.html).toContain("It&#x27;s $$ $lp$ $lp_0123456789abcdef$ $tag$");
  });

  it("refuses NUL characters anywhere in the request with a 400 naming each field, and records nothing", async () => {
    const user = await sender();
    const result = await post(
      user,
      message(user, {
        subject: "a\u0000b",
        variables: { userName: "x\u0000" },
        tags: [{ name: "t", value: "\u0000" }],
      }),
    );
    expect(result.status).toBe(400);
    expect(result.body).toEqual({
      error: "Invalid request body",
      code: "VALIDATION_ERROR",
      success: false,
      details: [
        { field: "subject", message: "subject must not contain the NUL character (\\u0000)" },
        { field: "variables.userName", message: "variables.userName must not contain the NUL character (\\u0000)" },
        { field: "tags.0.value", message: "tags.0.value must not contain the NUL character (\\u0000)" },
      ],
    });
    expect(await rows(user)).toEqual([]);
    expect(await counter(user, "emails")).toBe(0);
  });

  it("stores the rendered HTML with the variables in it, HTML-escaped, and the request's own text", async () => {
    const user = await sender();
    const hostile = `<script>alert("x")</script> & 'co'`;
    const result = await post(
      user,
      message(user, { variables: { userName: hostile, productName: "Letterpress" }, text: "Plain words." }),
    );
    expect(result.status).toBe(200);
    const [row] = await rows(user);
    expect(row.html).toContain("Welcome to Letterpress, ");
    expect(row.html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#x27;co&#x27;");
    expect(row.html).not.toContain("<script>");
    expect(row.text_body).toBe("Plain words.");

    const [listed] = await listOutbox(user.accountId);
    expect(listed).toMatchObject({
      id: row.id,
      status: "sent",
      provider: "outbox",
      from: `hello@${user.domain}`,
      to: ["ann@example.com"],
      text: "Plain words.",
    });
    expect(listed.html).toBe(row.html);
  });

  it("keeps attachments, headers, tags and every address list; the outbox lists attachment metadata only", async () => {
    const user = await sender();
    const body = message(user, {
      to: ["a@example.com", "b@example.com"],
      cc: "c@example.com",
      bcc: ["d@example.com"],
      reply_to: "support@acme.example",
      headers: { "X-Campaign": "spring" },
      tags: [{ name: "category", value: "welcome" }],
      attachments: [
        { filename: "hello.txt", content: Buffer.from("hello world").toString("base64"), content_type: "text/plain" },
        { filename: "terms.pdf", path: "https://cdn.example.com/terms.pdf" },
      ],
    });
    const result = await post(user, body);
    expect(result.status).toBe(200);
    expect(result.body.data.to).toEqual(["a@example.com", "b@example.com"]);
    const [row] = await getDb()`select * from sent_emails where id = ${result.body.data.id}`;
    expect(row).toMatchObject({
      to_addresses: ["a@example.com", "b@example.com"],
      cc_addresses: ["c@example.com"],
      bcc_addresses: ["d@example.com"],
      reply_to: ["support@acme.example"],
      headers: { "X-Campaign": "spring" },
      tags: [{ name: "category", value: "welcome" }],
      attachments: [
        { filename: "hello.txt", content: "aGVsbG8gd29ybGQ=", content_type: "text/plain", size: 11 },
        { filename: "terms.pdf", path: "https://cdn.example.com/terms.pdf" },
      ],
    });
    const [listed] = await listOutbox(user.accountId);
    expect(listed.attachments).toEqual([
      { filename: "hello.txt", content_type: "text/plain", size: 11 },
      { filename: "terms.pdf", path: "https://cdn.example.com/terms.pdf" },
    ]);
  });

  it("answers 404 with the contract's message for a template not in the library, and counts nothing", async () => {
    const user = await sender();
    const other = await sender();
    const [own] = await getDb()<{ id: string }[]>`
      insert into templates (owner_account_id, name, code) values (${other.accountId}, 'Private', 'export default () => null') returning id`;
    await getDb()`insert into library_entries (account_id, template_id, added_via) values (${other.accountId}, ${own.id}, 'created')`;

    for (const templateId of [await catalogueId("receipt"), await catalogueId("magic-link"), own.id, randomUUID()]) {
      const result = await post(user, message(user, { template_id: templateId }));
      expect(result.status).toBe(404);
      expect(result.body).toEqual({
        error: "Template not found",
        code: "TEMPLATE_NOT_FOUND",
        success: false,
        message: "This template is not in your library. Add or purchase it first.",
      });
    }
    expect(await rows(user)).toEqual([]);
    expect(await counter(user, "emails")).toBe(0);
  });

  it("suggests the name a template_id was a slip of: a catalogue slug or one of the account's aliases, no other's", async () => {
    const user = await sender();
    const other = await sender();
    await getDb()`
      insert into templates (owner_account_id, name, code, alias)
      values (${user.accountId}, 'Invoice', 'export default () => null', 'invoice-2026'),
             (${other.accountId}, 'Secret', 'export default () => null', 'secret-plans')`;
    const notInLibrary = "This template is not in your library. Add or purchase it first.";
    const answers: Record<string, string> = {};
    for (const templateId of ["welcom", "welcmoe", "invoce-2026", "secret-plan", "receipt", "something-else"]) {
      const result = await post(user, message(user, { template_id: templateId }));
      expect([result.status, result.body.error, result.body.code]).toEqual([
        404,
        "Template not found",
        "TEMPLATE_NOT_FOUND",
      ]);
      answers[templateId] = result.body.message;
    }
    expect(answers).toEqual({
      welcom: `${notInLibrary} Did you mean welcome?`,
      welcmoe: `${notInLibrary} Did you mean welcome?`,
      "invoce-2026": `${notInLibrary} Did you mean invoice-2026?`,
      // Another account's alias is not suggested; a catalogue slug typed exactly is not "meant" as itself.
      "secret-plan": notInLibrary,
      receipt: notInLibrary,
      "something-else": notInLibrary,
    });
    expect(await counter(user, "emails")).toBe(0);
  });

  it("answers a small body with Content-Length, a chunked one and a large one alike, each with the template it names", async () => {
    const user = await sender();
    await addToLibrary(user, "receipt");
    const receiptId = await catalogueId("receipt");
    // Over 64 KB of attachment.
    const large = { attachments: [{ filename: "big.txt", content: Buffer.alloc(60 * 1024, "a").toString("base64") }] };
    const ways = [
      { name: "small", body: message(user), chunked: false },
      { name: "chunked", body: message(user), chunked: true },
      { name: "large", body: message(user, large), chunked: false },
    ];
    for (const way of ways) {
      const sent = await call(send, "/api/v1/send", {
        method: "POST",
        headers: auth(user),
        body: way.body,
        chunked: way.chunked,
      });
      expect([way.name, sent.status, sent.body.data.from]).toEqual([way.name, 200, `hello@${user.domain}`]);
      await nextInstant();
      // The template named in this body, not one read for another: receipt is in the library, magic-link is not.
      const receiptBody = {
        ...way.body,
        template_id: receiptId,
        variables: { orderId: "A-1", items: [{ name: "Mug", quantity: 1, unitPrice: 9 }] },
      };
      const receipt = await call(send, "/api/v1/send", {
        method: "POST",
        headers: auth(user),
        body: receiptBody,
        chunked: way.chunked,
      });
      expect([way.name, receipt.status]).toEqual([way.name, 200]);
      await nextInstant();
      const missing = await call(send, "/api/v1/send", {
        method: "POST",
        headers: auth(user),
        body: { ...way.body, template_id: await catalogueId("magic-link") },
        chunked: way.chunked,
      });
      expect([way.name, missing.status, missing.body.code]).toEqual([way.name, 404, "TEMPLATE_NOT_FOUND"]);
    }
    const stored = await getDb()<{ template_id: string; html: string }[]>`
      select template_id, html from sent_emails where account_id = ${user.accountId} order by created_at, id`;
    const kinds = stored.map((row) => [
      row.template_id === receiptId ? "receipt" : row.template_id === user.welcomeId ? "welcome" : "other",
      row.html.includes("Thanks for your order!"),
    ]);
    expect(kinds).toEqual(
      ways.flatMap(() => [
        ["welcome", false],
        ["receipt", true],
      ]),
    );
  });

  it("answers 400 for a template's missing variable before counting or recording anything", async () => {
    const user = await sender();
    await addToLibrary(user, "magic-link");
    const result = await post(user, message(user, { template_id: await catalogueId("magic-link") }));
    expect(result.status).toBe(400);
    expect(result.body).toEqual({
      error: "Invalid request body",
      code: "VALIDATION_ERROR",
      success: false,
      details: [{ field: "variables.loginUrl", message: expect.any(String) }],
    });
    expect(await counter(user, "emails")).toBe(0);
    expect(await rows(user)).toEqual([]);
  });

  it("refuses other methods with 405 and an Allow header", async () => {
    const result = await call(sendGet, "/api/v1/send");
    expect(result.status).toBe(405);
    expect(result.headers.get("allow")).toBe("POST");
    expect(result.body).toEqual({
      error: "Method not allowed",
      code: "METHOD_NOT_ALLOWED",
      success: false,
      message: "Use POST.",
    });
  });

  it("answers OPTIONS with the methods it serves", async () => {
    const result = await call(sendOptions, "/api/v1/send", { method: "OPTIONS" });
    expect(result.status).toBe(204);
    expect(result.headers.get("allow")).toBe("POST, OPTIONS");
    expect(result.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("requires credentials", async () => {
    const result = await call(send, "/api/v1/send", { method: "POST", body: { to: "a@example.com" } });
    expect(result.status).toBe(401);
    expect(result.body).toEqual({
      error: "Authentication required",
      code: "UNAUTHORIZED",
      success: false,
      message: "No credentials: send your API key as Authorization: Bearer <key> (or X-API-Key: <key>).",
    });
  });
});

/** `[[[…]]]`, `levels` arrays deep. */
function nested(levels: number): unknown {
  let value: unknown = [];
  for (let i = 1; i < levels; i++) value = [value];
  return value;
}

describe("validation: every problem is one details entry with a dotted path", () => {
  const in31Days = () => new Date(Date.now() + 31 * 24 * 3600 * 1000).toISOString();
  const inAnHour = () => new Date(Date.now() + 3600 * 1000).toISOString();
  const fifty = Array.from({ length: 25 }, (_, i) => `r${i}@example.com`);

  const cases: [string, (body: Record<string, unknown>) => unknown, string[]][] = [
    // subject may come from the template's messages: it is required once the template is known to have none
    // (tests/templates/localized.test.ts).
    ["an empty body", () => ({}), ["template_id", "to"]],
    ["template_id that is neither a uuid nor an alias", (b) => ({ ...b, template_id: "Welcome!" }), ["template_id"]],
    ["to that is not an address", (b) => ({ ...b, to: "not-an-address" }), ["to"]],
    ["to with one bad address", (b) => ({ ...b, to: ["ok@example.com", "nope"] }), ["to.1"]],
    ["to as an empty list", (b) => ({ ...b, to: [] }), ["to"]],
    ["to as a number", (b) => ({ ...b, to: 42 }), ["to"]],
    ["cc with a bad address", (b) => ({ ...b, cc: "bad" }), ["cc"]],
    ["bcc with a bad address", (b) => ({ ...b, bcc: ["x@example.com", "y"] }), ["bcc.1"]],
    ["reply_to with a bad address", (b) => ({ ...b, reply_to: "@example.com" }), ["reply_to"]],
    ["51 recipients across to, cc and bcc", (b) => ({ ...b, to: fifty, cc: fifty, bcc: "one@example.com" }), ["to"]],
    ["an empty subject", (b) => ({ ...b, subject: "" }), ["subject"]],
    ["a 999-character subject", (b) => ({ ...b, subject: "s".repeat(999) }), ["subject"]],
    ["a subject that is not a string", (b) => ({ ...b, subject: ["x"] }), ["subject"]],
    ["from that is not an address", (b) => ({ ...b, from: "Acme <not-an-address>" }), ["from"]],
    ["from that is not a string", (b) => ({ ...b, from: 7 }), ["from"]],
    ["variables as a string", (b) => ({ ...b, variables: "userName=Ann" }), ["variables"]],
    ["variables as an array", (b) => ({ ...b, variables: ["Ann"] }), ["variables"]],
    ["variables as null", (b) => ({ ...b, variables: null }), ["variables"]],
    ["variables as a number", (b) => ({ ...b, variables: 1 }), ["variables"]],
    ["text that is not a string", (b) => ({ ...b, text: { a: 1 } }), ["text"]],
    ["headers that are not an object", (b) => ({ ...b, headers: "X-A: 1" }), ["headers"]],
    ["a header value that is not a string", (b) => ({ ...b, headers: { "X-Count": 3 } }), ["headers.X-Count"]],
    [
      "a header value with a line break",
      (b) => ({ ...b, headers: { "X-A": "a\r\nBcc: all@example.com" } }),
      ["headers.X-A"],
    ],
    ["a header name with a space", (b) => ({ ...b, headers: { "X A": "a" } }), ["headers.X A"]],
    ["attachments that are not a list", (b) => ({ ...b, attachments: { filename: "a" } }), ["attachments"]],
    [
      "an attachment path on the server",
      (b) => ({ ...b, attachments: [{ filename: "p", path: "/etc/passwd" }] }),
      ["attachments.0.path"],
    ],
    [
      "an attachment file:// URL",
      (b) => ({ ...b, attachments: [{ filename: "p", path: "file:///etc/passwd" }] }),
      ["attachments.0.path"],
    ],
    [
      "an attachment http:// URL",
      (b) => ({ ...b, attachments: [{ filename: "p", path: "http://example.com/a.pdf" }] }),
      ["attachments.0.path"],
    ],
    [
      "an attachment relative path",
      (b) => ({ ...b, attachments: [{ filename: "p", path: "../../.env" }] }),
      ["attachments.0.path"],
    ],
    [
      "an attachment with neither content nor path",
      (b) => ({ ...b, attachments: [{ filename: "a.txt" }] }),
      ["attachments.0.content"],
    ],
    [
      "an attachment with both content and path",
      (b) => ({ ...b, attachments: [{ filename: "a", content: "aGk=", path: "https://x.example/a" }] }),
      ["attachments.0.content"],
    ],
    [
      "attachment content that is not Base64",
      (b) => ({ ...b, attachments: [{ filename: "a", content: "not base64!" }] }),
      ["attachments.0.content"],
    ],
    [
      "an attachment without a filename",
      (b) => ({ ...b, attachments: [{ content: "aGk=" }] }),
      ["attachments.0.filename"],
    ],
    ["tags that are not a list", (b) => ({ ...b, tags: "a=b" }), ["tags"]],
    ["a tag with an empty name", (b) => ({ ...b, tags: [{ name: "", value: "v" }] }), ["tags.0.name"]],
    [
      "a tag value over 256 characters",
      (b) => ({ ...b, tags: [{ name: "n", value: "v".repeat(257) }] }),
      ["tags.0.value"],
    ],
    [
      "a tag without name and value",
      (b) => ({ ...b, tags: [{ name: "ok", value: "ok" }, {}] }),
      ["tags.1.name", "tags.1.value"],
    ],
    ["scheduled_at that is not a date", (b) => ({ ...b, scheduled_at: "tomorrow" }), ["scheduled_at"]],
    [
      "scheduled_at without a time zone",
      (b) => ({ ...b, scheduled_at: inAnHour().replace("Z", "") }),
      ["scheduled_at"],
    ],
    ["scheduled_at in the past", (b) => ({ ...b, scheduled_at: "2020-01-01T00:00:00Z" }), ["scheduled_at"]],
    ["scheduled_at more than 30 days ahead", (b) => ({ ...b, scheduled_at: in31Days() }), ["scheduled_at"]],
    [
      "several problems at once",
      (b) => ({ ...b, to: "x", subject: "", tags: [{ name: "", value: "v" }] }),
      ["to", "subject", "tags.0.name"],
    ],
    ["a subject with a line break", (b) => ({ ...b, subject: "Hi\r\nBcc: all@example.com" }), ["subject"]],
    [
      "from with a line break in its name",
      (b) => ({ ...b, from: "Acme\nBcc: all@example.com <hello@example.com>" }),
      ["from"],
    ],
    [
      "several bad headers: each one is listed",
      (b) => ({ ...b, headers: { "X-Count": 5, "Bad Name": "v", "X-B": "a\r\nBcc: all@example.com" } }),
      ["headers.X-Count", "headers.Bad Name", "headers.X-B"],
    ],
    [
      "headers that would set the sender or add recipients",
      (b) => ({ ...b, headers: { From: "ceo@bank.test", bcc: "all@example.com", "X-Ok": "1" } }),
      ["headers.From", "headers.bcc"],
    ],
    [
      "a tag name with an unpaired surrogate",
      (b) => ({ ...b, tags: [{ name: "n\ud800", value: "v" }] }),
      ["tags.0.name"],
    ],
    ["a header value with an unpaired surrogate", (b) => ({ ...b, headers: { "X-U": "a\udc00" } }), ["headers.X-U"]],
    [
      "an attachment filename with an unpaired surrogate",
      (b) => ({ ...b, attachments: [{ filename: "\udc00.txt", content: "aGk=" }] }),
      ["attachments.0.filename"],
    ],
    ["a subject with an unpaired surrogate", (b) => ({ ...b, subject: "Hi \ud83d" }), ["subject"]],
    [
      "variables nested 2,000 levels deep",
      (b) => ({ ...b, variables: { deep: nested(2000) } }),
      [["variables", "deep", ...Array(30).fill("0")].join(".")],
    ],
    ["a JSON array body", () => "[]", ["body"]],
    ["malformed JSON", () => '{"to": ', ["body"]],
  ];

  it.each(cases)("%s", async (_name, mutate, fields) => {
    const user = await sender();
    const payload = mutate(message(user));
    const result = await post(user, payload);
    expect(result.status).toBe(400);
    expect(result.body).toEqual({
      error: "Invalid request body",
      code: "VALIDATION_ERROR",
      success: false,
      details: fields.map((field) => ({ field, message: expect.any(String) })),
    });
    for (const detail of result.body.details) expect(detail.message.length).toBeGreaterThan(3);
    expect(await counter(user, "emails")).toBe(0);
    expect(await rows(user)).toEqual([]);
  });

  it("words line breaks, unpaired surrogates and deep nesting plainly", async () => {
    const user = await sender();
    const lineBreaks = await post(
      user,
      message(user, { subject: "Hi\nBcc: all@example.com", from: "A\r\nB <hello@example.com>" }),
    );
    expect(lineBreaks.body.details).toEqual([
      { field: "subject", message: "subject must not contain line breaks" },
      { field: "from", message: "from must not contain line breaks" },
    ]);
    const reserved = await post(user, message(user, { headers: { "Reply-To": "x@example.com" } }));
    expect(reserved.body.details).toEqual([
      {
        field: "headers.Reply-To",
        message: "Reply-To cannot be set in headers: use the from, to, cc, bcc, reply_to and subject fields",
      },
    ]);
    const surrogate = await post(user, message(user, { tags: [{ name: "n", value: "\ud800" }] }));
    expect(surrogate.body.details).toEqual([
      { field: "tags.0.value", message: "must be valid Unicode text: it holds an unpaired surrogate" },
    ]);
    const deep = await post(user, message(user, { variables: { deep: nested(33) } }));
    expect(deep.body.details).toEqual([
      { field: ["variables", "deep", ...Array(30).fill("0")].join("."), message: "nests deeper than 32 levels" },
    ]);
    // 32 levels in all is accepted.
    const deepest = await post(user, message(user, { variables: { deep: nested(30) } }));
    expect(deepest.status).toBe(200);
    // With an Idempotency-Key the body is hashed by walking it: a deep body is still a 400, not a 500.
    const keyedBody = JSON.stringify(message(user, { variables: { deep: "DEEP" } })).replace(
      '"DEEP"',
      `${"[".repeat(5000)}${"]".repeat(5000)}`,
    );
    const keyed = await post(user, keyedBody, { "idempotency-key": "deep-1" });
    expect(keyed.status).toBe(400);
    expect(await counter(user, "emails")).toBe(1);
  });

  it("refuses the headers the provider or the mail servers set, in any case, each under headers.<Name>", async () => {
    const user = await sender();
    const owned = {
      "DKIM-Signature": "v=1; a=rsa-sha256; d=bank.test; s=s1; b=AAAA",
      "arc-seal": "i=1; a=rsa-sha256; d=bank.test",
      "ARC-Authentication-Results": "i=1; mx.bank.test; dkim=pass",
      Received: "from mx.bank.test by mail.example.com",
      "Return-Path": "<ceo@bank.test>",
      "Resent-From": "ceo@bank.test",
      "RESENT-TO": "all@example.com",
      "Delivered-To": "ann@example.com",
      "Authentication-Results": "mx.example.com; spf=pass; dkim=pass",
      "Received-SPF": "pass",
      "X-Original-To": "ann@example.com",
      "Message-ID": "<1@bank.test>",
      "Content-Disposition": "attachment",
      "content-id": "<logo>",
      "X-Received": "by 10.0.0.1",
      "X-Spam-Status": "No, score=-5",
    };
    const result = await post(user, message(user, { headers: { ...owned, "X-Entity-Ref-ID": "r1" } }));
    expect([result.status, result.body]).toEqual([
      400,
      {
        error: "Invalid request body",
        code: "VALIDATION_ERROR",
        success: false,
        details: Object.keys(owned).map((name) => ({
          field: `headers.${name}`,
          message: `${name} cannot be set in headers: the email provider or the mail servers that carry the message set it`,
        })),
      },
    ]);
    expect(await counter(user, "emails")).toBe(0);
    expect(await rows(user)).toEqual([]);

    // Names that only begin like them are the sender's own.
    const own = {
      "X-Received-Batch": "7",
      "X-Spamless": "1",
      Contents: "toc",
      Arcade: "1",
      "X-Resent": "no",
      "List-Unsubscribe": "<mailto:u@example.com>",
    };
    const ok = await post(user, message(user, { headers: own }));
    expect(ok.status).toBe(200);
  });

  it("words the common problems plainly", async () => {
    const user = await sender();
    const result = await post(
      user,
      message(user, {
        variables: [],
        attachments: [{ filename: "x", path: "/etc/passwd" }],
        scheduled_at: "2020-01-01T00:00:00Z",
      }),
    );
    expect(result.body.details).toEqual([
      { field: "variables", message: "variables must be an object" },
      { field: "attachments.0.path", message: "path must be an https:// URL; files on the server cannot be attached" },
      { field: "scheduled_at", message: "scheduled_at must be in the future" },
    ]);
  });

  it.each([
    ["an empty Idempotency-Key", ""],
    ["a 257-character Idempotency-Key", "k".repeat(257)],
  ])("%s is refused with field Idempotency-Key, next to the body's own problems", async (_name, key) => {
    const user = await sender();
    const ok = await post(user, message(user), { "idempotency-key": key });
    expect(ok.status).toBe(400);
    expect(ok.body.details).toEqual([
      { field: "Idempotency-Key", message: "Idempotency-Key must be 1 to 256 characters" },
    ]);
    const both = await post(user, message(user, { subject: "" }), { "idempotency-key": key });
    expect(both.body.details.map((d: { field: string }) => d.field)).toEqual(["Idempotency-Key", "subject"]);
    expect(await counter(user, "emails")).toBe(0);
  });

  it("accepts exactly 50 recipients, a 998-character subject, and a 256-character key", async () => {
    const user = await sender();
    const result = await post(user, message(user, { to: fifty, cc: fifty, subject: "s".repeat(998) }), {
      "idempotency-key": "k".repeat(256),
    });
    expect(result.status).toBe(200);
    expect(result.body.data.to).toHaveLength(25);
  });

  it("caps decoded attachments at 10 MB in total (a body that large is refused with 413 before parsing)", () => {
    const base = { template_id: randomUUID(), to: "a@example.com", subject: "s" };
    // Two attachments 2 bytes short of 5 MB each: 4 bytes under the cap; 6 more bytes go over it.
    const half = Buffer.alloc(5 * 1024 * 1024 - 2, 1).toString("base64");
    const ok = sendRequestSchema.safeParse({
      ...base,
      attachments: [
        { filename: "a", content: half },
        { filename: "b", content: half },
      ],
    });
    expect(ok.success).toBe(true);
    const over = sendRequestSchema.safeParse({
      ...base,
      attachments: [
        { filename: "a", content: half },
        { filename: "b", content: half },
        { filename: "c", content: "AAAAAAAA" },
      ],
    });
    expect(over.success).toBe(false);
    expect(over.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["attachments", "attachments total at most 10 MB"],
    ]);
  });
});

describe("the sender address", () => {
  it("defaults to the default sender of a verified domain", async () => {
    const user = await createUser();
    await addToLibrary(user, "welcome");
    await addSendingDomain(user.accountId, {
      domain: "news.example",
      verified: true,
      defaultSender: "letters@news.example",
    });
    const result = await post(user, { template_id: await catalogueId("welcome"), to: "a@example.com", subject: "Hi" });
    expect(result.status).toBe(200);
    expect(result.body.data.from).toBe("letters@news.example");
    expect((await listOutbox(user.accountId))[0].from).toBe("letters@news.example");
  });

  it("must be on a verified domain: unverified, other and sub-domains are refused with field from", async () => {
    const user = await createUser();
    await addToLibrary(user, "welcome");
    const welcome = await catalogueId("welcome");
    const own = uniqueDomain();
    const expectFromError = async (body: Record<string, unknown>) => {
      const result = await post(user, { template_id: welcome, to: "a@example.com", subject: "Hi", ...body });
      expect(result.status).toBe(400);
      expect(result.body).toEqual({
        error: "Invalid request body",
        code: "VALIDATION_ERROR",
        success: false,
        details: [{ field: "from", message: expect.any(String) }],
      });
    };
    await expectFromError({}); // no domain at all
    await addSendingDomain(user.accountId, { domain: "pending.example", verified: false });
    await expectFromError({}); // only an unverified domain
    await expectFromError({ from: "me@pending.example" });
    await addSendingDomain(user.accountId, { domain: own, verified: true });
    await expectFromError({ from: "me@other.example" });
    await expectFromError({ from: `me@mail.${own}` });
    await expectFromError({ from: `Acme <me@${own}.evil.com>` });
    expect(await counter(user, "emails")).toBe(0);

    const ok = await post(user, {
      template_id: welcome,
      to: "a@example.com",
      subject: "Hi",
      from: `"Acme, Inc." <Billing@${own.toUpperCase()}>`,
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data.from).toBe(`"Acme, Inc." <Billing@${own.toUpperCase()}>`);
  });

  describe("with SHARED_SENDING_DOMAIN", () => {
    envForEachTest({ SHARED_SENDING_DOMAIN: "shared.letterpress.example" });

    it("accepts the operator's shared domain without a verified domain of one's own; omitted from is still a 400", async () => {
      const user = await createUser();
      await addToLibrary(user, "welcome");
      const welcome = await catalogueId("welcome");
      const ok = await post(user, {
        template_id: welcome,
        to: "a@example.com",
        subject: "Hi",
        from: "Me <me@shared.letterpress.example>",
      });
      expect(ok.status).toBe(200);
      expect(ok.body.data.from).toBe("Me <me@shared.letterpress.example>");
      const omitted = await post(user, { template_id: welcome, to: "a@example.com", subject: "Hi" });
      expect(omitted.status).toBe(400);
      expect(omitted.body.details).toEqual([
        { field: "from", message: expect.stringContaining("@shared.letterpress.example") },
      ]);
    });
  });
});

describe("email quotas", () => {
  it("free plan: the 100th email of the month is sent, the 101st gets the exact 429 and nothing is sent", async () => {
    const user = await sender("free");
    await setEmailsUsed(user, 99);

    const hundredth = await post(user, message(user));
    expect(hundredth.status).toBe(200);
    expect(hundredth.body.meta.email_usage).toEqual({
      monthly_limit: 100,
      current_usage: 100,
      remaining: 0,
      plan_type: "free",
      is_overage: false,
      overage_emails: 0,
      billing_usage_reported: false,
    });

    const refused = await post(user, message(user, { subject: "One too many" }));
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      error: "Email sending not allowed",
      message: expect.stringContaining("100 emails"),
      is_overage: false,
    });
    expect(Object.keys(refused.body).sort()).toEqual(["error", "is_overage", "message"]);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(refused.headers.get("x-ratelimit-plan")).toBe("free");

    expect(await counter(user, "emails")).toBe(100);
    const kept = await rows(user);
    expect(kept).toHaveLength(1);
    expect(kept[0].id).toBe(hundredth.body.data.id);
  });

  it("free plan: concurrent sends at the boundary never exceed the limit", async () => {
    const user = await sender("free");
    await setEmailsUsed(user, 95);
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => post(user, message(user, { subject: `Race ${i}` }))),
    );
    expect(results.map((r) => r.status).sort()).toEqual([...Array(5).fill(200), ...Array(7).fill(429)]);
    expect(await counter(user, "emails")).toBe(100);
    expect(await rows(user)).toHaveLength(5);
    const usages = results
      .filter((r) => r.status === 200)
      .map((r) => r.body.meta.email_usage.current_usage)
      .sort((a, b) => a - b);
    expect(usages).toEqual([96, 97, 98, 99, 100]);
  });

  it("paid plan: past the limit sends go on in overage, each one written to the billing ledger", async () => {
    const user = await sender("monthly");
    await setEmailsUsed(user, 9_999);

    const last = await post(user, message(user));
    expect(last.status).toBe(200);
    expect(last.body.meta.email_usage).toEqual({
      monthly_limit: 10_000,
      current_usage: 10_000,
      remaining: 0,
      plan_type: "monthly",
      is_overage: false,
      overage_emails: 0,
      billing_usage_reported: false,
    });

    await nextInstant();
    const first = await post(user, message(user));
    await nextInstant();
    const second = await post(user, message(user));
    expect(first.status).toBe(200);
    expect(first.body.meta.email_usage).toEqual({
      monthly_limit: 10_000,
      current_usage: 10_001,
      remaining: 0,
      plan_type: "monthly",
      is_overage: true,
      overage_emails: 1,
      billing_usage_reported: false,
    });
    expect(second.body.meta.email_usage).toMatchObject({
      current_usage: 10_002,
      remaining: 0,
      is_overage: true,
      overage_emails: 2,
    });

    const kept = await rows(user);
    expect(kept.map((r) => r.is_overage)).toEqual([false, true, true]);
    const ledger = await getDb()`
      select email_id, period_start, quantity, reported_at, processor from email_overage_ledger
      where account_id = ${user.accountId} order by created_at, email_id`;
    expect(ledger.map((l) => l.email_id).sort()).toEqual([first.body.data.id, second.body.data.id].sort());
    for (const entry of ledger) {
      expect(entry).toMatchObject({ quantity: 1, reported_at: null, processor: null });
      expect(entry.period_start.getTime()).toBe(billingPeriod().start.getTime());
    }
  });

  it("annual plan: 50,000 a month", async () => {
    const user = await sender("annual");
    const result = await post(user, message(user));
    expect(result.body.meta.email_usage).toEqual({
      monthly_limit: 50_000,
      current_usage: 1,
      remaining: 49_999,
      plan_type: "annual",
      is_overage: false,
      overage_emails: 0,
      billing_usage_reported: false,
    });
  });
});

describe("Idempotency-Key", () => {
  it("replays the first response for the same key and body: no second send, no second count", async () => {
    const user = await sender();
    const body = message(user, { variables: { userName: "Ann", productName: "Acme" } });
    const first = await post(user, body, { "idempotency-key": "order-1001" });
    expect(first.status).toBe(200);
    expect(first.headers.get("idempotent-replayed")).toBeNull();

    // Same body with its keys in another order is the same request.
    const reordered = {
      variables: { productName: "Acme", userName: "Ann" },
      subject: body.subject,
      to: body.to,
      template_id: body.template_id,
    };
    const again = await post(user, reordered, { "idempotency-key": "order-1001" });
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.text).toBe(first.text); // byte for byte
    expect(await rows(user)).toHaveLength(1);
    expect(await counter(user, "emails")).toBe(1);
  });

  it("answers 409 for the same key with a different body", async () => {
    const user = await sender();
    expect((await post(user, message(user), { "idempotency-key": "k-1" })).status).toBe(200);
    const result = await post(user, message(user, { subject: "Something else" }), { "idempotency-key": "k-1" });
    expect(result.status).toBe(409);
    expect(result.body).toEqual({
      error: "Idempotency key reused with a different request",
      code: "IDEMPOTENCY_CONFLICT",
      success: false,
    });
    expect(await rows(user)).toHaveLength(1);
    expect(await counter(user, "emails")).toBe(1);
  });

  it("keeps keys per account", async () => {
    const alice = await sender();
    const bob = await sender();
    const a = await post(alice, message(alice), { "idempotency-key": "shared-key" });
    const b = await post(bob, message(bob), { "idempotency-key": "shared-key" });
    expect(b.status).toBe(200);
    expect(b.headers.get("idempotent-replayed")).toBeNull();
    expect(b.body.data.id).not.toBe(a.body.data.id);
  });

  it("10 identical requests at once: one send, one count, ten 200s with the same id", async () => {
    const user = await sender();
    const body = message(user);
    const results = await Promise.all(
      Array.from({ length: 10 }, () => post(user, body, { "idempotency-key": "race-1" })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(new Set(results.map((r) => r.body.data.id)).size).toBe(1);
    expect(results.filter((r) => r.headers.get("idempotent-replayed") === "true")).toHaveLength(9);
    for (const r of results) expect(r.body).toEqual(results[0].body);
    expect(await rows(user)).toHaveLength(1);
    expect(await counter(user, "emails")).toBe(1);
  });

  it("a failed request releases its key, so a retry with the same key runs afresh", async () => {
    const user = await sender();
    await addToLibrary(user, "magic-link");
    const body = {
      template_id: await catalogueId("magic-link"),
      to: "a@example.com",
      subject: "Sign in",
      variables: {} as Record<string, unknown>,
    };
    const failed = await post(user, body, { "idempotency-key": "retry-me" });
    expect(failed.status).toBe(400);
    const [held] =
      await getDb()`select 1 from idempotency_keys where account_id = ${user.accountId} and key = 'retry-me'`;
    expect(held).toBeUndefined();

    body.variables = { loginUrl: "https://acme.example/login?t=1" };
    const ok = await post(user, body, { "idempotency-key": "retry-me" });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("idempotent-replayed")).toBeNull();
    expect((await rows(user))[0].html).toContain("https://acme.example/login?t=1");
  });

  it("answers 409 IDEMPOTENCY_IN_PROGRESS when the identical request holding the key does not finish in time", async () => {
    const user = await sender();
    const body = message(user);
    await holdKeyInFlight(user, "slow", body);
    idempotencyWait.ms = 300;
    try {
      const result = await post(user, body, { "idempotency-key": "slow" });
      expect(result.status).toBe(409);
      expect(result.body).toEqual({
        error: "A request with this idempotency key is still in progress",
        code: "IDEMPOTENCY_IN_PROGRESS",
        success: false,
        message: expect.any(String),
      });
      expect(result.headers.get("retry-after")).toBe("1");
      // A different body under the held key is a conflict, in flight or not.
      expect((await post(user, message(user, { subject: "Other" }), { "idempotency-key": "slow" })).body.code).toBe(
        "IDEMPOTENCY_CONFLICT",
      );
    } finally {
      idempotencyWait.ms = null;
    }
    expect(await rows(user)).toEqual([]);

    // A claim left in flight for more than two minutes belongs to a request that died: the key is taken over.
    await getDb()`update idempotency_keys set created_at = now() - interval '3 minutes' where account_id = ${user.accountId}`;
    const takeover = await post(user, body, { "idempotency-key": "slow" });
    expect(takeover.status).toBe(200);
    expect(takeover.headers.get("idempotent-replayed")).toBeNull();
    expect(await rows(user)).toHaveLength(1);
  });

  it("after waiting on an identical request that then fails, sends with the library as it is now, not as it was on arrival", async () => {
    const user = await sender();
    const body = message(user);
    await holdKeyInFlight(user, "waits", body);
    const waiting = post(user, body, { "idempotency-key": "waits" });
    // While it waits, welcome leaves the library, and the request holding the key fails and lets go of it.
    await new Promise((resolve) => setTimeout(resolve, 100));
    await getDb()`delete from library_entries where account_id = ${user.accountId} and template_id = ${user.welcomeId}`;
    await getDb()`delete from idempotency_keys where account_id = ${user.accountId} and key = 'waits'`;
    const result = await waiting;
    expect([result.status, result.body.code]).toEqual([404, "TEMPLATE_NOT_FOUND"]);
    expect(await rows(user)).toEqual([]);
  });

  it("forgets a key after 24 hours", async () => {
    const user = await sender();
    const first = await post(user, message(user), { "idempotency-key": "old" });
    await getDb()`update idempotency_keys set created_at = now() - interval '25 hours' where account_id = ${user.accountId}`;
    const later = await post(user, message(user), { "idempotency-key": "old" });
    expect(later.status).toBe(200);
    expect(later.headers.get("idempotent-replayed")).toBeNull();
    expect(later.body.data.id).not.toBe(first.body.data.id);
    expect(await counter(user, "emails")).toBe(2);
  });
});

describe("scheduled sends and the dispatcher", () => {
  envForEachTest({ CRON_SECRET: "cron-secret-for-tests-0123456789" });
  const cron = (authorization?: string) =>
    call(dispatchCron, "/api/cron/dispatch-scheduled", { headers: authorization ? { authorization } : {} });

  it("stores a scheduled message as scheduled and delivers it once due", async () => {
    const user = await sender();
    const at = new Date(Date.now() + 2 * 3600 * 1000);
    at.setUTCMilliseconds(0);
    const local = at.toISOString().replace(".000Z", "+00:00");
    const result = await post(user, message(user, { scheduled_at: local }));
    expect(result.status).toBe(200);
    expect(result.body.data).toEqual({
      id: expect.stringMatching(UUID),
      from: `hello@${user.domain}`,
      to: ["ann@example.com"],
      subject: "Welcome aboard",
      locale: "en",
      sent_at: expect.stringMatching(ISO),
      scheduled_at: at.toISOString(),
    });
    expect(sendResponseSchema.parse(result.body)).toEqual(result.body);
    expect(result.body.meta.email_usage.current_usage).toBe(1);

    let [row] = await rows(user);
    expect(row).toMatchObject({ status: "scheduled", sent_at: null });
    expect(row.scheduled_at?.getTime()).toBe(at.getTime());

    // Not due yet: the dispatcher leaves it alone.
    expect((await cron("Bearer cron-secret-for-tests-0123456789")).status).toBe(200);
    [row] = await rows(user);
    expect(row.status).toBe("scheduled");

    await getDb()`update sent_emails set scheduled_at = now() - interval '1 second' where id = ${row.id}`;
    const run = await cron("Bearer cron-secret-for-tests-0123456789");
    expect(run.status).toBe(200);
    expect(run.body).toEqual({
      success: true,
      dispatched: expect.any(Number),
      recovered_emails: expect.any(Number),
      failed_emails: expect.any(Number),
      expired_idempotency_keys: expect.any(Number),
      held_events_applied: expect.any(Number),
      folded_metric_events: expect.any(Number),
    });
    expect(run.body.dispatched).toBeGreaterThanOrEqual(1);
    [row] = await rows(user);
    expect(row.status).toBe("sent");
    expect(row.sent_at).toBeInstanceOf(Date);
  });

  it("the outbox listing shows a due message scheduled until the dispatcher has sent it", async () => {
    const user = await sender();
    const result = await post(user, message(user, { scheduled_at: new Date(Date.now() + 60_000).toISOString() }));
    await getDb()`update sent_emails set scheduled_at = now() - interval '1 second' where id = ${result.body.data.id}`;
    expect(await listOutbox(user.accountId)).toMatchObject([
      { id: result.body.data.id, status: "scheduled", sent_at: null },
    ]);
    expect((await cron("Bearer cron-secret-for-tests-0123456789")).status).toBe(200);
    const [listed] = await listOutbox(user.accountId);
    expect(listed).toMatchObject({ id: result.body.data.id, status: "sent" });
    expect(listed.sent_at).toBeInstanceOf(Date);
  });

  it("the cron route needs Authorization: Bearer CRON_SECRET", async () => {
    for (const header of [
      undefined,
      "Bearer wrong-secret-0123456789",
      "cron-secret-for-tests-0123456789",
      "Basic abc",
    ]) {
      const result = await cron(header);
      expect(result.status).toBe(401);
      expect(result.body).toEqual({ error: "Authentication required", code: "UNAUTHORIZED", success: false });
    }
    expect((await call(cronPut, "/api/cron/dispatch-scheduled", { method: "PUT" })).status).toBe(405);
  });

  it("cleans up idempotency keys past their 24 hours", async () => {
    const user = await sender();
    await post(user, message(user), { "idempotency-key": "to-expire" });
    await getDb()`update idempotency_keys set created_at = now() - interval '2 days' where account_id = ${user.accountId}`;
    const run = await cron("Bearer cron-secret-for-tests-0123456789");
    expect(run.body.expired_idempotency_keys).toBeGreaterThanOrEqual(1);
    expect(await getDb()`select 1 from idempotency_keys where account_id = ${user.accountId}`).toHaveLength(0);
  });

  describe("without CRON_SECRET", () => {
    envForEachTest({ CRON_SECRET: undefined });
    it("refuses every request", async () => {
      expect((await cron("Bearer ")).status).toBe(401);
      expect((await cron("Bearer undefined")).status).toBe(401);
    });
  });
});
