/**
 * One account's renders that run to their deadlines, and another account's renders of its own template meanwhile
 * (issue 43): the other account never waits behind them, and a worker killed at a deadline costs it no warm context.
 * Serial (vitest.config.ts): it times renders, and must have the machine and the sandbox's workers to itself.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { POST as postRender } from "@/app/api/v1/templates/[id]/render/route";
import { RENDER_DEADLINE_MS } from "@/lib/core/limits";
import { disposeSandboxes, getSandboxStats } from "@/lib/render/sandbox";
import { createTemplateFromSource } from "@/lib/templates/user-templates";
import { auth, call, createUser, type TestUser } from "../support/api";

const HELLO = `import { Html, Text } from "@react-email/components";
export default function Hello({ name = "there" }: { name?: string }) {
  return <Html><Text>Hello {name}</Text></Html>;
}
`;

/** A template that renders on its PreviewProps (so it saves) and runs `attack` when asked to. */
const hostile = (attack: string) => `import { Html, Text } from "@react-email/components";
export default function Hostile({ mode = "ok" }: { mode?: string }) {
  if (mode === "attack") { ${attack} }
  return <Html><Text>fine</Text></Html>;
}
Hostile.PreviewProps = { mode: "ok" };
`;

/** Stopped by the engine's interrupt at the deadline: the worker lives on. */
const LOOP = hostile("while (true) {}");
/** QuickJS polls its interrupt handler only between operations: stopped by the watchdog, which kills its worker. */
const SPREAD = hostile("const a = Array.from({ length: 1e6 }, () => 1); while (true) { const b = [...a]; }");

const DEADLINE_RESPONSE = {
  error: "Template render failed",
  code: "RENDER_ERROR",
  message: "Template exceeded the render deadline",
  success: false,
};

let attacker: TestUser;
let bystander: TestUser;
let ids: { hello: string; loop: string; spread: string };

beforeAll(async () => {
  [attacker, bystander] = [await createUser("monthly"), await createUser("monthly")];
  const save = (user: TestUser, name: string, code: string) =>
    createTemplateFromSource(user.accountId, { name, description: "", code }).then(({ id }) => id);
  ids = {
    hello: await save(bystander, "Hello", HELLO),
    loop: await save(attacker, "Loop", LOOP),
    spread: await save(attacker, "Spread", SPREAD),
  };
});

function render(user: TestUser, id: string, variables: Record<string, unknown>) {
  return call(postRender, `/api/v1/templates/${id}/render`, {
    method: "POST",
    params: { id },
    headers: auth(user),
    body: { variables },
  });
}

/** The bystander's render of its own template: its status and how long it took. */
async function timedHello(): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const { status } = await render(bystander, ids.hello, { name: "Ada" });
  return { status, ms: performance.now() - started };
}

describe("one account's renders that run to their deadlines", () => {
  it(
    "never hold every worker: another account's render of its own template answers in a fraction of a deadline",
    { timeout: 60_000 },
    async () => {
      for (let i = 0; i < 3; i++) expect((await timedHello()).status).toBe(200);
      // Six renders at a time, each of them running to its deadline, for as long as the other account renders.
      let attacking = true;
      const attackResponses: unknown[] = [];
      const attack = async () => {
        while (attacking) attackResponses.push((await render(attacker, ids.loop, { mode: "attack" })).body);
      };
      const attacks = Array.from({ length: 6 }, attack);
      // Until every worker has had one of them, as the other account's renders begin.
      await new Promise((resolve) => setTimeout(resolve, RENDER_DEADLINE_MS / 2));
      const during: { status: number; ms: number }[] = [];
      for (let i = 0; i < 12; i++) during.push(await timedHello());
      attacking = false;
      await Promise.all(attacks);
      const times = during.map(({ ms }) => ms).sort((a, b) => a - b);
      console.log(`[noisy neighbour] the other account's renders meanwhile, in ms: ${times.map(Math.round).join(" ")}`);
      expect({
        statuses: [...new Set(during.map(({ status }) => status))],
        // Today's figures on this kind of machine: 10 to 60 ms; behind the deadlines, 1.8 to 2.7 s.
        slowestUnderADeadline: times.at(-1)! < RENDER_DEADLINE_MS,
        medianUnderAQuarter: times[times.length >> 1] < RENDER_DEADLINE_MS / 4,
        attackResponses: [...new Set(attackResponses.map((body) => JSON.stringify(body)))].map((body) =>
          JSON.parse(body),
        ),
      }).toEqual({
        statuses: [200],
        slowestUnderADeadline: true,
        medianUnderAQuarter: true,
        attackResponses: [DEADLINE_RESPONSE],
      });
    },
  );

  it(
    "kill a worker only at the watchdog, and that costs another account none of its warm contexts",
    { timeout: 60_000 },
    async () => {
      // Fresh workers: the other account's template is warm on the first, where the attacker's render goes next.
      await disposeSandboxes();
      for (let i = 0; i < 2; i++) expect((await timedHello()).status).toBe(200);
      const before = getSandboxStats();
      const killed = await render(attacker, ids.spread, { mode: "attack" });
      // Its contexts are made again off the other account's path: wait for that before its next render.
      await new Promise((resolve) => setTimeout(resolve, 50));
      for (let waited = 0; getSandboxStats().queued > 0 && waited < 10_000; waited += 25) {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      const afterKill = getSandboxStats();
      const next = await timedHello();
      const afterNext = getSandboxStats();
      expect({
        killed: { status: killed.status, body: killed.body },
        watchdogKills: afterKill.watchdogKills - before.watchdogKills,
        next: next.status,
        // The next render found its context warm: it made none.
        contextsItMade: afterNext.contextsCreated - afterKill.contextsCreated,
        warmRenders: afterNext.rendersInWarmContext - afterKill.rendersInWarmContext,
      }).toEqual({
        killed: { status: 422, body: DEADLINE_RESPONSE },
        watchdogKills: 1,
        next: 200,
        contextsItMade: 0,
        warmRenders: 1,
      });
    },
  );
});
