/**
 * POST /send/batch with templates that take their time: the batch's renders share one budget of sandbox time, the
 * batch stops at its first failure, and another account's render does not wait for the batch.
 */
import { describe, expect, it, vi } from "vitest";
import { POST as renderRoute } from "@/app/api/v1/templates/[id]/render/route";
import { POST as sendBatch } from "@/app/api/v1/send/batch/route";
import { getDb } from "@/lib/db/client";
import { BATCH_RENDER_BUDGET_MS } from "@/lib/limits";
import { getSandboxStats, SANDBOX_WORKERS } from "@/lib/render/sandbox";
import { createTemplateFromSource } from "@/lib/user-templates";
import { auth, call, counter, createUser, sender, type Sender, type TestUser } from "./support/api";

// The budget: as shipped, unless a test lowers it.
const budget = vi.hoisted(() => ({ ms: null as number | null }));
vi.mock("@/lib/limits", async (importOriginal) => {
  const limits = await importOriginal<typeof import("@/lib/limits")>();
  return {
    ...limits,
    get BATCH_RENDER_BUDGET_MS() {
      return budget.ms ?? limits.BATCH_RENDER_BUDGET_MS;
    },
  };
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

const postBatch = (user: TestUser, body: unknown) =>
  call(sendBatch, "/api/v1/send/batch", { method: "POST", headers: auth(user), body });

async function sentAndCounted(user: TestUser): Promise<[number, number]> {
  const [row] = await getDb()<{ count: number }[]>`
    select count(*)::int as count from sent_emails where account_id = ${user.accountId}`;
  return [row.count, await counter(user, "emails")];
}

/** Resolves once nothing is queued or running in the sandbox. */
async function sandboxIdle(): Promise<void> {
  while (getSandboxStats().queued > 0) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe("POST /api/v1/send/batch rendering templates that take their time", () => {
  it(
    "answers the first failing item's 422 at once, without rendering the items after it",
    { timeout: 30_000 },
    async () => {
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
      expect(await sentAndCounted(user)).toEqual([0, 0]);
    },
  );

  it(
    "answers 422 BATCH_TOO_LARGE once its templates' renders pass the batch's render time, and sends nothing",
    { timeout: 30_000 },
    async () => {
      budget.ms = 3 * SPIN_MS;
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
        expect(await sentAndCounted(user)).toEqual([0, 0]);
        await sandboxIdle();
        // A batch within the budget is sent.
        const within = await postBatch(
          user,
          spins(templateId, 2, () => ({ ms: 100 })),
        );
        expect(within.status).toBe(200);
      } finally {
        budget.ms = null;
      }
    },
  );

  it(
    "lets another account's render go first: it is done before a hostile batch started ahead of it",
    { timeout: 30_000 },
    async () => {
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
    },
  );
});
