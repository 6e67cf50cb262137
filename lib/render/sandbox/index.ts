/**
 * Server-side API for rendering UNTRUSTED user templates (compiled by
 * ./compile.ts) in the QuickJS WebAssembly sandbox.
 *
 * The sandbox engine (./engine.ts; limits, isolation and warm-context LRU are
 * documented there) runs in a dedicated worker thread, loaded from
 * worker.generated.cjs (built by scripts/build-sandbox-runtime.ts). That
 * gives two things an in-process sandbox cannot:
 *  - a hard wall-clock limit: QuickJS polls its interrupt handler only every
 *    few thousand operations, so a loop around one expensive operation
 *    (`while (true) [...bigArray]`, comparing huge strings, ...) can overrun
 *    the deadline by minutes. A watchdog here terminates the worker shortly
 *    after the deadline if the sandbox has not given up by itself;
 *  - renders never block the server's event loop.
 * Requests are processed one at a time, in order. If the worker is
 * terminated (watchdog) or crashes, the request fails, the worker is
 * restarted on demand and warm contexts are rebuilt lazily.
 *
 * Not guarded with "server-only" so that Vitest can load it; never import it
 * from client components.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import {
  DEFAULT_SANDBOX_LIMITS,
  MIN_MEMORY_BYTES,
  type EngineResult,
  type EngineStats,
  type SandboxErrorKind,
  type SandboxLimits,
  type WorkerMessage,
  type WorkerRequest,
} from "./types";

export { DEFAULT_SANDBOX_LIMITS };
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
/** Time allowed for starting the worker and creating a sandbox (trusted code only) before "started". */
const START_TIMEOUT_MS = 15_000;

/** The engine interrupts at the deadline itself; the watchdog is the backstop, slightly later. */
function watchdogMs(limits: SandboxLimits): number {
  return limits.timeoutMs + Math.max(150, Math.round(limits.timeoutMs * 0.15));
}

type Job = {
  request: WorkerRequest;
  limits: SandboxLimits;
  resolve: (result: EngineResult) => void;
  reject: (error: unknown) => void;
  timer: ReturnType<typeof setTimeout> | null;
};

let worker: Worker | null = null;
let current: Job | null = null;
const queue: Job[] = [];
let nextId = 1;

const zeroStats = (): EngineStats => ({
  warmContexts: 0,
  contextsCreated: 0,
  contextsDisposedAfterLimit: 0,
  rendersInWarmContext: 0,
});
/** Counters of workers that are gone. */
const pastStats = zeroStats();
let workerStats = zeroStats();
let workerRestarts = 0;
let watchdogKills = 0;

function workerPath(): string {
  const candidates: string[] = [];
  try {
    if (import.meta.url.startsWith("file:")) {
      candidates.push(path.join(path.dirname(fileURLToPath(import.meta.url)), WORKER_FILE));
    }
  } catch {
    // bundled without a file URL: fall back to the project root
  }
  candidates.push(path.join(process.cwd(), "lib", "render", "sandbox", WORKER_FILE));
  const found = candidates.find((candidate) => existsSync(candidate));
  if (!found) {
    throw new Error(
      `Sandbox worker not found (looked in ${candidates.join(", ")}). Run \`npx tsx scripts/build-sandbox-runtime.ts\`.`,
    );
  }
  return found;
}

function absorbWorkerStats(): void {
  pastStats.contextsCreated += workerStats.contextsCreated;
  pastStats.contextsDisposedAfterLimit += workerStats.contextsDisposedAfterLimit;
  pastStats.rendersInWarmContext += workerStats.rendersInWarmContext;
  workerStats = zeroStats();
}

function spawnWorker(): Worker {
  const spawned = new Worker(workerPath(), {
    resourceLimits: { stackSizeMb: WORKER_STACK_MB },
    // The worker needs neither the server's environment nor its CLI flags/loaders.
    env: {},
    execArgv: [],
  });
  spawned.on("message", (message: WorkerMessage) => onWorkerMessage(spawned, message));
  spawned.on("error", (error: Error) => onWorkerGone(spawned, `crashed: ${error.message}`));
  spawned.on("exit", (code: number) => onWorkerGone(spawned, `exited with code ${code}`));
  spawned.unref();
  return spawned;
}

function dispatch(): void {
  if (current || queue.length === 0) return;
  const job = queue.shift()!;
  try {
    worker ??= spawnWorker();
  } catch (error) {
    job.reject(error);
    dispatch();
    return;
  }
  current = job;
  worker.ref(); // keep the process alive while a request is in flight
  job.timer = setTimeout(() => kill(job, "timeout", "The template sandbox did not start in time"), START_TIMEOUT_MS);
  worker.postMessage(job.request);
}

function onWorkerMessage(from: Worker, message: WorkerMessage): void {
  const job = current;
  if (from !== worker || !job || message.id !== job.request.id) return;
  if (job.timer) clearTimeout(job.timer);
  if (message.type === "started") {
    job.timer = setTimeout(() => kill(job, "timeout", "Template exceeded the render deadline"), watchdogMs(job.limits));
    return;
  }
  job.timer = null;
  workerStats = message.stats;
  current = null;
  if (queue.length === 0) from.unref();
  job.resolve(message.result);
  dispatch();
}

/** Watchdog: the sandbox did not give up by itself, so the whole worker goes. */
function kill(job: Job, kind: SandboxErrorKind, message: string): void {
  if (current !== job) return;
  const doomed = worker;
  worker = null;
  current = null;
  absorbWorkerStats();
  pastStats.contextsDisposedAfterLimit++;
  watchdogKills++;
  workerRestarts++;
  if (doomed) void doomed.terminate();
  job.resolve({ ok: false, kind, message });
  dispatch();
}

function onWorkerGone(from: Worker, reason: string): void {
  if (from !== worker) return; // already replaced (terminated by the watchdog or disposeSandboxes)
  worker = null;
  absorbWorkerStats();
  workerRestarts++;
  const job = current;
  current = null;
  if (job) {
    if (job.timer) clearTimeout(job.timer);
    job.resolve({ ok: false, kind: "memory", message: `The template sandbox worker ${reason}` });
  }
  dispatch();
}

type RequestWithoutId = WorkerRequest extends infer R ? (R extends WorkerRequest ? Omit<R, "id"> : never) : never;

function submit(request: RequestWithoutId, limits: SandboxLimits): Promise<EngineResult> {
  return new Promise<EngineResult>((resolve, reject) => {
    queue.push({ request: { ...request, id: nextId++ } as WorkerRequest, limits, resolve, reject, timer: null });
    dispatch();
  });
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
 * Resolves with exactly the string @react-email/render's
 * `render(<Component {...props} />)` would produce; rejects with
 * SandboxRenderError. `cacheKey` identifies the warm context
 * (templateId:version); a context is never shared between cacheKeys.
 */
export async function renderInSandbox(opts: {
  cacheKey: string;
  compiledCode: string;
  props: Record<string, unknown>;
  limits?: Partial<SandboxLimits>;
}): Promise<string> {
  assertNonEmptyString("cacheKey", opts.cacheKey);
  assertNonEmptyString("compiledCode", opts.compiledCode);
  const limits = resolveLimits(opts.limits);
  // Props cross into the sandbox as JSON text, never as code.
  const propsJson = JSON.stringify(opts.props ?? {});
  if (typeof propsJson !== "string" || !propsJson.startsWith("{")) {
    throw new TypeError("props must be a JSON-serializable object");
  }
  const result = await submit(
    { type: "render", cacheKey: opts.cacheKey, compiledCode: opts.compiledCode, propsJson, limits },
    limits,
  );
  if (!result.ok) throw new SandboxRenderError(result.kind, result.message);
  return result.value ?? "";
}

/**
 * Returns the template component's static `PreviewProps` (JSON-cloned), or
 * null when it has none or it is not a JSON object.
 */
export async function readPreviewProps(opts: {
  cacheKey: string;
  compiledCode: string;
  limits?: Partial<SandboxLimits>;
}): Promise<Record<string, unknown> | null> {
  assertNonEmptyString("cacheKey", opts.cacheKey);
  assertNonEmptyString("compiledCode", opts.compiledCode);
  const limits = resolveLimits(opts.limits);
  const result = await submit({ type: "preview", cacheKey: opts.cacheKey, compiledCode: opts.compiledCode, limits }, limits);
  if (!result.ok) throw new SandboxRenderError(result.kind, result.message);
  if (result.value === null) return null;
  const parsed: unknown = JSON.parse(result.value);
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return null;
  return parsed as Record<string, unknown>;
}

/**
 * Stops the sandbox worker, dropping every warm context (tests, hot reload,
 * shutdown). Requests still queued or running fail.
 */
export async function disposeSandboxes(): Promise<void> {
  const doomed = worker;
  worker = null;
  absorbWorkerStats();
  const pending = [...(current ? [current] : []), ...queue.splice(0)];
  current = null;
  for (const job of pending) {
    if (job.timer) clearTimeout(job.timer);
    job.reject(new Error("The template sandbox was disposed"));
  }
  if (doomed) await doomed.terminate();
}

export function getSandboxStats(): EngineStats & { workerRestarts: number; watchdogKills: number; queued: number } {
  return {
    warmContexts: workerStats.warmContexts,
    contextsCreated: pastStats.contextsCreated + workerStats.contextsCreated,
    contextsDisposedAfterLimit: pastStats.contextsDisposedAfterLimit + workerStats.contextsDisposedAfterLimit,
    rendersInWarmContext: pastStats.rendersInWarmContext + workerStats.rendersInWarmContext,
    workerRestarts,
    watchdogKills,
    queued: queue.length + (current ? 1 : 0),
  };
}
