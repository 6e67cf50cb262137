import { describe, expect, it, vi } from "vitest";
import { GET as getEmail } from "@/app/api/v1/emails/[id]/route";
import { POST as sendBatch } from "@/app/api/v1/send/batch/route";
import { POST as send } from "@/app/api/v1/send/route";
import { POST as renderRoute } from "@/app/api/v1/templates/[id]/render/route";
import { getDb } from "@/lib/db/client";
import { BATCH_RENDER_BUDGET_MS } from "@/lib/core/limits";
import { getSandboxStats, SANDBOX_WORKERS } from "@/lib/render/sandbox";
import { createTemplateFromSource } from "@/lib/templates/user-templates";
import {
  ISO,
  addToLibrary,
  auth,
  call,
  catalogueId,
  counter,
  createUser,
  sender,
  setEmailsUsed,
  type Sender,
  type TestUser,
} from "../support/api";

// The cap on a batch's rendered bytes and its budget of render time: as shipped, unless a test lowers them.
const renderedCap = vi.hoisted(() => ({ bytes: null as number | null }));
const renderBudget = vi.hoisted(() => ({ ms: null as number | null }));
vi.mock("@/lib/core/limits", async (importOriginal) => {
  const limits = await importOriginal<typeof import("@/lib/core/limits")>();
  return {
    ...limits,
    get MAX_BATCH_RENDERED_BYTES() {
      return renderedCap.bytes ?? limits.MAX_BATCH_RENDERED_BYTES;
    },
    get BATCH_RENDER_BUDGET_MS() {
      return renderBudget.ms ?? limits.BATCH_RENDER_BUDGET_MS;
    },
  };
});

const UUID = expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);

const item = (user: Sender, extra: Record<string, unknown> = {}) => ({
  template_id: user.welcomeId,
  to: "ann@example.com",
  subject: "Welcome aboard",
  ...extra,
});

const postBatch = (user: TestUser, body: unknown, headers: Record<string, string> = {}) =>
  call(sendBatch, "/api/v1/send/batch", { method: "POST", headers: { ...auth(user), ...headers }, body });

async function emailCount(user: TestUser): Promise<number> {
  const [row] = await getDb()<{ count: number }[]>`
    select count(*)::int as count from sent_emails where account_id = ${user.accountId}`;
  return row.count;
}

const usage = (plan: string, used: number, limit: number, extra: Record<string, unknown> = {}) => ({
  monthly_limit: limit,
  current_usage: used,
  remaining: Math.max(0, limit - used),
  plan_type: plan,
  is_overage: false,
  overage_emails: 0,
  billing_usage_reported: false,
  ...extra,
});

describe("POST /api/v1/send/batch", () => {
  it("sends every item in the request's order, one API call, one email counted per item", async () => {
    const user = await sender("free");
    await addToLibrary(user, "verify-email");
    const verifyId = await catalogueId("verify-email");
    const result = await postBatch(user, {
      emails: [
        item(user, { to: ["ann@example.com"], tags: [{ name: "kind", value: "welcome" }] }),
        item(user, {
          template_id: verifyId,
          to: "bob@example.com",
          subject: "Verify",
          variables: { verifyUrl: "https://acme.example/v/1" },
        }),
        item(user, { to: "gone@bounce.test", subject: "Third" }),
      ],
    });
    expect([result.status, result.body]).toEqual([
      200,
      {
        success: true,
        data: [
          {
            id: UUID,
            from: `hello@${user.domain}`,
            to: ["ann@example.com"],
            subject: "Welcome aboard",
            locale: "en",
            sent_at: ISO,
          },
          { id: UUID, from: `hello@${user.domain}`, to: ["bob@example.com"], subject: "Verify", sent_at: ISO },
          {
            id: UUID,
            from: `hello@${user.domain}`,
            to: ["gone@bounce.test"],
            subject: "Third",
            locale: "en",
            sent_at: ISO,
          },
        ],
        meta: { email_usage: usage("free", 3, 100) },
      },
    ]);
    expect(result.headers.get("x-ratelimit-remaining")).toBe("499");
    expect(await counter(user, "api_calls")).toBe(1);

    const statuses = [];
    for (const { id } of result.body.data) {
      const email = await call(getEmail, `/api/v1/emails/${id}`, { params: { id }, headers: auth(user) });
      statuses.push([
        email.body.email.status,
        email.body.email.template_id,
        email.body.email.events.map((e: { type: string }) => e.type),
      ]);
    }
    expect(statuses).toEqual([
      ["delivered", user.welcomeId, ["sent", "delivered"]],
      ["delivered", verifyId, ["sent", "delivered"]],
      ["bounced", user.welcomeId, ["sent", "bounced"]],
    ]);
    const [html] = await getDb()<{ html: string }[]>`
      select html from sent_emails where account_id = ${user.accountId} and subject = 'Verify'`;
    expect(html.html).toContain("https://acme.example/v/1");
  });

  it("validates every item first: one 400 lists each problem under emails.<i>., and nothing is sent or counted", async () => {
    const user = await sender("free");
    const result = await postBatch(user, {
      emails: [
        item(user),
        item(user, { to: "not-an-address", subject: "" }),
        item(user, {
          scheduled_at: new Date(Date.now() + 3600_000).toISOString(),
          attachments: [{ filename: "a.txt", content: "aGk=" }],
        }),
        item(user, { from: "someone@elsewhere.example", variables: { userName: 42 } }),
      ],
    });
    expect([result.status, result.body]).toEqual([
      400,
      {
        error: "Invalid request body",
        code: "VALIDATION_ERROR",
        success: false,
        details: [
          { field: "emails.1.to", message: "must be a valid email address" },
          { field: "emails.1.subject", message: "subject must be 1 to 998 characters" },
          {
            field: "emails.2.attachments",
            message: "attachments is not supported in a batch: send this email with POST /api/v1/send",
          },
          {
            field: "emails.2.scheduled_at",
            message: "scheduled_at is not supported in a batch: send this email with POST /api/v1/send",
          },
        ],
      },
    ]);
    // Then the items' senders and variables, all of them.
    const second = await postBatch(user, {
      emails: [item(user), item(user, { from: "someone@elsewhere.example", variables: { userName: 42 } })],
    });
    expect([second.status, second.body.details]).toEqual([
      400,
      [
        {
          field: "emails.1.from",
          message: `from must be an address on one of your verified sending domains: ${user.domain}`,
        },
        { field: "emails.1.variables.userName", message: "Invalid input: expected string, received number" },
      ],
    ]);
    expect([await emailCount(user), await counter(user, "emails"), await counter(user, "api_calls")]).toEqual([
      0, 0, 2,
    ]);
  });

  it("refuses the headers the provider or the mail servers set, under the item's index, and sends nothing", async () => {
    const user = await sender("free");
    const result = await postBatch(user, {
      emails: [item(user), item(user, { headers: { "dkim-signature": "v=1", "Resent-Sender": "ceo@bank.test" } })],
    });
    expect([result.status, result.body]).toEqual([
      400,
      {
        error: "Invalid request body",
        code: "VALIDATION_ERROR",
        success: false,
        details: [
          {
            field: "emails.1.headers.dkim-signature",
            message:
              "dkim-signature cannot be set in headers: the email provider or the mail servers that carry the message set it",
          },
          {
            field: "emails.1.headers.Resent-Sender",
            message:
              "Resent-Sender cannot be set in headers: the email provider or the mail servers that carry the message set it",
          },
        ],
      },
    ]);
    expect([await emailCount(user), await counter(user, "emails")]).toEqual([0, 0]);
  });

  it("holds 1 to 100 items", async () => {
    const user = await sender("monthly");
    for (const emails of [[], Array.from({ length: 101 }, () => item(user))]) {
      const result = await postBatch(user, { emails });
      expect([result.status, result.body.details]).toEqual([
        400,
        [{ field: "emails", message: "emails must hold 1 to 100 send requests" }],
      ]);
    }
    for (const body of [{}, { emails: "x" }, { emails: [item(user)], extra: true }]) {
      const result = await postBatch(user, body);
      expect([result.status, result.body.code]).toEqual([400, "VALIDATION_ERROR"]);
    }
    const hundred = await postBatch(user, {
      emails: Array.from({ length: 100 }, (_, i) => item(user, { subject: `#${i}` })),
    });
    expect(hundred.status).toBe(200);
    expect(hundred.body.data.map((d: { subject: string }) => d.subject)).toEqual(
      Array.from({ length: 100 }, (_, i) => `#${i}`),
    );
    expect(await counter(user, "emails")).toBe(100);
  });

  it("an item's template not in the library is 404 naming the item; a suppressed recipient is 422 naming its field", async () => {
    const user = await sender("free");
    const missing = await postBatch(user, {
      emails: [item(user), item(user, { template_id: await catalogueId("receipt") })],
    });
    const message = "This template is not in your library. Add or purchase it first.";
    expect([missing.status, missing.body]).toEqual([
      404,
      {
        error: "Template not found",
        code: "TEMPLATE_NOT_FOUND",
        success: false,
        message,
        details: [{ field: "emails.1.template_id", message }],
      },
    ]);

    const slip = await postBatch(user, { emails: [item(user), item(user, { template_id: "welcom" })] });
    const suggesting = `${message} Did you mean welcome?`;
    expect([slip.status, slip.body]).toEqual([
      404,
      {
        error: "Template not found",
        code: "TEMPLATE_NOT_FOUND",
        success: false,
        message: suggesting,
        details: [{ field: "emails.1.template_id", message: suggesting }],
      },
    ]);

    expect((await postBatch(user, { emails: [item(user, { to: "gone@bounce.test" })] })).status).toBe(200);
    const suppressed = await postBatch(user, {
      emails: [item(user), item(user, { to: ["bob@example.com", "GONE@bounce.test"] })],
    });
    expect([
      suppressed.status,
      suppressed.body.code,
      suppressed.body.details.map((d: { field: string }) => d.field),
    ]).toEqual([422, "RECIPIENT_SUPPRESSED", ["emails.1.to.1"]]);
    expect(await counter(user, "emails")).toBe(1);
  });

  it("on the free plan a batch larger than the emails left is 429 and sends nothing; one that fits is sent", async () => {
    const user = await sender("free");
    await setEmailsUsed(user, 98);
    const refused = await postBatch(user, { emails: [item(user), item(user), item(user)] });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      error: "Email sending not allowed",
      message: expect.stringContaining("2 are left and this batch holds 3. Nothing was sent."),
      is_overage: false,
    });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect([await emailCount(user), await counter(user, "emails")]).toEqual([0, 98]);

    const fits = await postBatch(user, { emails: [item(user), item(user)] });
    expect([fits.status, fits.body.meta.email_usage]).toEqual([200, usage("free", 100, 100)]);
  });

  it("two batches racing for the last emails never grant more than the limit", async () => {
    const user = await sender("free");
    await setEmailsUsed(user, 93);
    const batches = await Promise.all(
      Array.from({ length: 4 }, () => postBatch(user, { emails: [item(user), item(user), item(user)] })),
    );
    const statuses = batches.map((b) => b.status).sort();
    expect(statuses).toEqual([200, 200, 429, 429]);
    expect([await emailCount(user), await counter(user, "emails")]).toEqual([6, 99]);
  });

  it("on a paid plan the items past the limit go on as overage, each recorded for billing", async () => {
    const user = await sender("monthly");
    await setEmailsUsed(user, 9_999);
    const result = await postBatch(user, { emails: [item(user), item(user), item(user)] });
    expect([result.status, result.body.meta.email_usage]).toEqual([
      200,
      usage("monthly", 10_002, 10_000, { is_overage: true, overage_emails: 2 }),
    ]);
    const rows = await getDb()<{ is_overage: boolean; ledger: boolean }[]>`
      select e.is_overage, l.id is not null as ledger from sent_emails e left join email_overage_ledger l on l.email_id = e.id
      where e.account_id = ${user.accountId} order by e.is_overage`;
    expect(rows).toEqual([
      { is_overage: false, ledger: false },
      { is_overage: true, ledger: true },
      { is_overage: true, ledger: true },
    ]);
  });

  it("one Idempotency-Key covers the batch: a repeat replays it, another body under the key is 409", async () => {
    const user = await sender("free");
    const body = { emails: [item(user), item(user, { to: "bob@example.com" })] };
    const first = await postBatch(user, body, { "idempotency-key": "batch-1" });
    expect(first.status).toBe(200);
    const repeat = await postBatch(user, body, { "idempotency-key": "batch-1" });
    expect([repeat.status, repeat.body, repeat.headers.get("idempotent-replayed")]).toEqual([200, first.body, "true"]);
    expect([await emailCount(user), await counter(user, "emails")]).toEqual([2, 2]);

    const other = await postBatch(user, { emails: [item(user)] }, { "idempotency-key": "batch-1" });
    expect([other.status, other.body]).toEqual([
      409,
      { error: "Idempotency key reused with a different request", code: "IDEMPOTENCY_CONFLICT", success: false },
    ]);
    // The same key on POST /send names another request.
    const single = await call(send, "/api/v1/send", {
      method: "POST",
      headers: { ...auth(user), "idempotency-key": "batch-1" },
      body: item(user),
    });
    expect(single.status).toBe(200);
    expect(await counter(user, "emails")).toBe(3);
  });

  it("a batch whose emails render past the cap in all is 422 BATCH_TOO_LARGE, and nothing is sent or counted", async () => {
    const user = await sender("free");
    const one = await postBatch(user, { emails: [item(user)] });
    const [{ html, text }] = await getDb()<{ html: string; text: string }[]>`
      select html, text_body as text from sent_emails where account_id = ${user.accountId}`;
    const size = Buffer.byteLength(html) + Buffer.byteLength(text);
    renderedCap.bytes = size * 2 + 1;
    try {
      const result = await postBatch(user, { emails: [item(user), item(user), item(user), item(user)] });
      expect([result.status, result.body]).toEqual([
        422,
        {
          error: "Batch too large",
          code: "BATCH_TOO_LARGE",
          success: false,
          message: expect.stringMatching(
            /^The batch's emails render to more than [\d.]+ MB of HTML and text in all \(passed at emails\.[23]\)\. Nothing was sent; send them in smaller batches\.$/,
          ),
        },
      ]);
      expect(await postBatch(user, { emails: [item(user), item(user)] })).toMatchObject({ status: 200 });
    } finally {
      renderedCap.bytes = null;
    }
    expect(one.status).toBe(200);
    expect([await emailCount(user), await counter(user, "emails")]).toEqual([3, 3]);
  });

  it("warnings name their item", async () => {
    const user = await sender("free");
    const result = await postBatch(user, { emails: [item(user), item(user, { variables: { usrName: "Ann" } })] });
    expect([result.status, result.body.warnings]).toEqual([
      200,
      [{ field: "emails.1.variables.usrName", message: expect.stringContaining("userName"), kind: "variables" }],
    ]);
  });

  it("refuses a caller without credentials before reading anything", async () => {
    const anonymous = await call(sendBatch, "/api/v1/send/batch", { method: "POST", body: { emails: [] } });
    expect([anonymous.status, anonymous.body]).toEqual([
      401,
      {
        error: "Authentication required",
        code: "UNAUTHORIZED",
        success: false,
        message: "No credentials: send your API key as Authorization: Bearer <key> (or X-API-Key: <key>).",
      },
    ]);
    const user = await createUser("free");
    expect((await postBatch(user, { emails: [] })).status).toBe(400);
  });
});

/** Spins for `ms` of wall-clock time (within the 1 s render deadline), then renders, or throws when `fail`. */
const SPIN = `import { Html, Text } from "@react-email/components";
export default function Spin({ ms = 0, fail = false }: { ms?: number; fail?: boolean }) {
  const end = Date.now() + ms;
  while (Date.now() < end) {}
  if (fail) throw new Error("Spun out");
  return <Html><Text>Spun {ms}</Text></Html>;
}
`;
const SPIN_MS = 400;

async function spinner(): Promise<{ user: Sender; templateId: string }> {
  const user = await sender("monthly");
  const { id } = await createTemplateFromSource(user.accountId, { name: "Spin", description: "", code: SPIN });
  return { user, templateId: id };
}

const spins = (templateId: string, count: number, variables: (i: number) => Record<string, unknown>) => ({
  emails: Array.from({ length: count }, (_, i) => ({
    template_id: templateId,
    to: `reader-${i}@example.com`,
    subject: "Spun",
    variables: variables(i),
  })),
});

/** Resolves once nothing is queued or running in the sandbox. */
async function sandboxIdle(): Promise<void> {
  while (getSandboxStats().queued > 0) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe("POST /api/v1/send/batch rendering templates that take their time", () => {
  it("answers the first failing item's 422 at once, without rendering the items after it", async () => {
    const { user, templateId } = await spinner();
    const started = performance.now();
    const result = await postBatch(
      user,
      spins(templateId, 30, (i) => (i === 0 ? { fail: true } : { ms: SPIN_MS })),
    );
    const answeredMs = performance.now() - started;
    await sandboxIdle();
    const idleMs = performance.now() - started;
    expect([result.status, result.body]).toEqual([
      422,
      {
        error: "Template render failed",
        code: "RENDER_ERROR",
        success: false,
        message: "emails.0: Template threw: Error: Spun out",
      },
    ]);
    // Rendering the 29 others would take 29 spins over the sandbox's workers; only the few already sent to a worker
    // when the first failed run after the answer.
    const allRenderedMs = (29 * SPIN_MS) / SANDBOX_WORKERS;
    expect({ answeredSoon: answeredMs < 2 * SPIN_MS, restNotRendered: idleMs < allRenderedMs / 2 }).toEqual({
      answeredSoon: true,
      restNotRendered: true,
    });
    expect([await emailCount(user), await counter(user, "emails")]).toEqual([0, 0]);
  });

  it("answers 422 BATCH_TOO_LARGE once its templates pass the batch's render time; sends nothing", async () => {
    renderBudget.ms = 3 * SPIN_MS;
    try {
      const { user, templateId } = await spinner();
      const started = performance.now();
      const result = await postBatch(
        user,
        spins(templateId, 20, () => ({ ms: SPIN_MS })),
      );
      const answeredMs = performance.now() - started;
      expect([result.status, result.body]).toEqual([
        422,
        {
          error: "Batch too large",
          code: "BATCH_TOO_LARGE",
          success: false,
          message: expect.stringMatching(
            /^The batch's templates took more than 1\.2 s to render in all \(passed at emails\.\d+\)\. Nothing was sent; send fewer emails per batch, or make the templates render faster\.$/,
          ),
        },
      ]);
      // All 20 would take 8 s of rendering; it stopped soon after the budget's 1.2 s.
      expect(answeredMs).toBeLessThan(20 * SPIN_MS * 0.5);
      expect([await emailCount(user), await counter(user, "emails")]).toEqual([0, 0]);
      await sandboxIdle();
      // A batch within the budget is sent.
      const within = await postBatch(
        user,
        spins(templateId, 2, () => ({ ms: 100 })),
      );
      expect(within.status).toBe(200);
    } finally {
      renderBudget.ms = null;
    }
  });

  it("lets another account's render go first: it is done before a hostile batch started ahead of it", async () => {
    expect(BATCH_RENDER_BUDGET_MS).toBeLessThan(20 * SPIN_MS);
    const { user: hostile, templateId } = await spinner();
    const other = await createUser("annual");
    const { id: quickId } = await createTemplateFromSource(other.accountId, {
      name: "Quick",
      description: "",
      code: SPIN,
    });
    await sandboxIdle();
    const finished: string[] = [];
    const batch = postBatch(
      hostile,
      spins(templateId, 20, () => ({ ms: SPIN_MS })),
    ).then((result) => {
      finished.push("batch");
      return result;
    });
    while (getSandboxStats().queued === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const started = performance.now();
    const single = await call(renderRoute, `/api/v1/templates/${quickId}/render`, {
      method: "POST",
      params: { id: quickId },
      headers: auth(other),
      body: { variables: {} },
    });
    const singleMs = performance.now() - started;
    finished.push("single");
    const batchResult = await batch;
    expect({ single: single.status, batch: batchResult.status, order: finished }).toEqual({
      single: 200,
      batch: 422,
      order: ["single", "batch"],
    });
    // Behind at most the two of the batch's renders each worker runs at once.
    expect(singleMs).toBeLessThan(3 * SPIN_MS + 1000);
  });
});
