import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { checkCompatibility } from "@/lib/render/analysis/compatibility";
import { POST as postPreview } from "@/app/api/dashboard/templates/preview/route";
import { createTemplateAction } from "@/app/dashboard/templates/new/actions";
import { POST as postRender } from "@/app/api/v1/templates/[id]/render/route";
import { GET as getUsage } from "@/app/api/v1/usage/route";
import { getDb } from "@/lib/db/client";
import { createUserTemplate } from "@/lib/templates/data/user-templates";
import { httpError } from "@/lib/api/errors";
import { AppError } from "@/lib/core/errors";
import { COMPILE_DEADLINE_MS, MAX_PARAMETER_NESTING, MAX_TEMPLATE_SOURCE_CHARS } from "@/lib/core/limits";
import { WALL_CLOCK_ALLOWANCE } from "@/lib/render/workers/worker-pool";
import { applyVariablesToSource } from "@/lib/render/react-email/react-source";
import { OPEN_VARIABLES_SCHEMA } from "@/lib/templates/variables-schema";
import { compileTemplate } from "@/lib/render/sandbox/compile";
import { compileTemplateOffThread, stopCompileWorkers } from "@/lib/render/sandbox/compile-pool";
import { createTemplateFromSource } from "@/lib/templates/user-templates";
import { auth, BASE, call, createUser, sessionCookie, type CallResult, type TestUser } from "../support/api";
import { signedIn } from "../support/signed-in";

// The server action's session is the mocked account; everything behind it is real.
vi.mock("next/headers", () => import("../support/next-headers"));
vi.mock("@/lib/auth/current", () => import("../support/signed-in"));

/** Arrow functions nested in each other's parameter defaults: sucrase's parse time doubles with every level. */
function nestedDefaults(depth: number): string {
  let fn = "() => 1";
  for (let i = 0; i < depth; i++) fn = `(a: number, b = ${fn}) => 1`;
  return fn;
}

const SUCRASE_BOMB = `import { Html, Text } from "@react-email/components";
const x = ${nestedDefaults(23)};
export default function Bomb() {
  return <Html><Text>{String(x)}</Text></Html>;
}
`;

/**
 * Type arguments nested in each other's lists: TypeScript's parser tries every `a<` as the start of type arguments,
 * reading on to the end, so its time grows with the square of the nesting (lib/render/analysis/template-syntax.ts).
 */
function nestedTypeArguments(depth: number, width: number): string {
  return `[${`a<${"b,".repeat(width)}`.repeat(depth)}b]`;
}

const TYPESCRIPT_BOMB = `import { Html, Text } from "@react-email/components";
const x = ${nestedTypeArguments(300, 300)};
export default function Bomb() {
  return <Html><Text>{String(x)}</Text></Html>;
}
`;

const HELLO = `import { Html, Text } from "@react-email/components";
export default function Hello({ name = "there" }: { name?: string }) {
  return <Html><Text>Hello {name}</Text></Html>;
}
`;

/** HELLO's variables schema, derived from its props type. */
const HELLO_VARIABLES = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  properties: { name: { type: "string", default: "there" } },
  additionalProperties: true,
};

const COMPILE_DEADLINE =
  "The template's code took longer than 1 s to compile: simplify it (deeply nested expressions, a very large file)";
const PARSE_DEADLINE =
  "The template's code took longer than 1 s to parse: simplify it (deeply nested expressions, a very large file)";

/**
 * The deadline counts the worker's CPU time, and at most WALL_CLOCK_ALLOWANCE of it in wall-clock time, as the pool
 * promises; a second more for the replaced worker's start. Unbounded, TypeScript's parser reads the bomb for 20 s here.
 */
const STOPPED_WITHIN_MS = COMPILE_DEADLINE_MS * WALL_CLOCK_ALLOWANCE + 1000;

let user: TestUser;
let bystander: TestUser;
/** The preview route's own session: a cookie of a live local session. */
let browser: Record<string, string>;

beforeAll(async () => {
  user = await createUser("monthly");
  bystander = await createUser("monthly");
  signedIn.accountId = user.accountId;
  browser = { cookie: await sessionCookie(user.accountId), origin: BASE };
});

afterAll(() => stopCompileWorkers());

/**
 * Starts `operation` and, 300 ms later, asks GET /usage for another account: the event loop must answer it within a
 * second, while the operation is still running.
 */
async function alongsideUsage<T>(
  operation: () => Promise<T>,
): Promise<{ outcome: PromiseSettledResult<T>; elapsedMs: number }> {
  const started = Date.now();
  let settled = false;
  const pending = operation();
  const outcome = Promise.allSettled([pending]).then(([result]) => {
    settled = true;
    return result!;
  });
  await new Promise((resolve) => setTimeout(resolve, 300));
  const usage: CallResult = await call(getUsage, "/api/v1/usage", { headers: auth(bystander) });
  const answeredAfterMs = Date.now() - started - 300;
  expect({
    status: usage.status,
    answeredWithinASecond: answeredAfterMs < 1000,
    operationStillRunning: !settled,
  }).toEqual({
    status: 200,
    answeredWithinASecond: true,
    operationStillRunning: true,
  });
  const result = await outcome;
  return { outcome: result, elapsedMs: Date.now() - started };
}

describe("a source that takes a parser minutes is compiled off the event loop and stopped at the deadline", () => {
  it("in the dashboard's live preview", async () => {
    const preview = () =>
      call(postPreview, "/api/dashboard/templates/preview", {
        method: "POST",
        headers: browser,
        body: { code: TYPESCRIPT_BOMB, variables: null },
      });
    const { outcome, elapsedMs } = await alongsideUsage(preview);
    expect(outcome.status).toBe("fulfilled");
    const result = (outcome as PromiseFulfilledResult<CallResult>).value;
    expect({ status: result.status, body: result.body }).toEqual({
      status: 200,
      body: { ok: false, message: COMPILE_DEADLINE },
    });
    expect(elapsedMs).toBeLessThan(STOPPED_WITHIN_MS);

    // The worker that ran into the deadline was replaced: the next preview compiles and renders.
    const next = await call(postPreview, "/api/dashboard/templates/preview", {
      method: "POST",
      headers: browser,
      body: { code: HELLO, variables: { name: "Ada" } },
    });
    expect(next.body).toEqual({
      ok: true,
      html: expect.stringContaining("Hello <!-- -->Ada"),
      props: { name: "Ada" },
      variables: HELLO_VARIABLES,
      compatibility: checkCompatibility(next.body.html),
    });
  });

  it("when a template is created (lib, admin CLI): a refused source, nothing stored", async () => {
    const { outcome, elapsedMs } = await alongsideUsage(() =>
      createTemplateFromSource(user.accountId, { name: "Bomb", description: "", code: TYPESCRIPT_BOMB }),
    );
    expect(outcome.status).toBe("rejected");
    const error = (outcome as PromiseRejectedResult).reason;
    expect(error).toBeInstanceOf(AppError);
    expect({ code: error.code, details: error.options.details, source: error.options.source }).toEqual({
      code: "VALIDATION_ERROR",
      details: [{ field: "files", message: COMPILE_DEADLINE }],
      source: { message: COMPILE_DEADLINE },
    });
    expect(elapsedMs).toBeLessThan(STOPPED_WITHIN_MS);
    expect(
      await getDb()`select id from templates where owner_account_id = ${user.accountId} and name = 'Bomb'`,
    ).toEqual([]);
  });

  it("when a template is created in the dashboard: the form's error", async () => {
    const form = new FormData();
    form.set("name", "Bomb from the editor");
    form.set("description", "");
    form.set("code", TYPESCRIPT_BOMB);
    const { outcome } = await alongsideUsage(() => createTemplateAction({ status: "idle" }, form));
    expect(outcome).toEqual({
      status: "fulfilled",
      value: { status: "error", message: COMPILE_DEADLINE, values: { name: "Bomb from the editor", description: "" } },
    });
  });

  it('in a `format: "react"` render of a stored template: 422 RENDER_ERROR', async () => {
    // As a template saved before compiles had a deadline, or on a faster machine. This format reads the source with
    // TypeScript's parser, not sucrase's.
    const stored = await createUserTemplate(user.accountId, {
      name: "Stored bomb",
      description: "",
      code: TYPESCRIPT_BOMB,
      compiledCode: (compileTemplate(HELLO) as { code: string }).code,
      variables: OPEN_VARIABLES_SCHEMA,
      previewProps: null,
    });
    const render = () =>
      call(postRender, `/api/v1/templates/${stored.id}/render`, {
        method: "POST",
        params: { id: stored.id },
        headers: auth(user),
        body: { format: "react", variables: {} },
      });
    const { outcome, elapsedMs } = await alongsideUsage(render);
    const result = (outcome as PromiseFulfilledResult<CallResult>).value;
    expect({ status: result.status, body: result.body }).toEqual({
      status: 422,
      body: { error: "Template render failed", code: "RENDER_ERROR", message: PARSE_DEADLINE, success: false },
    });
    expect(elapsedMs).toBeLessThan(STOPPED_WITHIN_MS);
  });

  it("one account's slow sources hold up another account's compile by at most one deadline", async () => {
    const order: string[] = [];
    const track = (label: string, promise: Promise<unknown>) => promise.then(() => order.push(label));
    const attacks = [1, 2, 3].map((n) => track(`bomb ${n}`, compileTemplateOffThread(user.accountId, TYPESCRIPT_BOMB)));
    const started = Date.now();
    const hello = compileTemplateOffThread(bystander.accountId, HELLO);
    await track("hello", hello);
    const helloMs = Date.now() - started;
    await Promise.all(attacks);
    expect(await hello).toEqual({ ok: true, code: expect.stringContaining("Hello"), variables: HELLO_VARIABLES });
    // Two workers: bombs 1 and 2 run into the deadline, then the other account goes before bomb 3.
    expect(order.indexOf("hello")).toBeLessThan(order.indexOf("bomb 3"));
    expect(helloMs).toBeLessThan(2500);
  });
});

describe("functions nested in parameter defaults past MAX_PARAMETER_NESTING", () => {
  it("are refused before sucrase reads them, with where; at the limit they compile", async () => {
    const refusal = {
      ok: false,
      message: `Functions are nested in parameter defaults more than ${MAX_PARAMETER_NESTING} deep here: move a default into the function's body`,
      line: 2,
      column: "const x = ".length + "(a: number, b = ".length * MAX_PARAMETER_NESTING + "(".length + 1,
    };
    expect(await compileTemplateOffThread(user.accountId, SUCRASE_BOMB)).toEqual(refusal);
    const atLimit = SUCRASE_BOMB.replace(nestedDefaults(23), nestedDefaults(MAX_PARAMETER_NESTING));
    expect(await compileTemplateOffThread(user.accountId, atLimit)).toEqual({
      ok: true,
      code: expect.stringContaining("Bomb"),
      variables: expect.any(Object),
    });
    const preview = await call(postPreview, "/api/dashboard/templates/preview", {
      method: "POST",
      headers: browser,
      body: { code: SUCRASE_BOMB, variables: null },
    });
    expect({ status: preview.status, body: preview.body }).toEqual({ status: 200, body: refusal });
  });
});

describe("a template's source is capped", () => {
  it(`compiles a source of exactly ${MAX_TEMPLATE_SOURCE_CHARS.toLocaleString("en-US")} characters and refuses one more`, async () => {
    const owner = (await createUser("free")).accountId;
    const atCap = `${HELLO}//${"x".repeat(MAX_TEMPLATE_SOURCE_CHARS - HELLO.length - 2)}`;
    expect(atCap.length).toBe(MAX_TEMPLATE_SOURCE_CHARS);
    expect(await compileTemplateOffThread(owner, atCap)).toEqual({
      ok: true,
      code: expect.stringContaining("Hello"),
      variables: HELLO_VARIABLES,
    });
    expect(await compileTemplateOffThread(owner, `${atCap}x`)).toEqual({
      ok: false,
      message: `Template source is larger than ${MAX_TEMPLATE_SOURCE_CHARS} characters`,
      line: 1,
      column: 1,
    });
  });
});

describe("the compile queue is bounded and fair", () => {
  const busy = (message: string) => ({
    status: 503,
    headers: { "Retry-After": "1" },
    body: { error: "Template sandbox busy", code: "SANDBOX_BUSY", success: false, message },
  });
  /** A refusal as the client sees it, or what a compile that went ahead answered. */
  const outcome = (promise: Promise<unknown>) =>
    promise.then(
      (result) => ({ compiled: result }),
      (error: unknown) => (error instanceof AppError ? httpError(error) : { failed: String(error) }),
    );

  it("refuses an account's compile past its cap, and at the cap in all, past its fair share (503 SANDBOX_BUSY); drops one whose request is aborted", async () => {
    const storedHello = async (owner: TestUser) =>
      createUserTemplate(owner.accountId, {
        name: "Hello",
        description: "",
        code: HELLO,
        compiledCode: (compileTemplate(HELLO) as { code: string }).code,
        variables: OPEN_VARIABLES_SCHEMA,
        previewProps: null,
      });
    const [usersHello, bystandersHello] = [await storedHello(user), await storedHello(bystander)];
    const reactRender = (caller: TestUser, id: string) =>
      call(postRender, `/api/v1/templates/${id}/render`, {
        method: "POST",
        params: { id },
        headers: auth(caller),
        body: { format: "react", variables: {} },
      });
    const queued: Promise<unknown>[] = [];
    // Two sources that run to the deadline hold both workers for a second; the 30 sources queued behind them wait.
    for (const owner of ["hog-a", "hog-b", "hog-c"]) {
      for (let i = 0; i < 8; i++)
        queued.push(outcome(compileTemplateOffThread(owner, owner === "hog-a" && i < 2 ? TYPESCRIPT_BOMB : HELLO)));
    }
    for (let i = 0; i < 7; i++) queued.push(outcome(compileTemplateOffThread(user.accountId, HELLO)));
    const abandoned = new AbortController();
    const abandonedCompile = outcome(compileTemplateOffThread(user.accountId, HELLO, abandoned.signal));
    // 32 in all, 8 of them the user's: the user's next is refused.
    const usersNext = await reactRender(user, usersHello.id);
    // The abandoned compile leaves the line, and its place goes to the user's next.
    abandoned.abort(new Error("The client went away"));
    const afterAbort = outcome(compileTemplateOffThread(user.accountId, HELLO));
    // 32 in all again, held by four accounts: another account goes in, up to its share (32 ÷ 5), and so does a sixth.
    const newcomer = Array.from({ length: 7 }, () => outcome(compileTemplateOffThread("newcomer", HELLO)));
    const bystanders = await reactRender(bystander, bystandersHello.id);
    const hello = {
      compiled: { ok: true, code: (compileTemplate(HELLO) as { code: string }).code, variables: HELLO_VARIABLES },
    };
    expect({
      usersNext: {
        status: usersNext.status,
        headers: { "Retry-After": usersNext.headers.get("retry-after") },
        body: usersNext.body,
      },
      abandoned: await abandonedCompile,
      afterAbort: await afterAbort,
      newcomer: await Promise.all(newcomer),
      bystanders: { status: bystanders.status, body: bystanders.body },
    }).toEqual({
      usersNext: busy("This account already has 8 compiles waiting; try again in a moment."),
      abandoned: { failed: "Error: The client went away" },
      afterAbort: hello,
      newcomer: [
        ...Array.from({ length: 6 }, () => hello),
        busy("The template compiler is busy with other compiles; try again in a moment."),
      ],
      bystanders: { status: 200, body: { success: true, react: applyVariablesToSource(HELLO, {}) } },
    });
    await Promise.all(queued);
  }, 20_000);
});
