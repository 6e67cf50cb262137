/**
 * Server-side API for rendering UNTRUSTED user templates (compiled by
 * ./compile.ts) in the QuickJS WebAssembly sandbox.
 *
 * The sandbox engine (./engine.ts; limits, isolation and warm-context LRU are
 * documented there) runs in worker threads, loaded from worker.generated.cjs
 * (built by scripts/build-sandbox-runtime.ts), through the pool of
 * ../worker-pool.ts (turns, deadlines, admission). That gives two things an
 * in-process sandbox cannot:
 *  - a hard wall-clock limit: QuickJS polls its interrupt handler only every
 *    few thousand operations, so a loop around one expensive operation
 *    (`while (true) [...bigArray]`, comparing huge strings, ...) can overrun
 *    the deadline by minutes. The pool's watchdog terminates a worker shortly
 *    after the deadline if the sandbox has not given up by itself;
 *  - renders never block the server's event loop.
 * There is a worker per core, up to four, and one more (SANDBOX_WORKERS), each
 * below the event loop's priority: QuickJS interprets React, so a sandboxed
 * render costs several times a native one, and on a busy server the renders
 * take the cores the event loop leaves. Each worker keeps its share of the
 * warm contexts' memory. Accounts (owners) are kept apart on the workers
 * (../worker-pool.ts): a render goes only to a worker whose renders in flight
 * are all its account's, and one account's renders are on all the workers but
 * one at most, so a lone account still has a worker per core, while however
 * slow its templates (each running to its deadline), another account's render
 * never waits behind them: it takes the worker they leave, or the first one
 * whose other renders, fast ones, are done. An owner sends at most
 * MAX_SENT_PER_OWNER jobs to a worker, the second behind the first only while
 * no other account waits, so a busy account still has its next job waiting in
 * a worker, which never waits on a busy main thread for it. A job goes to the
 * least busy worker, or to the one where its template is warm if that has at
 * most one job more.
 * The queue is bounded: SANDBOX_QUEUE.perAccount jobs of one owner
 * (waiting here or sent), and SANDBOX_QUEUE.total in all, past which only owners
 * holding less than their share get in; past them a job is refused at once
 * with a 503 SANDBOX_BUSY. If a worker is terminated (watchdog) or crashes,
 * the render it was running fails and the worker is restarted; the contexts
 * it kept warm for other accounts are made again at once, as jobs of their
 * accounts, rather than on those accounts' next renders (the failed render's
 * own account makes its contexts again when it next renders).
 */
import "server-only";
import os from "node:os";
import { errors, type AppError } from "@/lib/core/errors";
import { COMPATIBILITY_CHECK, SANDBOX_QUEUE } from "@/lib/core/limits";
import type { CompatibilityFinding } from "../analysis/warnings";
import { generatedFilePath } from "../workers/generated-file";
import { WorkerPool, type WithoutId, type WorkerChoice, type WorkerLoss } from "../workers/worker-pool";
import {
  DEFAULT_SANDBOX_LIMITS,
  MAX_WARM_MEMORY_BYTES,
  MIN_MEMORY_BYTES,
  type EngineResult,
  type EngineStats,
  type SandboxErrorKind,
  type SandboxLimits,
  type WorkerMessage,
  type WorkerRequest,
} from "./types";

export { DEFAULT_SANDBOX_LIMITS, MAX_WARM_MEMORY_BYTES };
export type { SandboxErrorKind, SandboxLimits };

/** Native stack of the worker thread; the engine's QuickJS stack limit (1 MB) needs ~2 MB of it. */
const WORKER_STACK_MB = 16;

/**
 * The engine interrupts at the deadline itself; the watchdog is the backstop, slightly later. A render whose email
 * client support is checked too has that check's own time on top (../compatibility.ts), so that a render that ran to
 * its deadline and a check that ran to its own still answer instead of costing their worker.
 */
function watchdogMs(request: WithoutId<WorkerRequest>): number {
  const { timeoutMs } = request.limits;
  const check = request.type === "render" && request.compatibility ? COMPATIBILITY_CHECK.wallClockMs : 0;
  return timeoutMs + Math.max(150, Math.round(timeoutMs * 0.15)) + check;
}

/** Jobs of one owner sent to one worker at once (see the top of the file). */
const MAX_SENT_PER_OWNER = 2;

/** Sandbox workers: one per core, up to four, and one more (see the top of the file). */
export const SANDBOX_WORKERS = Math.max(1, Math.min(4, os.availableParallelism())) + 1;

const zeroStats = (): EngineStats => ({
  warmContexts: 0,
  warmMemoryBytes: 0,
  contextsCreated: 0,
  contextsDisposedAfterLimit: 0,
  rendersInWarmContext: 0,
});
/** Counters of workers that are gone. */
const pastStats = zeroStats();
/** The counters each live worker last reported, by slot. */
const workerStats: EngineStats[] = Array.from({ length: SANDBOX_WORKERS }, zeroStats);
let workerRestarts = 0;
let watchdogKills = 0;

/**
 * The worker in `slot` went: its counters join the past ones; a loss restarts it, a watchdog's kill drops a context,
 * and the contexts it kept warm for accounts other than the lost job's are made again (see the top of the file).
 */
function countWorkerGone(slot: number, loss: WorkerLoss | null, lostOwner: string | null): void {
  if (loss) workerRestarts++;
  if (loss?.cause === "deadline" || loss?.cause === "start") {
    watchdogKills++;
    pastStats.contextsDisposedAfterLimit++;
  }
  const stats = workerStats[slot];
  pastStats.contextsCreated += stats.contextsCreated;
  pastStats.contextsDisposedAfterLimit += stats.contextsDisposedAfterLimit;
  pastStats.rendersInWarmContext += stats.rendersInWarmContext;
  workerStats[slot] = zeroStats();
  const lost = warmOn[slot];
  warmOn[slot] = new Set();
  if (loss) setImmediate(() => warmAgain(lost, lostOwner));
  else forgetColdRecipes();
}

/** The keys of the contexts warm on each worker, as it last said. */
const warmOn: Set<string>[] = Array.from({ length: SANDBOX_WORKERS }, () => new Set());

/** What it takes to make a warm context again, for the keys warm on some worker. */
type Recipe = { owner: string; compiledCode: string; limits: SandboxLimits };
const recipes = new Map<string, Recipe>();

/** A render's key is warm where it ran: remember how to make it again. */
function keepRecipe(cacheKey: string, recipe: Recipe): void {
  if (warmOn.some((keys) => keys.has(cacheKey))) recipes.set(cacheKey, recipe);
}

/** Forgets the recipes of keys no worker keeps warm any longer, so that those held stay a few per worker. */
function forgetColdRecipes(): void {
  for (const key of recipes.keys()) if (!warmOn.some((keys) => keys.has(key))) recipes.delete(key);
}

/**
 * Makes the `lost` contexts warm again, those of other accounts than `lostOwner` and warm on no other worker: each a
 * job of its own account, which goes to the replacement worker (it goes where its key last went) unless that is busy.
 * The account takes its turn for it as for a render; a refusal (its queue is full) leaves the context to its next render.
 */
function warmAgain(lost: Set<string>, lostOwner: string | null): void {
  for (const cacheKey of lost) {
    const recipe = recipes.get(cacheKey);
    if (!recipe || recipe.owner === lostOwner || warmOn.some((keys) => keys.has(cacheKey))) continue;
    const { owner, compiledCode, limits } = recipe;
    try {
      pool.run(owner, { type: "warm", cacheKey, compiledCode, limits }).then(
        () => keepRecipe(cacheKey, recipe),
        () => undefined,
      );
    } catch {
      // The account's queue is full: its next render makes the context.
    }
  }
  forgetColdRecipes();
}

/** The worker each cacheKey was last sent to, where its context is warm; the least recently sent are forgotten. */
const lastSlot = new Map<string, number>();
const MAX_REMEMBERED_KEYS = 10_000;

/**
 * The least busy worker, or the one where the cacheKey's context is warm when it has at most one job more. So a
 * template stays warm in one worker until its renders, or other templates', keep that worker busier than another.
 */
function pickWorker({ cacheKey }: WithoutId<WorkerRequest>, choices: WorkerChoice[]): number {
  const warm = choices.find((choice) => choice.slot === lastSlot.get(cacheKey));
  const slot = warm && warm.load <= choices[0].load + 1 ? warm.slot : choices[0].slot;
  lastSlot.delete(cacheKey);
  lastSlot.set(cacheKey, slot);
  if (lastSlot.size > MAX_REMEMBERED_KEYS) lastSlot.delete(lastSlot.keys().next().value!);
  return slot;
}

const pool = new WorkerPool<WithoutId<WorkerRequest>, WorkerMessage, EngineResult>({
  file: () => generatedFilePath("lib/render/sandbox/worker.generated.cjs", import.meta.url),
  workers: SANDBOX_WORKERS,
  jobsPerWorker: Infinity,
  jobsPerOwnerPerWorker: MAX_SENT_PER_OWNER,
  admission: {
    ...SANDBOX_QUEUE,
    jobs: "renders",
    full: "The template sandbox is busy with other renders",
  },
  resourceLimits: { stackSizeMb: WORKER_STACK_MB },
  workerData: () => ({ warmMemoryBytes: Math.floor(MAX_WARM_MEMORY_BYTES / SANDBOX_WORKERS) }),
  deadlineMs: watchdogMs,
  read: (message, slot) => {
    workerStats[slot] = message.stats;
    warmOn[slot] = new Set(message.warm);
    forgetColdRecipes();
    return { id: message.id, result: message.result };
  },
  lost: (loss) =>
    loss.cause === "deadline"
      ? { ok: false, kind: "timeout", message: "Template exceeded the render deadline" }
      : loss.cause === "start"
        ? { ok: false, kind: "timeout", message: "The template sandbox did not start in time" }
        : { ok: false, kind: "memory", message: `The template sandbox worker ${loss.reason}` },
  pick: pickWorker,
  keepOwnersApart: true,
  onWorkerGone: countWorkerGone,
});

function resolveLimits(limits?: Partial<SandboxLimits>): SandboxLimits {
  const merged = { ...DEFAULT_SANDBOX_LIMITS, ...limits };
  for (const [name, value] of Object.entries(merged)) {
    if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
      throw new TypeError(`Invalid sandbox limit ${name}: ${String(value)}`);
    }
  }
  return { ...merged, memoryBytes: Math.max(merged.memoryBytes, MIN_MEMORY_BYTES) };
}

function assertNonEmptyString(name: string, value: unknown): asserts value is string {
  if (typeof value !== "string" || value.length === 0) throw new TypeError(`${name} must be a non-empty string`);
}

/** The sandbox's reason is the caller's message; its failure (the kind: threw, timeout, memory, …) is the cause. */
function renderFailure(failure: EngineResult & { ok: false }): AppError {
  return errors.renderFailed(failure.message, failure);
}

/**
 * Renders the compiled template (output of compileTemplate) with `props`.
 * Resolves with exactly the HTML @react-email/render's
 * `render(<Component {...props} />)` would produce (and its plain text when
 * asked); rejects with the RENDER_ERROR AppError (422) when the template
 * fails, or at once with SANDBOX_BUSY (503) when the queue is full. `cacheKey` identifies the warm
 * context (templateId:version); a context is never shared between cacheKeys.
 */
export async function renderInSandbox(opts: {
  /** The account the render is for: accounts take turns in the worker. */
  owner: string;
  cacheKey: string;
  compiledCode: string;
  props: Record<string, unknown>;
  /**
   * An ICU message (the resolved locale's `subject`) to format, in the same job and under the same deadline, with
   * IntlMessageFormat in `props.locale` with `props` as its values: the result's `subject`.
   */
  subjectMessage?: string;
  /** Also make the plain-text version (as @react-email/render's toPlainText does), within the same deadline. */
  plainText?: boolean;
  /** Also check the HTML's email client support (../compatibility.ts), after the render, under its own deadline. */
  compatibility?: boolean;
  limits?: Partial<SandboxLimits>;
  /** The request's: a render still waiting for the worker when the client goes away leaves the queue. */
  signal?: AbortSignal;
  /** Told how long the render ran on its worker (waiting not included), when it ends, whether it rendered or not. */
  onRunTime?: (ms: number) => void;
}): Promise<{ html: string; text?: string; compatibility?: CompatibilityFinding[] | null; subject?: string }> {
  assertNonEmptyString("cacheKey", opts.cacheKey);
  assertNonEmptyString("compiledCode", opts.compiledCode);
  const limits = resolveLimits(opts.limits);
  // Props cross into the sandbox as JSON text, never as code.
  const propsJson = JSON.stringify(opts.props ?? {});
  if (typeof propsJson !== "string" || !propsJson.startsWith("{")) {
    throw new TypeError("props must be a JSON-serializable object");
  }
  const result = await pool.run(
    opts.owner,
    {
      type: "render",
      cacheKey: opts.cacheKey,
      compiledCode: opts.compiledCode,
      propsJson,
      ...(opts.subjectMessage !== undefined ? { subjectMessage: String(opts.subjectMessage) } : {}),
      plainText: opts.plainText ?? false,
      compatibility: opts.compatibility ?? false,
      limits,
    },
    { signal: opts.signal, onRunTime: opts.onRunTime },
  );
  keepRecipe(opts.cacheKey, { owner: opts.owner, compiledCode: opts.compiledCode, limits });
  if (!result.ok) throw renderFailure(result);
  return {
    html: result.value ?? "",
    ...(result.text !== undefined ? { text: result.text } : {}),
    ...(result.compatibility !== undefined ? { compatibility: result.compatibility } : {}),
    ...(result.subject !== undefined ? { subject: result.subject } : {}),
  };
}

/**
 * Returns the template component's static `PreviewProps` (JSON-cloned), or
 * null when it has none or it is not a JSON object. `__proto__` keys are left
 * out: they are no variables (an object literal's `__proto__:` sets the
 * prototype, and request bodies refuse the key), so PreviewProps, the
 * template's example, are always variables a request may send.
 */
export async function readPreviewProps(opts: {
  owner: string;
  cacheKey: string;
  compiledCode: string;
  limits?: Partial<SandboxLimits>;
}): Promise<Record<string, unknown> | null> {
  assertNonEmptyString("cacheKey", opts.cacheKey);
  assertNonEmptyString("compiledCode", opts.compiledCode);
  const limits = resolveLimits(opts.limits);
  const result = await pool.run(opts.owner, {
    type: "preview",
    cacheKey: opts.cacheKey,
    compiledCode: opts.compiledCode,
    limits,
  });
  if (!result.ok) throw renderFailure(result);
  if (result.value === null) return null;
  const parsed: unknown = JSON.parse(result.value, (key, value: unknown) => (key === "__proto__" ? undefined : value));
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return null;
  return parsed as Record<string, unknown>;
}

/**
 * Stops the sandbox workers, dropping every warm context (tests, hot reload,
 * shutdown). Requests still queued or running fail.
 */
export async function disposeSandboxes(): Promise<void> {
  lastSlot.clear();
  await pool.stop("The template sandbox was disposed");
  recipes.clear();
}

export function getSandboxStats(): EngineStats & { workerRestarts: number; watchdogKills: number; queued: number } {
  const sum = (key: keyof EngineStats) => workerStats.reduce((total, stats) => total + stats[key], 0);
  return {
    warmContexts: sum("warmContexts"),
    warmMemoryBytes: sum("warmMemoryBytes"),
    contextsCreated: pastStats.contextsCreated + sum("contextsCreated"),
    contextsDisposedAfterLimit: pastStats.contextsDisposedAfterLimit + sum("contextsDisposedAfterLimit"),
    rendersInWarmContext: pastStats.rendersInWarmContext + sum("rendersInWarmContext"),
    workerRestarts,
    watchdogKills,
    queued: pool.held,
  };
}
