import autocannon from "autocannon";
import type { Fixture } from "./fixture";
import { startAttack, type HostileResult } from "./hostile";
import type { Scenario } from "./scenarios";
import { log } from "./report";

// The load: each scenario's request probed once, every route warmed, then the measured windows, each between two
// of bare's.

export type Request = { method: "GET" | "POST"; url: string; headers: Record<string, string>; body?: string };

type Probe = { status: number; body: unknown };

export type Runnable = { scenario: Scenario; request: Request };

export type ErrorCounts = {
  non2xx: number;
  "4xx": number;
  "5xx": number;
  errors: number;
  timeouts: number;
  total: number;
  /** Responses by status, 2xx left out. */
  statuses: Record<string, number>;
};

/** One measured window; startedAt and endedAt are this process's performance.now(). */
export type Window = {
  rps: number;
  p50: number;
  p97_5: number;
  p99: number;
  total: number;
  startedAt: number;
  endedAt: number;
};

export type LoadOptions = { connections: number; duration: number; rounds: number; settle: number; warmup: number };

export type Measurements = {
  bare: Runnable;
  others: Runnable[];
  bareWindows: Window[];
  /** Each scenario's windows, with the index in bareWindows of the bare window before it. */
  windows: Map<Scenario, { window: Window; bareBefore: number }[]>;
  hostileResults: Map<Scenario, HostileResult[]>;
  errorCounts: Map<Scenario, ErrorCounts>;
};

/** The scenarios whose request answers a 2xx once; each other is a failure. */
export async function probeScenarios(
  scenarios: Scenario[],
  base: string,
  fixture: Fixture,
  failures: string[],
): Promise<Runnable[]> {
  const runnable: Runnable[] = [];
  for (const scenario of scenarios) {
    const request: Request = {
      method: scenario.method,
      url: base + scenario.path(fixture),
      headers: {
        ...(scenario.auth ? { "x-api-key": scenario.apiKey?.(fixture) ?? fixture.key } : {}),
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
  return runnable;
}

export async function measureScenarios(
  runnable: Runnable[],
  fixture: Fixture,
  base: string,
  { connections, duration, rounds, settle, warmup }: LoadOptions,
  failures: string[],
): Promise<Measurements> {
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
  const measureWindow = async ({ scenario, request }: Runnable): Promise<Window> => {
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
    const startedAt = performance.now();
    const result = await load(windowSeconds);
    const endedAt = performance.now();
    if (attack) hostileResults.get(scenario)!.push(...(await attack.stop()));
    // Per-second samples would cut a window of a few seconds short; requests over the window's own length do not.
    return {
      rps: result.requests.total / result.duration,
      p50: result.latency.p50,
      p97_5: result.latency.p97_5,
      p99: result.latency.p99,
      total: result.requests.total,
      startedAt,
      endedAt,
    };
  };
  for (let r = 0; r < rounds; r++) {
    for (const entry of others) {
      bareWindows.push(await measureWindow(bare));
      windows.get(entry.scenario)!.push({ window: await measureWindow(entry), bareBefore: bareWindows.length - 1 });
    }
  }
  bareWindows.push(await measureWindow(bare));
  return { bare, others, bareWindows, windows, hostileResults, errorCounts };
}

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
