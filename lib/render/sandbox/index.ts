/**
 * Server-side API for rendering UNTRUSTED user templates (compiled by
 * ./compile.ts) in the QuickJS WebAssembly sandbox.
 *
 * The sandbox engine (./engine.ts; limits, isolation and warm-context LRU are
 * documented there) runs in worker threads, loaded from worker.generated.cjs
 * (built by scripts/build-sandbox-runtime.ts). That gives two things an
 * in-process sandbox cannot:
 *  - a hard wall-clock limit: QuickJS polls its interrupt handler only every
 *    few thousand operations, so a loop around one expensive operation
 *    (`while (true) [...bigArray]`, comparing huge strings, ...) can overrun
 *    the deadline by minutes. A watchdog here terminates a worker shortly
 *    after the deadline if the sandbox has not given up by itself;
 *  - renders never block the server's event loop.
 * There is a worker per core (SANDBOX_WORKERS), each below the event loop's
 * priority (../worker-priority.ts): QuickJS interprets React, so a sandboxed
 * render costs several times a native one, and on a busy server the renders
 * take the cores the event loop leaves. Each worker keeps its share of the
 * warm contexts' memory.
 * A worker renders one job at a time, in the order it received them. Each
 * owner (the account a render is for) has at most MAX_SENT_PER_OWNER jobs sent
 * to a worker; the rest wait here, and the owners take turns, a job going to
 * the least busy worker, or to the one where its template is warm if that has
 * at most one job more. So one account's queue of slow templates delays
 * another account's render by at most that many jobs per worker, while a busy
 * owner still has its next job waiting in a worker, which never waits on a
 * busy main thread for it.
 * The queue is bounded, fairly (../queue-admission.ts): MAX_SANDBOX_QUEUE_PER_ACCOUNT
 * jobs of one owner (waiting here or sent), and MAX_SANDBOX_QUEUE in all, past which
 * only owners holding less than their share get in. A job past them is refused at
 * once with a 503 SANDBOX_BUSY rather than left to wait behind the others.
 * Each worker publishes the id and start time of the render it is running in
 * shared memory; the watchdog polls that instead of exchanging messages per render.
 * If a worker is terminated (watchdog) or crashes, the render it was running
 * fails, the worker is restarted and the renders queued behind it wait first in
 * line again; warm contexts are rebuilt lazily.
 */
import "server-only";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { MAX_SANDBOX_QUEUE, MAX_SANDBOX_QUEUE_PER_ACCOUNT } from "@/lib/limits";
import { generatedFilePath } from "../generated-file";
import { QueueAdmission, queueJob, removeFromLine } from "../queue-admission";
import {
  DEFAULT_SANDBOX_LIMITS,
  MAX_WARM_MEMORY_BYTES,
  MIN_MEMORY_BYTES,
  type EngineResult,
  type EngineStats,
  type SandboxErrorKind,
  type SandboxLimits,
  type WorkerData,
  type WorkerMessage,
  type WorkerRequest,
} from "./types";

export { DEFAULT_SANDBOX_LIMITS, MAX_WARM_MEMORY_BYTES };
export type { SandboxErrorKind, SandboxLimits };

export class SandboxRenderError extends Error {
  readonly kind: SandboxErrorKind;
  constructor(kind: SandboxErrorKind, message: string) {
    super(message);
    this.name = "SandboxRenderError";
    this.kind = kind;
  }
}

const WORKER_FILE = "worker.generated.cjs";
/** Native stack of the worker thread; the engine's QuickJS stack limit (1 MB) needs ~2 MB of it. */
const WORKER_STACK_MB = 16;
/** Time a render may wait at the head of a worker's queue (starting the worker, creating its sandbox: trusted code only). */
const START_TIMEOUT_MS = 15_000;

/** The engine interrupts at the deadline itself; the watchdog is the backstop, slightly later. */
function watchdogMs(limits: SandboxLimits): number {
  return limits.timeoutMs + Math.max(150, Math.round(limits.timeoutMs * 0.15));
}

/** Jobs of one owner sent to one worker at once (see the top of the file). */
const MAX_SENT_PER_OWNER = 2;

type Job = {
  owner: string;
  request: WorkerRequest;
  limits: SandboxLimits;
  /** Told how long the job ran on its worker, when it ends. */
  onRunTime: ((ms: number) => void) | undefined;
  resolve: (result: EngineResult) => void;
  reject: (error: Error) => void;
};

/** How often the watchdog looks at the running renders while any is in flight. */
const WATCHDOG_POLL_MS = 25;

type LiveWorker = {
  slot: number;
  thread: Worker;
  /** Written by the worker: [id of the running job or 0, its start in ms since `epoch`, mod 2^32]. */
  progress: Int32Array;
  epoch: number;
  /** Sent to this worker and not answered yet, oldest first: the worker runs them in this order. */
  inFlight: Job[];
  /** When the oldest job in flight became the next one to run: it must start within START_TIMEOUT_MS. */
  headSince: number;
};

/** Sandbox workers: one per core, up to four (see the top of the file). */
export const SANDBOX_WORKERS = Math.max(1, Math.min(4, os.availableParallelism()));
const workers: (LiveWorker | null)[] = Array.from({ length: SANDBOX_WORKERS }, () => null);
/** Places of the jobs submitted and not settled yet (waiting, sent or running). */
const admission = new QueueAdmission(
  { total: MAX_SANDBOX_QUEUE, perAccount: MAX_SANDBOX_QUEUE_PER_ACCOUNT },
  {
    jobs: "renders",
    full: "The template sandbox is busy with other renders",
  },
);
/** Jobs not sent to a worker yet, per owner, oldest first; the owner served last goes to the back. */
const waiting = new Map<string, Job[]>();
let watchdog: ReturnType<typeof setInterval> | null = null;
let nextId = 1;
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

function absorbWorkerStats(slot: number): void {
  const stats = workerStats[slot];
  pastStats.contextsCreated += stats.contextsCreated;
  pastStats.contextsDisposedAfterLimit += stats.contextsDisposedAfterLimit;
  pastStats.rendersInWarmContext += stats.rendersInWarmContext;
  workerStats[slot] = zeroStats();
}

function spawnWorker(slot: number): LiveWorker {
  const progress = new Int32Array(new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT));
  const epoch = Date.now();
  const thread = new Worker(generatedFilePath(WORKER_FILE, import.meta.url, path.join("lib", "render", "sandbox")), {
    resourceLimits: { stackSizeMb: WORKER_STACK_MB },
    // The worker needs neither the server's environment nor its CLI flags/loaders.
    env: {},
    execArgv: [],
    workerData: {
      progress: progress.buffer as SharedArrayBuffer,
      epoch,
      warmMemoryBytes: Math.floor(MAX_WARM_MEMORY_BYTES / SANDBOX_WORKERS),
    } satisfies WorkerData,
  });
  const spawned: LiveWorker = { slot, thread, progress, epoch, inFlight: [], headSince: Date.now() };
  thread.on("message", (message: WorkerMessage) => onWorkerMessage(spawned, message));
  thread.on("error", (error: Error) => onWorkerGone(spawned, `crashed: ${error.message}`));
  thread.on("exit", (code: number) => onWorkerGone(spawned, `exited with code ${code}`));
  thread.unref();
  return spawned;
}

function enqueue(job: Job): void {
  addWaiting(job, "last");
  dispatch();
}

function addWaiting(job: Job, place: "first" | "last"): void {
  const queue = waiting.get(job.owner);
  if (!queue) waiting.set(job.owner, [job]);
  else if (place === "first") queue.unshift(job);
  else queue.push(job);
}

/** Sends waiting jobs to the workers, owners in turn, each up to MAX_SENT_PER_OWNER per worker. */
function dispatch(): void {
  for (let sent = true; sent && waiting.size > 0;) {
    sent = false;
    for (const [owner, queue] of waiting) {
      const slot = slotFor(owner, queue[0].request.cacheKey);
      if (slot === null) continue;
      let target: LiveWorker;
      try {
        target = workers[slot] ??= spawnWorker(slot);
      } catch (error) {
        for (const job of [...waiting.values()].flat()) job.reject(error as Error);
        waiting.clear();
        return;
      }
      send(target, queue.shift()!);
      waiting.delete(owner);
      if (queue.length > 0) waiting.set(owner, queue); // to the back of the line
      sent = true;
    }
  }
}

/** The worker each cacheKey was last sent to, where its context is warm; the least recently sent are forgotten. */
const lastSlot = new Map<string, number>();
const MAX_REMEMBERED_KEYS = 10_000;

/**
 * Among the workers where `owner` may send another job, the one with the fewest jobs in flight, or the one where the
 * cacheKey's context is warm when it has at most one job more; null when there is none. So a template stays warm in
 * one worker until its renders, or other templates', keep that worker busier than another.
 */
function slotFor(owner: string, cacheKey: string): number | null {
  const room = (slot: number) =>
    (workers[slot]?.inFlight ?? []).filter((job) => job.owner === owner).length < MAX_SENT_PER_OWNER;
  const load = (slot: number) => workers[slot]?.inFlight.length ?? 0;
  let best: number | null = null;
  for (let slot = 0; slot < SANDBOX_WORKERS; slot++) {
    if (room(slot) && (best === null || load(slot) < load(best))) best = slot;
  }
  const warm = lastSlot.get(cacheKey);
  if (best !== null && warm !== undefined && room(warm) && load(warm) <= load(best) + 1) best = warm;
  if (best !== null) {
    lastSlot.delete(cacheKey);
    lastSlot.set(cacheKey, best);
    if (lastSlot.size > MAX_REMEMBERED_KEYS) lastSlot.delete(lastSlot.keys().next().value!);
  }
  return best;
}

function send(target: LiveWorker, job: Job): void {
  if (target.inFlight.length === 0) {
    target.headSince = Date.now();
    target.thread.ref(); // keep the process alive while a render is in flight
  }
  target.inFlight.push(job);
  target.thread.postMessage(job.request);
  watchdog ??= setInterval(checkDeadlines, WATCHDOG_POLL_MS);
  watchdog.unref();
}

function onWorkerMessage(from: LiveWorker, message: WorkerMessage): void {
  const job = from.inFlight[0];
  if (workers[from.slot] !== from || !job || message.id !== job.request.id) return;
  from.inFlight.shift();
  // The worker started this job when it became the head of its queue, and takes the next one now.
  const now = Date.now();
  job.onRunTime?.(now - from.headSince);
  from.headSince = now;
  workerStats[from.slot] = message.stats;
  if (from.inFlight.length === 0) idle(from);
  job.resolve(message.result);
  dispatch();
}

function idle(target: LiveWorker): void {
  target.thread.unref();
  if (watchdog && workers.every((worker) => !worker || worker.inFlight.length === 0)) {
    clearInterval(watchdog);
    watchdog = null;
  }
}

/** A running render's deadline, or the next render's start, has passed: that whole worker goes. */
function checkDeadlines(): void {
  const now = Date.now();
  for (const target of workers) {
    const head = target?.inFlight[0];
    if (!target || !head) continue;
    if (Atomics.load(target.progress, 0) === head.request.id) {
      // Modular, as the worker writes it into an Int32: right however long the worker has lived.
      const elapsed = (now - target.epoch - Atomics.load(target.progress, 1)) >>> 0;
      if (elapsed > watchdogMs(head.limits)) kill(target, "timeout", "Template exceeded the render deadline");
    } else if (now > target.headSince + START_TIMEOUT_MS) {
      kill(target, "timeout", "The template sandbox did not start in time");
    }
  }
}

function kill(target: LiveWorker, kind: SandboxErrorKind, message: string): void {
  pastStats.contextsDisposedAfterLimit++;
  watchdogKills++;
  replace(target, { ok: false, kind, message });
  void target.thread.terminate();
}

function onWorkerGone(from: LiveWorker, reason: string): void {
  if (workers[from.slot] !== from) return; // already replaced (terminated by the watchdog or disposeSandboxes)
  replace(from, { ok: false, kind: "memory", message: `The template sandbox worker ${reason}` });
}

/** The render that was running fails with `result`; those sent behind it go to a new worker, first in line. */
function replace(target: LiveWorker, result: EngineResult): void {
  workers[target.slot] = null;
  absorbWorkerStats(target.slot);
  workerRestarts++;
  idle(target);
  const [running, ...sent] = target.inFlight.splice(0);
  running?.onRunTime?.(Date.now() - target.headSince);
  running?.resolve(result);
  for (const job of sent.reverse()) addWaiting(job, "first");
  dispatch();
}

type RequestWithoutId = WorkerRequest extends infer R ? (R extends WorkerRequest ? Omit<R, "id"> : never) : never;

/**
 * Queues the job; throws the 503 ApiError at once when the owner may not queue another (see the top of the file), and
 * rejects with `signal`'s reason when it is aborted while the job still waits.
 */
function submit(
  owner: string,
  request: RequestWithoutId,
  limits: SandboxLimits,
  signal: AbortSignal | undefined,
  onRunTime?: (ms: number) => void,
): Promise<EngineResult> {
  return queueJob<Job, EngineResult>(
    admission,
    owner,
    signal,
    (settlers) => {
      const job: Job = {
        owner,
        request: { ...request, id: nextId++ } as WorkerRequest,
        limits,
        onRunTime,
        ...settlers,
      };
      enqueue(job);
      return job;
    },
    (job) => removeFromLine(waiting, job),
  );
}

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

/**
 * Renders the compiled template (output of compileTemplate) with `props`.
 * Resolves with exactly the HTML @react-email/render's
 * `render(<Component {...props} />)` would produce (and its plain text when
 * asked); rejects with SandboxRenderError, or at once with the ApiError
 * 503 SANDBOX_BUSY when the queue is full. `cacheKey` identifies the warm
 * context (templateId:version); a context is never shared between cacheKeys.
 */
export async function renderInSandbox(opts: {
  /** The account the render is for: accounts take turns in the worker. */
  owner: string;
  cacheKey: string;
  compiledCode: string;
  props: Record<string, unknown>;
  /** Also make the plain-text version (as @react-email/render's toPlainText does), within the same deadline. */
  plainText?: boolean;
  limits?: Partial<SandboxLimits>;
  /** The request's: a render still waiting for the worker when the client goes away leaves the queue. */
  signal?: AbortSignal;
  /** Told how long the render ran on its worker (waiting not included), when it ends, whether it rendered or not. */
  onRunTime?: (ms: number) => void;
}): Promise<{ html: string; text?: string }> {
  assertNonEmptyString("cacheKey", opts.cacheKey);
  assertNonEmptyString("compiledCode", opts.compiledCode);
  const limits = resolveLimits(opts.limits);
  // Props cross into the sandbox as JSON text, never as code.
  const propsJson = JSON.stringify(opts.props ?? {});
  if (typeof propsJson !== "string" || !propsJson.startsWith("{")) {
    throw new TypeError("props must be a JSON-serializable object");
  }
  const result = await submit(
    opts.owner,
    {
      type: "render",
      cacheKey: opts.cacheKey,
      compiledCode: opts.compiledCode,
      propsJson,
      plainText: opts.plainText ?? false,
      limits,
    },
    limits,
    opts.signal,
    opts.onRunTime,
  );
  if (!result.ok) throw new SandboxRenderError(result.kind, result.message);
  return { html: result.value ?? "", ...(result.text !== undefined ? { text: result.text } : {}) };
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
  const result = await submit(
    opts.owner,
    { type: "preview", cacheKey: opts.cacheKey, compiledCode: opts.compiledCode, limits },
    limits,
    undefined,
  );
  if (!result.ok) throw new SandboxRenderError(result.kind, result.message);
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
  const doomed = workers.filter((worker) => worker !== null);
  workers.fill(null);
  lastSlot.clear();
  for (const worker of doomed) absorbWorkerStats(worker.slot);
  const dropped = [...doomed.flatMap((worker) => worker.inFlight.splice(0)), ...[...waiting.values()].flat()];
  waiting.clear();
  for (const job of dropped) job.reject(new Error("The template sandbox was disposed"));
  for (const worker of doomed) idle(worker);
  await Promise.all(doomed.map((worker) => worker.thread.terminate()));
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
    queued: admission.held,
  };
}
