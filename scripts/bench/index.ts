import os from "node:os";
import { parseArgs } from "node:util";
import { resetConfig } from "@/lib/core/config";
import { closeDb } from "@/lib/db/client";
import { prepareDatabase } from "../../bin/database";
import { freePort } from "../pg-throwaway";
import { measureColdStart, reportColdStart, standaloneBuildProblem, type ColdStartResult } from "./cold-start";
import { createFixture, measureComponentUpdate, type Fixture } from "./fixture";
import { measureScenarios, probeScenarios, type LoadOptions } from "./load";
import { measureRenderCostsHere, reportRenderCosts } from "./render-cost";
import { log, reportMeasurements, reportTargets, round } from "./report";
import { SCENARIOS } from "./scenarios";
import { ensureBuild, serveEmbeddedDatabase, startDatabase, startNext, type Cleanups } from "./server";
import { deliveryRate, startReceivers, subscribeEndpoints } from "./webhooks";

// npm run bench [-- --duration S --rounds N --settle S --warmup S --connections N --only a,b --embedded --cpu-prof DIR]
// Serves the built app (`next start`) on PostgreSQL and measures each scenario with autocannon in one run, in short
// windows interleaved with windows of bare (load.ts). The database: DATABASE_URL when given, else a throwaway
// PostgreSQL 15 cluster when its binaries are installed, else the embedded database (in memory, in a child process).
// The last line of output is one JSON object keyed by scenario: { rps, p50_ms, p99_ms, ratio_to_bare }, plus
// hostile_max_ms for isolation (the library load while two more connections send the worst inputs in turn),
// p97_5_ms for noisy_neighbour (own-template renders while another account's renders run to their deadlines), and
// cold_start: fresh standalone servers' first answers (cold-start.ts; needs LETTERPRESS_STANDALONE=1's build), and
// component_update: a shared component's update with 20 dependents, in-process before the server starts (fixture.ts).
//
// The scenarios are in scenarios.ts, the hostile requests two of them send in hostile.ts, the accounts and templates
// they name in fixture.ts, the server and database in server.ts, the load in load.ts, what is printed and each
// target in report.ts, the render floor in render-cost.ts and cold_start in cold-start.ts.

type Options = LoadOptions & {
  /** The scenarios asked for with --only, bare always among them; null for all. */
  only: Set<string> | null;
  embedded: boolean;
  cpuProfileDir?: string;
  coldStartRounds: number;
};

/** The command line's options, or null once it has said what is wrong with them. */
function parseOptions(): Options | null {
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
      // Fresh standalone instances per kind of first request (cold-start.ts); `--only` without cold_start
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
    return null;
  }
  const only = values.only ? new Set(["bare", ...values.only.split(",")]) : null;
  const unknown = [...(only ?? [])].filter(
    (name) => !["cold_start", "component_update"].includes(name) && !SCENARIOS.some((s) => s.name === name),
  );
  if (unknown.length > 0) {
    console.error(
      `bench: unknown scenario ${unknown.join(", ")}; scenarios: ${SCENARIOS.map((s) => s.name).join(", ")}, cold_start, component_update`,
    );
    return null;
  }
  return {
    duration,
    warmup,
    connections,
    rounds,
    settle,
    only,
    embedded: values.embedded,
    cpuProfileDir: values["cpu-prof"],
    coldStartRounds: Number(values["cold-start-rounds"]),
  };
}

async function main(): Promise<number> {
  const options = parseOptions();
  if (!options) return 2;
  const { duration, warmup, connections, rounds, only } = options;
  const cleanups: Cleanups = [];
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
    const database = await startDatabase(cleanups, options.embedded);
    log(`Database: ${database}`);

    // Shared with the server: the bench signs the attacker's session cookie.
    process.env.SESSION_SECRET ??= "bench-session-secret-0123456789abcdef0123456789";
    resetConfig();
    await prepareDatabase({ alwaysSeed: true, log: (line) => log(`  ${line}`) });
    const fixture = await createFixture({ metrics: !only || [...only].some((name) => name.startsWith("metrics_")) });
    const componentUpdate = !only || only.has("component_update") ? await measureComponentUpdate() : null;
    if (componentUpdate)
      log(
        `Component update with ${componentUpdate.dependents} dependents (each compiled and trial-rendered, all published in one transaction): median ${componentUpdate.medianMs} ms (${componentUpdate.runsMs.join(", ")} ms)`,
      );
    await closeDb();

    await reportRenderCosts();

    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const { child: server, output: serverOutput } = await startNext(port, cleanups, options.cpuProfileDir);
    log(
      `next start on ${base} (pid ${server.pid}); autocannon -c ${connections}, ${duration} s per scenario in ${rounds} windows of ${round(duration / rounds, 2)} s, each between two windows of bare, after ${warmup} s of warm-up on each route`,
    );
    log("");

    const receivers = await startReceivers();
    cleanups.push(receivers.stop);
    await subscribeEndpoints(base, fixture, receivers);

    const failures: string[] = [];
    const scenarios = SCENARIOS.filter((scenario) => !only || only.has(scenario.name));
    const runnable = await probeScenarios(scenarios, base, fixture, failures);
    const measurements = await measureScenarios(runnable, fixture, base, options, failures);
    const results = reportMeasurements(measurements, failures);
    const sendWebhooks = [...measurements.windows].find(([scenario]) => scenario.name === "send_webhooks");
    if (sendWebhooks && results.send_webhooks) {
      const { perSecond, drainedMs } = await deliveryRate(
        receivers,
        sendWebhooks[1].map(({ window }) => window),
      );
      Object.assign(results.send_webhooks, {
        webhook_deliveries_per_s: round(perSecond, 1),
        webhook_drained_ms: Math.round(drainedMs),
      });
    }
    log("");
    reportTargets(results, measurements);
    const coldStart = await measureColdStartIfAsked(options, fixture);
    await cleanUp();
    for (const failure of failures) console.error(`bench: ${failure}`);
    if (failures.length > 0) {
      const errorLines = serverOutput()
        .split("\n")
        .filter((line) => line.includes('"level":"error"'));
      for (const line of errorLines.slice(0, 10)) console.error(`bench: server logged ${line}`);
    }
    console.log(
      JSON.stringify({
        ...results,
        ...(coldStart ? { cold_start: coldStart } : {}),
        ...(componentUpdate ? { component_update: componentUpdate } : {}),
      }),
    );
    return failures.length > 0 ? 1 : 0;
  } catch (error) {
    console.error(`bench: ${(error as Error).stack ?? error}`);
    await cleanUp();
    return 1;
  }
}

/** cold_start unless --only leaves it out or --cold-start-rounds is 0 (without a standalone build: why it skips). */
async function measureColdStartIfAsked(
  { only, coldStartRounds }: Options,
  fixture: Fixture,
): Promise<ColdStartResult | undefined> {
  if ((only && !only.has("cold_start")) || !(coldStartRounds > 0)) return undefined;
  const problem = standaloneBuildProblem(process.cwd());
  if (problem) {
    log(`cold_start        skipped: ${problem}`);
    return undefined;
  }
  const coldStart = await measureColdStart({
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
  return coldStart;
}

// The bench runs two children of itself: the render floor's, under NODE_ENV=production (render-cost.ts), and the
// embedded database's when no PostgreSQL is at hand (server.ts).
if (process.argv[2] === "--measure-render") await measureRenderCostsHere();
else if (process.argv[2] === "--serve-embedded") await serveEmbeddedDatabase();
else process.exitCode = await main();
