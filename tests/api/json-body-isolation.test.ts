import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { POST as postPreview } from "@/app/api/dashboard/templates/preview/route";
import { POST as postDashboardRender } from "@/app/api/dashboard/templates/[id]/render/route";
import { POST as postSendBatch } from "@/app/api/v1/send/batch/route";
import { POST as postSend } from "@/app/api/v1/send/route";
import { POST as postTemplates } from "@/app/api/v1/templates/route";
import { POST as postRender } from "@/app/api/v1/templates/[id]/render/route";
import { GET as getUsage } from "@/app/api/v1/usage/route";
import { createUserTemplate } from "@/lib/templates/data/user-templates";
import { compileTemplate } from "@/lib/render/sandbox/compile";
import { OPEN_VARIABLES_SCHEMA } from "@/lib/templates/variables-schema";
import {
  auth,
  BASE,
  call,
  createUser,
  sender,
  sessionCookie,
  setApiCallsUsed,
  type CallResult,
  type Sender,
  type TestUser,
} from "../support/api";
import { ISSUE_VARIABLES, VARIABLES_AT_THE_CAPS } from "../support/json-shapes";

// Issue 43: one body of 700,000 object keys (8 MB, under every cap of the time) held the event loop for seconds on
// every route that reads JSON, and another account's GET /usage waited as long. The contract: while any request is
// being processed, a GET /usage from another account answers within 1 second. Here the bodies of the issue, and the
// costliest the caps now take, are sent in process while another account polls GET /usage.

const HELLO = `import { Html, Text } from "@react-email/components";
export default function Hello({ name = "there" }: { name?: string }) {
  return <Html><Text>Hello {name}</Text></Html>;
}
`;

let attacker: Sender;
let bystander: TestUser;
/** A template of the attacker's own that takes any variables: an accepted body goes on to the sandbox. */
let openTemplateId: string;

beforeAll(async () => {
  attacker = await sender("monthly");
  bystander = await createUser("monthly");
  const open = await createUserTemplate(attacker.accountId, {
    name: "Open",
    description: "",
    code: HELLO,
    compiledCode: (compileTemplate(HELLO) as { code: string }).code,
    variables: OPEN_VARIABLES_SCHEMA,
    previewProps: null,
  });
  openTemplateId = open.id;
});

/**
 * Runs `operation` while the bystander asks GET /usage every 50 ms: how long the slowest of those answers took from
 * when it was due (a blocked event loop delays the timer as much as the answer), and their statuses.
 */
async function whileUsageIsPolled<T>(operation: () => Promise<T>) {
  let done = false;
  let longestWaitMs = 0;
  const statuses: number[] = [];
  const polling = (async () => {
    while (!done) {
      const due = performance.now() + 50;
      await new Promise((resolve) => setTimeout(resolve, 50));
      const usage = await call(getUsage, "/api/v1/usage", { headers: auth(bystander) });
      longestWaitMs = Math.max(longestWaitMs, performance.now() - due);
      statuses.push(usage.status);
    }
  })();
  const result = await operation();
  done = true;
  await polling;
  return { result, longestWaitMs, statuses };
}

const responseOf = ({ status, body }: CallResult) => ({ status, code: body?.code ?? null, success: body?.success });
const TOO_MANY_KEYS = { status: 400, code: "VALIDATION_ERROR", success: false };
const ACCEPTED = { status: 200, code: null, success: true };

describe("a body at or past the JSON caps keeps another account waiting less than a second", () => {
  it("on the API: the issue's 700,000 keys on each route and three at once, and the costliest accepted bodies", async () => {
    const email = (variables: string) =>
      `{"template_id":"${openTemplateId}","from":"hi@${attacker.domain}","to":"ann@example.com","subject":"Hi","variables":${variables}}`;
    const render = (variables: string) =>
      call(postRender, `/api/v1/templates/${openTemplateId}/render`, {
        method: "POST",
        params: { id: openTemplateId },
        headers: auth(attacker),
        body: `{"variables":${variables}}`,
      });
    const send = (variables: string) =>
      call(postSend, "/api/v1/send", {
        method: "POST",
        headers: { ...auth(attacker), "idempotency-key": randomUUID() },
        body: email(variables),
      });
    const batch = (variables: string) =>
      call(postSendBatch, "/api/v1/send/batch", {
        method: "POST",
        headers: auth(attacker),
        body: `{"emails":[${email(variables)}]}`,
      });
    const createTemplate = (files: string) =>
      call(postTemplates, "/api/v1/templates", {
        method: "POST",
        headers: auth(attacker),
        body: `{"name":"Keys","files":${files}}`,
      });

    const { result, longestWaitMs, statuses } = await whileUsageIsPolled(async () => {
      const responses = [];
      for (const hostile of [render, send, batch, createTemplate])
        responses.push(responseOf(await hostile(ISSUE_VARIABLES)));
      const together = await Promise.all([render, send, batch].map((hostile) => hostile(ISSUE_VARIABLES)));
      responses.push(...together.map(responseOf));
      responses.push(responseOf(await render(VARIABLES_AT_THE_CAPS.keysOnePerObject)));
      responses.push(responseOf(await send(VARIABLES_AT_THE_CAPS.shortStrings)));
      responses.push(responseOf(await batch(VARIABLES_AT_THE_CAPS.keysInOneObject)));
      return responses;
    });
    expect(result).toEqual([...Array(7).fill(TOO_MANY_KEYS), ACCEPTED, ACCEPTED, ACCEPTED]);
    expect({ longestWaitUnderASecond: longestWaitMs < 1000, allAnswered: statuses.every((s) => s === 200) }).toEqual({
      longestWaitUnderASecond: true,
      allAnswered: true,
    });
    expect(statuses.length).toBeGreaterThan(2);
  }, 120_000);

  it("on the dashboard's previews: the issue's free account past its month, and a preview of the costliest accepted body", async () => {
    const spent = await createUser("free");
    await setApiCallsUsed(spent, 500);
    const browser = async (user: TestUser) => ({ cookie: await sessionCookie(user.accountId), origin: BASE });
    const [spentBrowser, attackerBrowser] = [await browser(spent), await browser(attacker)];
    const preview = (headers: Record<string, string>, variables: string) =>
      call(postPreview, "/api/dashboard/templates/preview", {
        method: "POST",
        headers,
        body: `{"code":${JSON.stringify(HELLO)},"variables":${variables}}`,
      });
    const templatePreview = (headers: Record<string, string>, variables: string) =>
      call(postDashboardRender, `/api/dashboard/templates/${attacker.welcomeId}/render`, {
        method: "POST",
        params: { id: attacker.welcomeId },
        headers,
        body: `{"variables":${variables}}`,
      });

    const { result, longestWaitMs, statuses } = await whileUsageIsPolled(async () => {
      const responses = [];
      for (const hostile of [preview, templatePreview]) responses.push(await hostile(spentBrowser, ISSUE_VARIABLES));
      responses.push(await preview(attackerBrowser, ISSUE_VARIABLES));
      responses.push(await preview(attackerBrowser, VARIABLES_AT_THE_CAPS.keysInOneObject));
      responses.push(await templatePreview(attackerBrowser, VARIABLES_AT_THE_CAPS.shortStrings));
      return responses.map(({ status, body }) => ({ status, code: body?.code ?? null, ok: body?.ok ?? body?.success }));
    });
    expect(result).toEqual([
      { status: 429, code: "RATE_LIMIT_EXCEEDED", ok: undefined },
      { status: 429, code: "RATE_LIMIT_EXCEEDED", ok: undefined },
      { status: 400, code: "VALIDATION_ERROR", ok: false },
      { status: 200, code: null, ok: true },
      { status: 200, code: null, ok: true },
    ]);
    expect({ longestWaitUnderASecond: longestWaitMs < 1000, allAnswered: statuses.every((s) => s === 200) }).toEqual({
      longestWaitUnderASecond: true,
      allAnswered: true,
    });
    expect(statuses.length).toBeGreaterThan(2);
  }, 120_000);
});
