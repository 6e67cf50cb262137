import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { copyStandaloneBuild, startStandaloneServer } from "../lib/standalone";

// The bench's cold start (issue 44, item 4): every new Vercel instance starts cold, so it measures Next's standalone
// server (.next/standalone, copied out of the repository and started with `node server.js`, as check:deploy runs it)
// from process start to its first answer. Each kind of first request gets instances of its own, which have served
// nothing before it (the bench waits for the port to accept a connection, sending no request):
//   api        GET /api/v1/usage with a key: the route's module, the database connection, the key's check
//   catalogue  POST /api/v1/templates/{welcome}/render: a render worker started, the catalogue bundle loaded
//   user       POST /api/v1/templates/{user template}/render: a sandbox worker started, QuickJS loaded, a context made
// For each: ms from spawn to the answer, the first request's own latency, and the same request's once warm (the median
// of 5 more on that instance). The targets are ceilings set from the first measurement (docs/performance.md).

export type ColdStartFixture = { key: string; catalogueTemplateId: string; userTemplateId: string };

type Kind = "api" | "catalogue" | "user";
const KINDS: Kind[] = ["api", "catalogue", "user"];

export type ColdStartResult = Record<
  Kind,
  { start_to_answer_ms: number; first_latency_ms: number; warm_latency_ms: number }
> & { listen_ms: number; instances: number };

/**
 * Ceilings set from the first measurement (docs/performance.md, "Cold start": on Node 24 with the machine's load
 * average about 3, api 1.36 s and 0.74 s, catalogue 3.0 s and 2.4 s, user 2.1 s and 1.5 s), about twice it.
 */
export const COLD_START_TARGETS: Record<Kind, { startToAnswerMs: number; firstLatencyMs: number }> = {
  api: { startToAnswerMs: 3000, firstLatencyMs: 1500 },
  catalogue: { startToAnswerMs: 6000, firstLatencyMs: 5000 },
  user: { startToAnswerMs: 5000, firstLatencyMs: 3500 },
};

/** Whether .next/standalone holds a server of the current build (a plain `npm run build` leaves an older one). */
export function standaloneBuildProblem(root: string): string | null {
  const buildId = path.join(root, ".next", "BUILD_ID");
  const standaloneId = path.join(root, ".next", "standalone", ".next", "BUILD_ID");
  if (!existsSync(standaloneId)) return "no .next/standalone (build with LETTERPRESS_STANDALONE=1 npm run build)";
  if (!existsSync(buildId) || readFileSync(buildId, "utf8") !== readFileSync(standaloneId, "utf8"))
    return ".next/standalone is from an older build than .next (build with LETTERPRESS_STANDALONE=1 npm run build)";
  return null;
}

function requestFor(kind: Kind, fixture: ColdStartFixture): { path: string; init: RequestInit } {
  const headers = { "x-api-key": fixture.key, "content-type": "application/json" };
  if (kind === "api") return { path: "/api/v1/usage", init: { headers: { "x-api-key": fixture.key } } };
  const id = kind === "catalogue" ? fixture.catalogueTemplateId : fixture.userTemplateId;
  const variables = kind === "catalogue" ? { userName: "Ada" } : { name: "Ada" };
  return {
    path: `/api/v1/templates/${id}/render`,
    init: { method: "POST", headers, body: JSON.stringify({ variables }) },
  };
}

async function timed(url: string, init: RequestInit): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(60_000) });
  const body = await response.text();
  if (!response.ok)
    throw new Error(`${init.method ?? "GET"} ${url} answered ${response.status}: ${body.slice(0, 300)}`);
  return performance.now() - started;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const round = (value: number) => Math.round(value * 10) / 10;

/** `rounds` instances of each kind, one at a time, each started fresh on `env` (the bench's database and secret). */
export async function measureColdStart(opts: {
  root: string;
  fixture: ColdStartFixture;
  env: Record<string, string>;
  rounds: number;
  log: (line: string) => void;
}): Promise<ColdStartResult> {
  const copy = await copyStandaloneBuild(opts.root);
  const samples = new Map<Kind, { startToAnswer: number; first: number; warm: number }[]>(KINDS.map((k) => [k, []]));
  const listens: number[] = [];
  try {
    for (let round = 0; round < opts.rounds; round++) {
      for (const kind of KINDS) {
        const server = await startStandaloneServer({ serverDir: copy.serverDir, env: opts.env });
        try {
          listens.push(performance.now() - server.spawnedAt);
          const { path: pathname, init } = requestFor(kind, opts.fixture);
          const first = await timed(server.url + pathname, init);
          const startToAnswer = performance.now() - server.spawnedAt;
          const warm: number[] = [];
          for (let i = 0; i < 5; i++) warm.push(await timed(server.url + pathname, init));
          samples.get(kind)!.push({ startToAnswer, first, warm: median(warm) });
        } catch (error) {
          opts.log(`cold start: the server's output:\n${server.output()}`);
          throw error;
        } finally {
          await server.stop();
        }
      }
    }
  } finally {
    await copy.remove();
  }
  const result = { listen_ms: round(median(listens)), instances: listens.length } as ColdStartResult;
  for (const kind of KINDS) {
    const list = samples.get(kind)!;
    result[kind] = {
      start_to_answer_ms: round(median(list.map((s) => s.startToAnswer))),
      first_latency_ms: round(median(list.map((s) => s.first))),
      warm_latency_ms: round(median(list.map((s) => s.warm))),
    };
  }
  return result;
}

/** The report's lines, each target met or not. */
export function reportColdStart(result: ColdStartResult, log: (line: string) => void): void {
  log(
    `cold_start        ${result.instances} instances of node server.js (standalone); port accepting after ${result.listen_ms} ms (median)`,
  );
  for (const kind of KINDS) {
    const r = result[kind];
    const target = COLD_START_TARGETS[kind];
    const met = r.start_to_answer_ms <= target.startToAnswerMs && r.first_latency_ms <= target.firstLatencyMs;
    log(
      `  ${kind.padEnd(10)} start → first answer ${r.start_to_answer_ms} ms (target ≤ ${target.startToAnswerMs}), ` +
        `first request ${r.first_latency_ms} ms (target ≤ ${target.firstLatencyMs}), warm ${r.warm_latency_ms} ms: ${met ? "met" : "NOT met"}`,
    );
  }
}
