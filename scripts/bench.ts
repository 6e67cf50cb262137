import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { render } from "@react-email/render";
import { createElement } from "react";
import { getCatalogueEntry } from "@/lib/catalogue";
import { LOCAL_SESSION_COOKIE, SESSION_MAX_AGE_SECONDS, createLocalSessionToken } from "@/lib/auth/session";
import { resetConfig } from "@/lib/config";
import { createAccount } from "@/lib/db/accounts";
import { createApiKey } from "@/lib/db/api-keys";
import { closeDb, getDb } from "@/lib/db/client";
import { addSendingDomain } from "@/lib/db/domains";
import { addLibraryEntry } from "@/lib/db/library";
import { createSession } from "@/lib/db/sessions";
import { startEmbeddedDatabase } from "@/lib/db/embedded";
import { renderCatalogueOffThread, stopCatalogueWorkers } from "@/lib/render/catalogue-pool";
import { createTemplateFromSource, replaceTemplateFromSource } from "@/lib/user-templates";
import { measureColdStart, reportColdStart, standaloneBuildProblem, type ColdStartResult } from "./lib/cold-start";
import { prepareDatabase } from "../bin/database";
import {
  findPostgresBinDir,
  freePort,
  startThrowawayPostgres,
  stopThrowawayPostgresSync,
  type ThrowawayPostgres,
} from "./pg-throwaway";

// npm run bench [-- --duration S --rounds N --settle S --warmup S --connections N --only a,b --embedded --cpu-prof DIR]
// Serves the built app (`next start`) on PostgreSQL and measures each scenario with autocannon in one run, in short
// windows interleaved with windows of bare (see below). The database: DATABASE_URL when given, else a throwaway
// PostgreSQL 15 cluster when its binaries are installed, else the embedded database (in memory, in a child process).
// The last line of output is one JSON object keyed by scenario: { rps, p50_ms, p99_ms, ratio_to_bare }, plus
// hostile_max_ms for isolation (the library load while two more connections send the worst inputs in turn),
// p97_5_ms for noisy_neighbour (own-template renders while another account's renders run to their deadlines), and
// cold_start: fresh standalone servers' first answers (scripts/lib/cold-start.ts; needs LETTERPRESS_STANDALONE=1's build).

type Fixture = {
  key: string;
  welcomeId: string;
  userTemplateId: string;
  /** The same template as userTemplateId's, in its 100th published version. */
  versionedTemplateId: string;
  tailwindTemplateId: string;
  sendFrom: string;
  /** Another account, which sends the isolation and noisy_neighbour scenarios' hostile requests. */
  attacker: { key: string; cookie: string; newsletterId: string; userTemplateId: string; deadlineTemplateId: string };
};

type Probe = { status: number; body: unknown };

type Scenario = {
  name: string;
  description: string;
  method: "GET" | "POST";
  path: (f: Fixture) => string;
  auth: boolean;
  body?: (f: Fixture) => unknown;
  /**
   * The target: throughput as a share of bare's, on Node 20 and on Node 24. Node 24 serves bare about 1.7× as fast, so
   * every scenario is faster there yet a smaller share of bare.
   */
  target?: { node20: number; node24: number };
  /** Requests sent by two more connections, in turn, while the scenario's load is measured. */
  hostile?: (f: Fixture) => HostileRequest[];
  /** Latency targets instead of a throughput one: p99 of the scenario's own requests, and the slowest hostile answer. */
  latencyTarget?: { p99Ms: number; hostileMaxMs: number };
  /** Connections sending the hostile requests (two when not given). */
  hostileConnections?: number;
  /** Connections sending the scenario's own requests, when not --connections. */
  connections?: number;
  /**
   * A floor on the wait of the scenario's own requests: their p97.5 latency, which bounds their wait for a worker at
   * p95 (autocannon reports no p95).
   */
  waitFloor?: { p97_5Ms: number };
  /** Emails each request sends: its emails per second are reported against `send`'s. */
  emailsPerRequest?: number;
};

type HostileRequest = { name: string; path: string; headers: Record<string, string>; body: string };

const BATCH_SIZE = 10;

// Add a scenario here and it is measured, printed and reported in the JSON line.
const SCENARIOS: Scenario[] = [
  {
    name: "bare",
    description: "GET /api/health (no database, no auth)",
    method: "GET",
    path: () => "/api/health",
    auth: false,
  },
  {
    name: "library",
    description: "GET /api/v1/library",
    method: "GET",
    path: () => "/api/v1/library",
    auth: true,
    target: { node20: 0.6, node24: 0.9 },
  },
  {
    name: "render_catalogue",
    description: "POST /api/v1/templates/{welcome}/render",
    method: "POST",
    path: (f) => `/api/v1/templates/${f.welcomeId}/render`,
    auth: true,
    target: { node20: 0.5, node24: 0.45 },
    body: () => ({ variables: { userName: "Ada", productName: "Letterpress" } }),
  },
  {
    name: "render_user",
    description: "POST /api/v1/templates/{user template}/render (sandboxed)",
    method: "POST",
    path: (f) => `/api/v1/templates/${f.userTemplateId}/render`,
    auth: true,
    target: { node20: 0.35, node24: 0.35 },
    body: () => ({ variables: { name: "Ada" } }),
  },
  {
    name: "render_user_100",
    description: "POST /api/v1/templates/{user template of 100 versions}/render (its published version 100)",
    method: "POST",
    path: (f) => `/api/v1/templates/${f.versionedTemplateId}/render`,
    auth: true,
    target: { node20: 0.35, node24: 0.35 },
    body: () => ({ variables: { name: "Ada" } }),
  },
  {
    name: "render_user_v1",
    description: 'POST /api/v1/templates/{user template of 100 versions}/render with "version": 1',
    method: "POST",
    path: (f) => `/api/v1/templates/${f.versionedTemplateId}/render`,
    auth: true,
    target: { node20: 0.35, node24: 0.35 },
    body: () => ({ version: 1, variables: { name: "Ada" } }),
  },
  {
    name: "render_tailwind",
    description: "POST /api/v1/templates/{user template with <Tailwind>}/render (sandboxed)",
    method: "POST",
    path: (f) => `/api/v1/templates/${f.tailwindTemplateId}/render`,
    auth: true,
    target: { node20: 0.25, node24: 0.2 },
    body: () => ({ variables: { name: "Ada", plan: "Pro" } }),
  },
  {
    name: "send",
    description: "POST /api/v1/send (embedded outbox)",
    method: "POST",
    path: () => "/api/v1/send",
    auth: true,
    target: { node20: 0.35, node24: 0.3 },
    body: (f) => ({
      template_id: f.welcomeId,
      from: f.sendFrom,
      to: "reader@example.com",
      subject: "Welcome to Letterpress",
      variables: { userName: "Ada" },
    }),
  },
  {
    name: "send_batch",
    description: `POST /api/v1/send/batch of ${BATCH_SIZE} emails (embedded outbox)`,
    method: "POST",
    path: () => "/api/v1/send/batch",
    auth: true,
    emailsPerRequest: BATCH_SIZE,
    body: (f) => ({
      emails: Array.from({ length: BATCH_SIZE }, (_, i) => ({
        template_id: f.welcomeId,
        from: f.sendFrom,
        to: `reader-${i}@example.com`,
        subject: "Welcome to Letterpress",
        variables: { userName: "Ada" },
      })),
    }),
  },
  {
    name: "isolation",
    description: "GET /api/v1/library while two more connections send the worst inputs in turn",
    method: "GET",
    path: () => "/api/v1/library",
    auth: true,
    hostile: hostileRequests,
    latencyTarget: { p99Ms: 150, hostileMaxMs: 2000 },
  },
  {
    // Issue 43: one account's renders that each ran to the deadline held every sandbox worker, and another account's
    // renders of its own template, about 12 ms, took 1.2 to 2.75 s.
    name: "noisy_neighbour",
    description:
      "POST /api/v1/templates/{user template}/render, 4 connections, while another account's 6 render a template that runs to its deadline",
    method: "POST",
    path: (f) => `/api/v1/templates/${f.userTemplateId}/render`,
    auth: true,
    body: () => ({ variables: { name: "Ada" } }),
    // A few renders at a time: with --connections' 20 the renders would mostly wait for one another.
    connections: 4,
    hostile: noisyNeighbourRequests,
    hostileConnections: 6,
    waitFloor: { p97_5Ms: 250 },
  },
];

/** A render of the attacker's template that loops until the sandbox's deadline stops it (422 after about 1 s). */
function noisyNeighbourRequests(f: Fixture): HostileRequest[] {
  return [
    {
      name: "render to the deadline",
      path: `/api/v1/templates/${f.attacker.deadlineTemplateId}/render`,
      headers: { "x-api-key": f.attacker.key, "content-type": "application/json" },
      body: JSON.stringify({ variables: { mode: "loop" } }),
    },
  ];
}

/** The inputs that once stalled the server (issue 18), built once: a few of them take a while to build. */
function hostileRequests(f: Fixture): HostileRequest[] {
  const api = { "x-api-key": f.attacker.key, "content-type": "application/json" };
  const render = (id: string) => `/api/v1/templates/${id}/render`;
  // 29 levels of arrays around 4.9 million zeros: about 9.8 MB, under the 10 MB body cap.
  const zeros = 4_900_000;
  const nested = `{"variables":{"n":${"[".repeat(29)}${"0,".repeat(zeros - 1)}0${"]".repeat(29)}}}`;
  let bomb = "1";
  for (let depth = 0; depth < 23; depth++) bomb = `(a: number, b = ${bomb}) => 1`;
  const bombSource = `const x = ${bomb};\nexport default function Bomb() { return null; }\n`;
  // Issue 43: 700,000 object keys, about 8 MB (JSON.parse takes 40 to 70 times as long per key as per array item).
  const manyKeys = `{"variables":{${Array.from({ length: 700_000 }, (_, i) => `"k${i}":0`).join(",")}}}`;
  const articles = Array.from({ length: 110_000 }, (_, i) => ({
    title: `Article ${i}`,
    summary: "s",
    url: `https://example.com/${i}`,
  }));
  return [
    {
      name: "long from",
      path: "/api/v1/send",
      headers: api,
      body: JSON.stringify({
        template_id: f.welcomeId,
        to: "reader@example.com",
        subject: "Hi",
        from: `${" ".repeat(5000)}<`,
      }),
    },
    { name: "nested 9.8 MB body", path: render(f.welcomeId), headers: api, body: nested },
    { name: "many_keys", path: render(f.welcomeId), headers: api, body: manyKeys },
    // Just under the 1 MB cap on variables, to a template of the attacker's own that takes any text: rendered in the sandbox.
    {
      name: "1 MB of variables",
      path: render(f.attacker.userTemplateId),
      headers: api,
      body: JSON.stringify({ variables: { name: "x".repeat(999_000) } }),
    },
    {
      name: "compile bomb",
      path: "/api/dashboard/templates/preview",
      headers: { cookie: f.attacker.cookie, "content-type": "application/json" },
      body: JSON.stringify({ code: bombSource, variables: null }),
    },
    {
      name: "110,000 articles",
      path: render(f.attacker.newsletterId),
      headers: api,
      body: JSON.stringify({ variables: { unsubscribeUrl: "https://example.com/u", articles } }),
    },
  ];
}

type HostileResult = { name: string; status: number | "error"; ms: number };

/** `connections` sending `requests` in turn until stopped; each answer's status and time. */
function startAttack(
  base: string,
  requests: HostileRequest[],
  connections = 2,
): { stop: () => Promise<HostileResult[]> } {
  const results: HostileResult[] = [];
  let stopping = false;
  let next = 0;
  const attacker = async () => {
    while (!stopping) {
      const request = requests[next++ % requests.length]!;
      const started = performance.now();
      let status: HostileResult["status"];
      try {
        const response = await fetch(base + request.path, {
          method: "POST",
          headers: request.headers,
          body: request.body,
          signal: AbortSignal.timeout(30_000),
        });
        await response.arrayBuffer();
        status = response.status;
      } catch {
        status = "error";
      }
      results.push({ name: request.name, status, ms: performance.now() - started });
    }
  };
  const running = Array.from({ length: connections }, attacker);
  return {
    stop: async () => {
      stopping = true;
      await Promise.all(running);
      return results;
    },
  };
}

const USER_TEMPLATE_SOURCE = `import * as React from "react";
import { Body, Container, Heading, Html, Text } from "@react-email/components";

export default function Hello({ name = "there" }: { name?: string }) {
  return (
    <Html>
      <Body style={{ fontFamily: "sans-serif" }}>
        <Container>
          <Heading>Hello {name}</Heading>
          <Text>This template was written by a user and renders in the sandbox.</Text>
        </Container>
      </Body>
    </Html>
  );
}
`;

/** A user's template as React Email's examples write them: Tailwind with pixelBasedPreset, responsive classes. */
const TAILWIND_TEMPLATE_SOURCE = `import { Body, Button, Container, Head, Heading, Hr, Html, Link, Preview, Section, Tailwind, Text, pixelBasedPreset } from "@react-email/components";

export default function Welcome({ name = "there", plan = "Free" }: { name?: string; plan?: string }) {
  return (
    <Html lang="en">
      <Tailwind config={{ presets: [pixelBasedPreset], theme: { extend: { colors: { brand: "#007291" } } } }}>
        <Head />
        <Preview>Welcome to Acme</Preview>
        <Body className="mx-auto my-auto bg-white px-2 font-sans">
          <Container className="mx-auto my-[40px] max-w-[465px] rounded border border-solid border-[#eaeaea] p-[20px]">
            <Heading className="mx-0 my-[30px] p-0 text-center text-[24px] font-normal text-black sm:text-3xl">
              Welcome, <strong>{name}</strong>
            </Heading>
            <Text className="text-[14px] leading-[24px] text-black">You are on the {plan} plan.</Text>
            <Section className="mt-[32px] mb-[32px] text-center">
              <Button className="rounded bg-brand px-5 py-3 text-center text-[12px] font-semibold text-white no-underline hover:bg-black" href="https://example.com/start">
                Get started
              </Button>
            </Section>
            <Hr className="mx-0 my-[26px] w-full border border-solid border-[#eaeaea]" />
            <Text className="text-[12px] leading-[24px] text-[#666666]">
              Sent by <Link className="text-blue-600 no-underline" href="https://example.com">Acme</Link>.
            </Text>
          </Container>
        </Body>
      </Tailwind>
    </Html>
  );
}
`;

/** The attacker's template of the noisy_neighbour scenario: on its PreviewProps it renders (so it saves), asked to it loops. */
const DEADLINE_TEMPLATE_SOURCE = `import { Html, Text } from "@react-email/components";

export default function Loop({ mode = "once" }: { mode?: string }) {
  while (mode === "loop") {}
  return <Html><Text>Looped {mode}</Text></Html>;
}

Loop.PreviewProps = { mode: "once" };
`;

const log = (line: string) => console.log(line);
const NODE_MAJOR = Number(process.versions.node.split(".")[0]);

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      // Seconds of measured load per scenario, split into `rounds` windows spread over the run.
      duration: { type: "string", default: "10" },
      rounds: { type: "string", default: "5" },
      // Seconds of unmeasured load on a route before each of its windows.
      settle: { type: "string", default: "1" },
      // Seconds of load on each route before any is measured.
      warmup: { type: "string", default: "5" },
      connections: { type: "string", default: "20" },
      only: { type: "string" },
      embedded: { type: "boolean", default: false },
      // Writes a V8 CPU profile of the server to DIR when it stops (open it in Chrome DevTools).
      "cpu-prof": { type: "string" },
      // Fresh standalone instances per kind of first request (scripts/lib/cold-start.ts); `--only` without cold_start
      // skips them.
      "cold-start-rounds": { type: "string", default: "3" },
    },
  });
  const duration = Number(values.duration);
  const warmup = Number(values.warmup);
  const connections = Number(values.connections);
  const rounds = Number(values.rounds);
  const settle = Number(values.settle);
  if (
    !(duration > 0) ||
    !(warmup >= 0) ||
    !(settle >= 0) ||
    ![connections, rounds].every((n) => Number.isInteger(n) && n >= 1)
  ) {
    console.error(
      "bench: --duration, --warmup and --settle must be numbers of seconds (duration positive), --connections and --rounds positive integers",
    );
    return 2;
  }
  const only = values.only ? new Set(["bare", ...values.only.split(",")]) : null;
  const unknown = [...(only ?? [])].filter((name) => name !== "cold_start" && !SCENARIOS.some((s) => s.name === name));
  if (unknown.length > 0) {
    console.error(
      `bench: unknown scenario ${unknown.join(", ")}; scenarios: ${SCENARIOS.map((s) => s.name).join(", ")}, cold_start`,
    );
    return 2;
  }
  const cleanups: (() => Promise<void> | void)[] = [];
  const cleanUp = async () => {
    for (const fn of cleanups.reverse().splice(0)) await fn();
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => void cleanUp().then(() => process.exit(130)));
  }

  const [load] = os.loadavg();
  log(
    `Machine: Node ${process.version}, ${os.cpus().length} cores, load average ${load.toFixed(2)}${load > 0.5 ? " (other work is running: figures will be lower and noisier)" : ""}`,
  );
  try {
    await ensureBuild();
    const database = await startDatabase(cleanups, values.embedded);
    log(`Database: ${database}`);

    // Shared with the server: the bench signs the attacker's session cookie.
    process.env.SESSION_SECRET ??= "bench-session-secret-0123456789abcdef0123456789";
    resetConfig();
    await prepareDatabase({ alwaysSeed: true, log: (line) => log(`  ${line}`) });
    const fixture = await createFixture();
    await closeDb();

    const { floor, worker } = await measureRenderCostsInProduction();
    log(
      `Render floor: @react-email/render render() of the welcome template in-process: ${floor.toFixed(3)} ms per call (200 calls, production React)`,
    );
    log(
      `  the app's render worker (lib/render/catalogue-pool.ts, the same bytes), one render at a time, hop included: ${worker.toFixed(3)} ms per call`,
    );

    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const { child: server, output: serverOutput } = await startNext(port, cleanups, values["cpu-prof"]);
    log(
      `next start on ${base} (pid ${server.pid}); autocannon -c ${connections}, ${duration} s per scenario in ${rounds} windows of ${round(duration / rounds, 2)} s, each between two windows of bare, after ${warmup} s of warm-up on each route`,
    );
    log("");

    const results: Record<
      string,
      {
        rps: number;
        p50_ms: number;
        p99_ms: number;
        ratio_to_bare: number;
        hostile_max_ms?: number;
        p97_5_ms?: number;
        emails_per_s?: number;
        emails_per_s_to_send?: number;
      }
    > = {};
    const failures: string[] = [];
    const runnable: { scenario: Scenario; request: Request }[] = [];
    for (const scenario of SCENARIOS) {
      if (only && !only.has(scenario.name)) continue;
      const request: Request = {
        method: scenario.method,
        url: base + scenario.path(fixture),
        headers: {
          ...(scenario.auth ? { "x-api-key": fixture.key } : {}),
          ...(scenario.body ? { "content-type": "application/json" } : {}),
        },
        body: scenario.body ? JSON.stringify(scenario.body(fixture)) : undefined,
      };
      const probe = await probeOnce(request);
      if (probe.status < 200 || probe.status > 299) {
        failures.push(`${scenario.name}: probe answered ${probe.status} ${JSON.stringify(probe.body)}`);
        log(`${scenario.name.padEnd(17)} FAILED: probe answered ${probe.status} ${JSON.stringify(probe.body)}`);
        continue;
      }
      runnable.push({ scenario, request });
    }

    // Warm every route before measuring any (modules, pools, JIT), so the first scenario measured (bare) is not the
    // only one served by a cold process. Render and send routes keep V8's optimising compiler busy for a while: its
    // helper threads took 43% of a core in the first 5 s of render_catalogue load and 15% by 20-25 s, and on 2 cores
    // that time comes out of the measurement.
    for (const { scenario, request } of runnable) {
      await runAutocannon(request, scenario.connections ?? connections, warmup);
    }

    // This machine's speed drifts during a run (other tenants of the host), by as much as a third between minutes,
    // and the heavier scenarios, which keep both cores busy, lose more than bare when it is slow. So each scenario is
    // measured in `rounds` short windows spread over the whole run, each between two windows of bare:
    //   bare A bare B bare C … | bare A bare B … | … | bare
    // A window's ratio is its requests per second over the mean of the bare windows on either side, and a scenario's
    // ratio is the mean of its windows' requests per second over the mean of their bare neighbours'. A slow minute
    // then lands on one window of every scenario instead of on the whole of one.
    const bare = runnable.find(({ scenario }) => scenario.name === "bare");
    if (!bare) throw new Error(`bare did not answer, so there is nothing to compare with: ${failures.join("; ")}`);
    const others = runnable.filter((entry) => entry !== bare);
    const windowSeconds = duration / rounds;
    type Window = { rps: number; p50: number; p97_5: number; p99: number; total: number };
    const hostileBodies = new Map(
      runnable.flatMap(({ scenario }) => (scenario.hostile ? [[scenario, scenario.hostile(fixture)] as const] : [])),
    );
    const hostileResults = new Map<Scenario, HostileResult[]>(
      [...hostileBodies.keys()].map((scenario) => [scenario, []]),
    );
    const bareWindows: Window[] = [];
    const windows = new Map<Scenario, { window: Window; bareBefore: number }[]>(
      others.map(({ scenario }) => [scenario, []]),
    );
    const errorCounts = new Map<Scenario, ErrorCounts>(
      runnable.map(({ scenario }) => [
        scenario,
        { non2xx: 0, "4xx": 0, "5xx": 0, errors: 0, timeouts: 0, total: 0, statuses: {} },
      ]),
    );
    const measureWindow = async ({ scenario, request }: (typeof runnable)[number]): Promise<Window> => {
      const counts = errorCounts.get(scenario)!;
      const load = async (seconds: number) => {
        const result = await runAutocannon(request, scenario.connections ?? connections, seconds);
        for (const key of ["non2xx", "4xx", "5xx", "errors", "timeouts"] as const) counts[key] += result[key];
        for (const [status, stats] of Object.entries(result.statusCodeStats ?? {})) {
          if (!status.startsWith("2")) counts.statuses[status] = (counts.statuses[status] ?? 0) + (stats?.count ?? 0);
        }
        counts.total += result.requests.total;
        return result;
      };
      // Switching routes costs the first moments of load (the previous route's garbage collected, code re-optimised
      // for the new route's types, a worker woken): that is not the route's throughput, so it is not measured.
      const hostile = hostileBodies.get(scenario);
      const attack = hostile ? startAttack(base, hostile, scenario.hostileConnections) : null;
      if (settle > 0) await load(settle);
      const result = await load(windowSeconds);
      if (attack) hostileResults.get(scenario)!.push(...(await attack.stop()));
      // Per-second samples would cut a window of a few seconds short; requests over the window's own length do not.
      return {
        rps: result.requests.total / result.duration,
        p50: result.latency.p50,
        p97_5: result.latency.p97_5,
        p99: result.latency.p99,
        total: result.requests.total,
      };
    };
    for (let r = 0; r < rounds; r++) {
      for (const entry of others) {
        bareWindows.push(await measureWindow(bare));
        windows.get(entry.scenario)!.push({ window: await measureWindow(entry), bareBefore: bareWindows.length - 1 });
      }
    }
    bareWindows.push(await measureWindow(bare));

    const mean = (values: number[]) => values.reduce((total, value) => total + value, 0) / values.length;
    const median = (values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b);
      const middle = Math.floor(sorted.length / 2);
      return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
    };
    // Latencies are the medians of the windows' own: one stall of the server or of autocannon moves a short
    // window's p99 a lot.
    const summarize = (list: Window[]) => ({
      rps: round(mean(list.map((w) => w.rps)), 1),
      p50_ms: round(median(list.map((w) => w.p50)), 2),
      p97_5_ms: round(median(list.map((w) => w.p97_5)), 2),
      p99_ms: round(median(list.map((w) => w.p99)), 2),
      total: list.reduce((total, w) => total + w.total, 0),
    });
    const report = (
      name: string,
      r: { rps: number; p50_ms: number; p99_ms: number },
      ratio: number | null,
      note: string,
    ) =>
      log(
        `${name.padEnd(17)} ${String(r.rps).padStart(8)} req/s  p50 ${String(r.p50_ms).padStart(6)} ms  ` +
          `p99 ${String(r.p99_ms).padStart(6)} ms  ${ratio === null ? "".padStart(14) : `${(ratio * 100).toFixed(1).padStart(5)}% of bare`}  (${note})`,
      );

    const bareSummary = summarize(bareWindows);
    results.bare = { rps: bareSummary.rps, p50_ms: bareSummary.p50_ms, p99_ms: bareSummary.p99_ms, ratio_to_bare: 1 };
    const bareSpread = `${Math.round(Math.min(...bareWindows.map((w) => w.rps)))}–${Math.round(Math.max(...bareWindows.map((w) => w.rps)))} req/s`;
    report(
      "bare",
      results.bare,
      null,
      `${bareSummary.total} requests in ${bareWindows.length} windows, ${bareSpread}; ${bare.scenario.description}`,
    );
    for (const { scenario } of others) {
      const list = windows.get(scenario)!;
      const summary = summarize(list.map(({ window }) => window));
      const bareAround = list.map(
        ({ bareBefore }) => (bareWindows[bareBefore]!.rps + bareWindows[bareBefore + 1]!.rps) / 2,
      );
      const ratio = round(summary.rps / mean(bareAround), 3);
      results[scenario.name] = {
        rps: summary.rps,
        p50_ms: summary.p50_ms,
        p99_ms: summary.p99_ms,
        ratio_to_bare: ratio,
        ...(scenario.waitFloor ? { p97_5_ms: summary.p97_5_ms } : {}),
      };
      const byWindow = list.map(({ window }, i) => `${((window.rps / bareAround[i]!) * 100).toFixed(0)}%`).join(" ");
      report(
        scenario.name,
        summary,
        ratio,
        `${summary.total} requests, by window ${byWindow}; ${scenario.description}`,
      );
      const hostile = hostileResults.get(scenario);
      if (hostile) {
        const hostileMax = Math.max(0, ...hostile.map((h) => h.ms));
        results[scenario.name]!.hostile_max_ms = round(hostileMax, 1);
        for (const name of new Set(hostile.map((h) => h.name))) {
          const mine = hostile.filter((h) => h.name === name);
          const statuses = [...new Set(mine.map((h) => h.status))].join(", ");
          log(
            `${"".padEnd(17)} hostile "${name}": ${mine.length} answered (${statuses}), slowest ${round(Math.max(...mine.map((h) => h.ms)), 1)} ms`,
          );
          const broken = mine.filter((h) => h.status === "error" || h.status >= 500);
          if (broken.length > 0)
            failures.push(`${scenario.name}: hostile "${name}" answered ${broken.map((h) => h.status).join(", ")}`);
        }
      }
    }
    for (const [scenario, counts] of errorCounts) {
      if (counts.non2xx + counts.errors + counts.timeouts === 0) continue;
      const message =
        `${scenario.name}: ${counts.non2xx} non-2xx responses (${Object.entries(counts.statuses)
          .map(([status, count]) => `${status} ×${count}`)
          .join(", ")}), ` + `${counts.errors} connection errors, ${counts.timeouts} timeouts out of ${counts.total}`;
      failures.push(message);
      log(`${"".padEnd(17)} ERRORS: ${message}`);
    }

    log("");
    for (const scenario of SCENARIOS) {
      const result = results[scenario.name];
      if (scenario.latencyTarget && result) {
        const { p99Ms, hostileMaxMs } = scenario.latencyTarget;
        // A server that answered nothing has a p99 of 0 in autocannon's figures: that is a stall, not a pass.
        const met = result.rps > 0 && result.p99_ms <= p99Ms && (result.hostile_max_ms ?? Infinity) <= hostileMaxMs;
        log(
          `${scenario.name.padEnd(17)} p99 ${result.p99_ms} ms (target ≤ ${p99Ms}), slowest hostile answer ${result.hostile_max_ms} ms ` +
            `(target ≤ ${hostileMaxMs}): ${met ? "met" : "NOT met"}`,
        );
      }
      if (scenario.waitFloor && result?.p97_5_ms !== undefined) {
        const { p97_5Ms } = scenario.waitFloor;
        const met = result.rps > 0 && result.p97_5_ms <= p97_5Ms;
        log(
          `${scenario.name.padEnd(17)} p97.5 ${result.p97_5_ms} ms (floor ≤ ${p97_5Ms}, so a p95 wait for a worker within it): ${met ? "met" : "NOT met"}`,
        );
      }
      if (scenario.emailsPerRequest && result) {
        result.emails_per_s = round(result.rps * scenario.emailsPerRequest, 1);
        const send = results.send;
        if (send) result.emails_per_s_to_send = round(result.emails_per_s / send.rps, 2);
        log(
          `${scenario.name.padEnd(17)} ${result.emails_per_s} emails/s` +
            (send ? `, ${result.emails_per_s_to_send}× send's ${send.rps} emails/s` : " (run send too to compare)"),
        );
      }
      const ratio = result?.ratio_to_bare;
      if (scenario.target === undefined || ratio === undefined) continue;
      const target = NODE_MAJOR >= 24 ? scenario.target.node24 : scenario.target.node20;
      const verdict = ratio >= target ? "met" : "NOT met";
      log(
        `${scenario.name.padEnd(17)} at ${(ratio * 100).toFixed(1)}% of bare (target on Node ${NODE_MAJOR} ≥ ${Math.round(target * 100)}%): ${verdict}`,
      );
    }
    const coldStartRounds = Number(values["cold-start-rounds"]);
    let coldStart: ColdStartResult | undefined;
    if ((!only || only.has("cold_start")) && coldStartRounds > 0) {
      const problem = standaloneBuildProblem(process.cwd());
      if (problem) log(`cold_start        skipped: ${problem}`);
      else {
        coldStart = await measureColdStart({
          root: process.cwd(),
          fixture: { key: fixture.key, catalogueTemplateId: fixture.welcomeId, userTemplateId: fixture.userTemplateId },
          env: Object.fromEntries(
            ["DATABASE_URL", "DATABASE_PREPARED_STATEMENTS", "SESSION_SECRET"].flatMap((name) =>
              process.env[name] ? [[name, process.env[name]!]] : [],
            ),
          ),
          rounds: coldStartRounds,
          log,
        });
        reportColdStart(coldStart, log);
      }
    }
    await cleanUp();
    for (const failure of failures) console.error(`bench: ${failure}`);
    if (failures.length > 0) {
      const errorLines = serverOutput()
        .split("\n")
        .filter((line) => line.includes('"level":"error"'));
      for (const line of errorLines.slice(0, 10)) console.error(`bench: server logged ${line}`);
    }
    console.log(JSON.stringify(coldStart ? { ...results, cold_start: coldStart } : results));
    return failures.length > 0 ? 1 : 0;
  } catch (error) {
    console.error(`bench: ${(error as Error).stack ?? error}`);
    await cleanUp();
    return 1;
  }
}

async function ensureBuild(): Promise<void> {
  if (existsSync(path.join(".next", "BUILD_ID"))) return;
  log("No build found (.next/BUILD_ID): running npm run build first (with the standalone server, for cold_start)…");
  const code = await new Promise<number | null>((resolve) => {
    spawn("npm", ["run", "build"], { stdio: "inherit", env: { ...process.env, LETTERPRESS_STANDALONE: "1" } }).once(
      "exit",
      resolve,
    );
  });
  if (code !== 0) throw new Error(`npm run build failed (exit ${code})`);
}

/** Points process.env.DATABASE_URL at the bench's database and says which one it is. */
async function startDatabase(cleanups: (() => Promise<void> | void)[], forceEmbedded: boolean): Promise<string> {
  if (process.env.DATABASE_URL && !forceEmbedded) return "DATABASE_URL (given)";
  if (!forceEmbedded && findPostgresBinDir()) {
    const pg: ThrowawayPostgres = await startThrowawayPostgres();
    cleanups.push(() => pg.stop());
    process.on("exit", () => stopThrowawayPostgresSync(pg));
    process.env.DATABASE_URL = pg.url;
    resetConfig();
    return `throwaway ${pg.version} cluster (${pg.url})`;
  }
  const child = spawn(process.execPath, [...process.execArgv, process.argv[1], "--serve-embedded"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  cleanups.push(() => stopChild(child));
  process.on("exit", () => child.kill("SIGKILL"));
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /^URL (\S+)$/m.exec(out);
      if (match) resolve(match[1]);
    });
    child.once("exit", (code) => reject(new Error(`the embedded database exited early (${code})`)));
  });
  process.env.DATABASE_URL = url;
  resetConfig();
  const why = forceEmbedded ? "--embedded" : "no PostgreSQL server binaries found; DATABASE_URL unset";
  return `embedded PGlite, in memory, in a child process (${why}) at ${url}`;
}

async function createFixture(): Promise<Fixture> {
  // A paid plan has no API call quota, so the quota never stops the bench.
  const account = await createAccount({ email: `bench-${randomUUID()}@example.com`, plan: "monthly" });
  const { key } = await createApiKey(account.id, { name: "bench" });
  for (const slug of ["welcome", "verify-email", "receipt", "newsletter", "team-invite"]) {
    await addLibraryEntry(account.id, slug, { processor: "bench" });
  }
  const [welcome] = await getDb()<
    { id: string }[]
  >`select id from templates where slug = 'welcome' and owner_account_id is null`;
  // A domain belongs to one account: each run's account gets its own.
  const domain = await addSendingDomain(account.id, {
    domain: `bench-${account.id.slice(0, 8)}.example.com`,
    verified: true,
  });
  const userTemplate = await createTemplateFromSource(account.id, {
    name: "Bench hello",
    description: "bench",
    code: USER_TEMPLATE_SOURCE,
  });
  // Versions 1 to 100, each its own source: a render, by default or by number, reads one of them, never the others.
  const versioned = await createTemplateFromSource(account.id, {
    name: "Bench versions",
    description: "bench",
    code: USER_TEMPLATE_SOURCE,
  });
  for (let version = 2; version <= 100; version++) {
    await replaceTemplateFromSource(account.id, versioned.id, {
      name: "Bench versions",
      description: "bench",
      code: `${USER_TEMPLATE_SOURCE}\n// version ${version}\n`,
    });
  }
  const tailwindTemplate = await createTemplateFromSource(account.id, {
    name: "Bench Tailwind",
    description: "bench",
    code: TAILWIND_TEMPLATE_SOURCE,
  });
  log(
    `  Bench user ${account.email} on the monthly plan, 5 catalogue templates and 3 own templates (one of 100 versions) in the library`,
  );
  // Its own paid plan too: a free plan's quota would answer its hostile requests with a quick 429.
  const attacker = await createAccount({ email: `bench-attacker-${randomUUID()}@example.com`, plan: "monthly" });
  const newsletter = await addLibraryEntry(attacker.id, "newsletter", { processor: "bench" });
  const attackerTemplate = await createTemplateFromSource(attacker.id, {
    name: "Attacker hello",
    description: "bench",
    code: USER_TEMPLATE_SOURCE,
  });
  const deadlineTemplate = await createTemplateFromSource(attacker.id, {
    name: "Attacker loop",
    description: "bench",
    code: DEADLINE_TEMPLATE_SOURCE,
  });
  return {
    key,
    welcomeId: welcome.id,
    userTemplateId: userTemplate.id,
    versionedTemplateId: versioned.id,
    tailwindTemplateId: tailwindTemplate.id,
    sendFrom: domain.default_sender ?? `hello@${domain.domain}`,
    attacker: {
      key: (await createApiKey(attacker.id, { name: "bench attacker" })).key,
      cookie: `${LOCAL_SESSION_COOKIE}=${await attackerSessionToken(attacker.id)}`,
      newsletterId: newsletter.template_id,
      userTemplateId: attackerTemplate.id,
      deadlineTemplateId: deadlineTemplate.id,
    },
  };
}

/** A signed-in session, as the sign-in form would make it. */
async function attackerSessionToken(accountId: string): Promise<string> {
  const session = await createSession(accountId, SESSION_MAX_AGE_SECONDS);
  return createLocalSessionToken({ accountId, sessionId: session.id, expiresAt: session.expires_at });
}

/** In a child process with NODE_ENV=production: this process loaded React's development build, the server does not. */
async function measureRenderCostsInProduction(): Promise<{ floor: number; worker: number }> {
  const child = spawn(process.execPath, [...process.execArgv, process.argv[1], "--measure-render"], {
    env: { ...process.env, NODE_ENV: "production" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  child.stdout!.on("data", (chunk: Buffer) => void (out += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  if (code !== 0) throw new Error(`measuring render() failed (exit ${code})`);
  return JSON.parse(out.trim().split("\n").at(-1)!) as { floor: number; worker: number };
}

async function measureRenderCost(renderOnce: () => Promise<unknown>, calls: number): Promise<number> {
  for (let i = 0; i < 20; i++) await renderOnce();
  const started = performance.now();
  for (let i = 0; i < calls; i++) await renderOnce();
  return (performance.now() - started) / calls;
}

/** `next start`, and its output so far (the server's log, for the errors behind a 5xx). */
async function startNext(
  port: number,
  cleanups: (() => Promise<void> | void)[],
  cpuProfileDir?: string,
): Promise<{ child: ChildProcess; output: () => string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production", PORT: String(port) };
  delete env.RESEND_API_KEY; // sends go to the embedded outbox, never to a real provider
  // One connection that pipelines every query is what the targets were measured with (docs/performance.md).
  env.DATABASE_POOL_SIZE ??= "1";
  const profiling = cpuProfileDir ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(cpuProfileDir)}`] : [];
  const child = spawn(
    process.execPath,
    [...profiling, path.join("node_modules", "next", "dist", "bin", "next"), "start", "-p", String(port)],
    {
      env,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => void (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => void (output += chunk.toString()));
  cleanups.push(() => stopChild(child));
  process.on("exit", () => child.kill("SIGKILL"));

  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`next start exited (${child.exitCode}):\n${output}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (response.ok) return { child, output: () => output };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`next start did not answer /api/health within 60 s:\n${output}`);
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
  await exited;
  clearTimeout(timer);
}

type ErrorCounts = {
  non2xx: number;
  "4xx": number;
  "5xx": number;
  errors: number;
  timeouts: number;
  total: number;
  /** Responses by status, 2xx left out. */
  statuses: Record<string, number>;
};

type Request = { method: "GET" | "POST"; url: string; headers: Record<string, string>; body?: string };

async function probeOnce(request: Request): Promise<Probe> {
  const response = await fetch(request.url, { method: request.method, headers: request.headers, body: request.body });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = { error: text.slice(0, 200) };
  }
  return { status: response.status, body };
}

function runAutocannon(request: Request, connections: number, duration: number): Promise<autocannon.Result> {
  return autocannon({ ...request, connections, duration });
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

// Child mode: serve an in-memory embedded database until SIGTERM, so PGlite does not share a core with autocannon.
if (process.argv[2] === "--measure-render") {
  const entry = getCatalogueEntry("welcome");
  if (!entry) throw new Error("the welcome template is missing from emails/_catalogue.ts");
  const props = entry.variables.parse({ userName: "Ada" });
  const component = await entry.loadComponent();
  const floor = await measureRenderCost(() => render(createElement(component, props)), 200);
  const worker = await measureRenderCost(() => renderCatalogueOffThread("bench", "welcome", props, false), 200);
  await stopCatalogueWorkers();
  console.log(JSON.stringify({ floor, worker }));
} else if (process.argv[2] === "--serve-embedded") {
  const db = await startEmbeddedDatabase({ dataDir: "memory://", maxConnections: 32, writeLock: false });
  console.log(`URL ${db.url}`);
  const stop = () => void db.stop().then(() => process.exit(0));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  setInterval(() => {}, 1 << 30);
} else {
  process.exitCode = await main();
}
