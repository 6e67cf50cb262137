/**
 * Parses and compiles users' template code (compile.ts with sucrase and TypeScript's parser, ../react-source.ts with
 * TypeScript's) on worker threads (compile-worker.ts, bundled into compile-worker.generated.cjs), never on the event
 * loop every request shares: sucrase backtracks over arrow-function parameters, so a few hundred bytes of nested
 * defaults keep it busy for minutes, and TypeScript's parser re-reads nested type arguments. Each job has
 * COMPILE_DEADLINE_MS from the moment its worker is ready; a worker still busy past it is terminated and replaced,
 * and the job answers a failure with a message, as a compile error does. A worker runs one job at a time; the jobs
 * waiting here go out with the accounts taking turns (the one with the fewest jobs running first), so one account's
 * slow sources delay another's compile by at most one deadline. Workers start on first use.
 * The jobs held (waiting or running) are bounded as the sandbox's are (../queue-admission.ts): past MAX_COMPILE_QUEUE_PER_ACCOUNT
 * of one account, or past MAX_COMPILE_QUEUE in all for an account holding its fair share, a job is refused at once with
 * the 503 SANDBOX_BUSY, since each waiting job holds its source in memory. A job whose request is aborted while it waits
 * is dropped.
 */
import "server-only";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { COMPILE_DEADLINE_MS, MAX_COMPILE_QUEUE, MAX_COMPILE_QUEUE_PER_ACCOUNT } from "../../limits";
import { generatedFilePath } from "../generated-file";
import { QueueAdmission, queueJob, removeFromLine } from "../queue-admission";
import type { TemplateFiles } from "../../template-files";
import { oversizedFiles, oversizedSource, type CompileResult, type FilesCompileResult } from "./compile-result";

/** main thread → worker */
export type UserCodeRequest =
  | { id: number; type: "compile"; source: string }
  | { id: number; type: "compile-files"; files: TemplateFiles; entry: string }
  | { id: number; type: "react"; code: string; props: Record<string, unknown> };

/** How a worker starts: with Tailwind's bundle loaded when it replaces a worker whose Tailwind styled a template. */
export type CompileWorkerData = { preloadTailwind: boolean };

/** The template's source with the variables applied as its default props (see ../react-source.ts). */
export type ReactSourceResult = { ok: true; source: string } | { ok: false; message: string };

/**
 * worker → main thread: first `ready` (and again when it has loaded Tailwind for a job, whose deadline starts again),
 * then one answer per request; `error` is a bug of ours, not of the code. A worker that is not `reusable` keeps state
 * made from the job's input (compile-worker.ts) and is replaced.
 */
export type UserCodeReply =
  | { type: "ready" }
  | {
      type: "done";
      id: number;
      result: CompileResult | FilesCompileResult | ReactSourceResult;
      reusable: boolean;
    }
  | { type: "error"; id: number; message: string; reusable: boolean };

/** A compile that failed without a position in the source: it ran past its deadline or out of memory. */
export type UnplacedFailure = { ok: false; message: string; line?: undefined; column?: undefined };

const WORKER_FILE = "compile-worker.generated.cjs";
/** Two at once: a source running into its deadline does not hold up the next account's. */
const POOL_SIZE = 2;
/** Time a worker may take to load (trusted code only) before its job fails. */
const START_TIMEOUT_MS = 15_000;
/** Heap of one worker: parsing the largest source allowed takes a fraction of it. */
const WORKER_HEAP_MB = 256;

type UserCodeResult = CompileResult | FilesCompileResult | ReactSourceResult | UnplacedFailure;

type Job = {
  owner: string;
  request: UserCodeRequest;
  resolve: (result: UserCodeResult) => void;
  reject: (error: Error) => void;
};

type PoolWorker = { thread: Worker; ready: boolean; job: Job | null; timer: ReturnType<typeof setTimeout> | null };

const workers = new Set<PoolWorker>();
/** Jobs not sent to a worker yet, per owner, oldest first; the owner served last goes to the back. */
const waiting = new Map<string, Job[]>();
const admission = new QueueAdmission(
  { total: MAX_COMPILE_QUEUE, perAccount: MAX_COMPILE_QUEUE_PER_ACCOUNT },
  {
    jobs: "compiles",
    full: "The template compiler is busy with other compiles",
  },
);
let nextId = 1;

function spawn(preloadTailwind = false): PoolWorker {
  const thread = new Worker(generatedFilePath(WORKER_FILE, import.meta.url, path.join("lib", "render", "sandbox")), {
    workerData: { preloadTailwind } satisfies CompileWorkerData,
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    // The worker needs neither the server's environment nor its CLI flags/loaders.
    env: {},
    execArgv: [],
  });
  const worker: PoolWorker = { thread, ready: false, job: null, timer: null };
  thread.on("message", (reply: UserCodeReply) => onReply(worker, reply));
  thread.on("error", (error: Error) => {
    const outOfMemory = (error as { code?: unknown }).code === "ERR_WORKER_OUT_OF_MEMORY";
    retire(
      worker,
      outOfMemory
        ? "The template's code needs more memory to compile than a template may use"
        : `The compile worker crashed: ${error.message}`,
    );
  });
  thread.on("exit", (code: number) => retire(worker, `The compile worker exited with code ${code}`));
  thread.unref();
  workers.add(worker);
  return worker;
}

function onReply(worker: PoolWorker, reply: UserCodeReply): void {
  if (!workers.has(worker)) return;
  if (reply.type === "ready") {
    worker.ready = true;
    if (worker.job) startClock(worker, COMPILE_DEADLINE_MS, deadlineMessage(worker.job.request));
    return;
  }
  const job = worker.job;
  if (!job || reply.id !== job.request.id) return;
  finish(worker);
  if (!reply.reusable) {
    workers.delete(worker);
    void worker.thread.terminate();
    // Its replacement starts now, Tailwind loaded, off any job's clock: saves of such templates come in runs.
    try {
      spawn(true);
    } catch {
      // Started on demand by dispatch instead, which reports a failure to start.
    }
  }
  if (reply.type === "done") job.resolve(reply.result);
  else job.reject(new Error(`The compile worker failed: ${reply.message}`));
  dispatch();
}

/** Fails the worker's job with `message` (and replaces the worker) unless it answers within `ms`. */
function startClock(worker: PoolWorker, ms: number, message: string): void {
  if (worker.timer) clearTimeout(worker.timer);
  worker.timer = setTimeout(() => {
    retire(worker, message);
    void worker.thread.terminate();
  }, ms);
}

function deadlineMessage(request: UserCodeRequest): string {
  const what = request.type === "react" ? "parse" : "compile";
  return `The template's code took longer than ${COMPILE_DEADLINE_MS / 1000} s to ${what}: simplify it (deeply nested expressions, a very large file)`;
}

/** The worker is done with its job: it waits, without keeping the process alive, for the next. */
function finish(worker: PoolWorker): void {
  if (worker.timer) clearTimeout(worker.timer);
  worker.timer = null;
  worker.job = null;
  worker.thread.unref();
}

/** The worker is gone (deadline, crash, exit): its job, if still unanswered, fails with `message`. */
function retire(worker: PoolWorker, message: string): void {
  if (!workers.delete(worker)) return;
  const job = worker.job;
  finish(worker);
  job?.resolve({ ok: false, message });
  dispatch();
}

/** Sends waiting jobs to idle workers (starting workers up to POOL_SIZE), the owners in turn. */
function dispatch(): void {
  while (waiting.size > 0) {
    const idle = [...workers].filter((candidate) => candidate.job === null);
    let worker = idle.find((candidate) => candidate.ready) ?? idle[0];
    if (!worker && workers.size < POOL_SIZE) {
      try {
        worker = spawn();
      } catch (error) {
        for (const job of [...waiting.values()].flat()) job.reject(error as Error);
        waiting.clear();
        return;
      }
    }
    if (!worker) return;
    const owner = nextOwner();
    const queue = waiting.get(owner)!;
    const job = queue.shift()!;
    waiting.delete(owner);
    if (queue.length > 0) waiting.set(owner, queue); // to the back of the line
    worker.job = job;
    worker.thread.ref(); // keep the process alive while a job is in flight
    worker.thread.postMessage(job.request);
    if (worker.ready) startClock(worker, COMPILE_DEADLINE_MS, deadlineMessage(job.request));
    else startClock(worker, START_TIMEOUT_MS, "The compile worker did not start in time");
  }
}

/** The waiting owner with the fewest jobs running; of those, the one waiting longest for its turn. */
function nextOwner(): string {
  const running = (owner: string) => [...workers].filter((worker) => worker.job?.owner === owner).length;
  let chosen = "";
  let fewest = Infinity;
  for (const owner of waiting.keys()) {
    const count = running(owner);
    if (count < fewest) [chosen, fewest] = [owner, count];
  }
  return chosen;
}

/** Queues the job; throws the 503 ApiError at once when the owner may not queue another (see the top of the file). */
function submit(owner: string, request: UserCodeRequest, signal: AbortSignal | undefined): Promise<UserCodeResult> {
  return queueJob(
    admission,
    owner,
    signal,
    (settlers) => {
      const job: Job = { owner, request, ...settlers };
      const line = waiting.get(owner);
      if (line) line.push(job);
      else waiting.set(owner, [job]);
      dispatch();
      return job;
    },
    (job) => removeFromLine(waiting, job),
  );
}

/**
 * compileTemplate (./compile.ts) of a user's TSX, run on a worker under the deadline. `owner` is the account it is
 * for: accounts take turns. Rejects with the 503 ApiError when the queue is full, and with `signal`'s reason when it is
 * aborted before the compile starts.
 */
export async function compileTemplateOffThread(
  owner: string,
  source: string,
  signal?: AbortSignal,
): Promise<CompileResult | UnplacedFailure> {
  // Refused before it is copied to a worker.
  const oversized = oversizedSource(source);
  if (oversized) return oversized;
  return (await submit(owner, { id: nextId++, type: "compile", source }, signal)) as CompileResult | UnplacedFailure;
}

/**
 * compileTemplateFiles (./compile.ts) of a user's template of one or more files, as compileTemplateOffThread: one job,
 * under one deadline, for all the files.
 */
export async function compileTemplateFilesOffThread(
  owner: string,
  files: TemplateFiles,
  entry: string,
  signal?: AbortSignal,
): Promise<FilesCompileResult | UnplacedFailure> {
  const oversized = oversizedFiles(files);
  if (oversized) return oversized;
  return (await submit(owner, { id: nextId++, type: "compile-files", files, entry }, signal)) as
    FilesCompileResult | UnplacedFailure;
}

/** applyVariablesToSource (../react-source.ts) of a stored template's TSX, run on a worker under the deadline. */
export async function applyVariablesOffThread(
  owner: string,
  code: string,
  props: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<ReactSourceResult> {
  const oversized = oversizedSource(code);
  if (oversized) return { ok: false, message: oversized.message };
  return (await submit(owner, { id: nextId++, type: "react", code, props }, signal)) as ReactSourceResult;
}

/** Stops the workers (tests, shutdown); jobs waiting or running fail. */
export async function stopCompileWorkers(): Promise<void> {
  const running = [...workers];
  workers.clear();
  const dropped = [...running.flatMap((worker) => (worker.job ? [worker.job] : [])), ...[...waiting.values()].flat()];
  waiting.clear();
  for (const worker of running) finish(worker);
  for (const job of dropped) job.reject(new Error("The compile workers were stopped"));
  await Promise.all(running.map((worker) => worker.thread.terminate()));
}
