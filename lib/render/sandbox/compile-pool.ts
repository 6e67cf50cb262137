/**
 * Parses and compiles users' template code (compile.ts with sucrase and TypeScript's parser, ../react-source.ts with
 * TypeScript's) on worker threads (compile-worker.ts, bundled into compile-worker.generated.cjs), never on the event
 * loop every request shares: sucrase backtracks over arrow-function parameters, so a few hundred bytes of nested
 * defaults keep it busy for minutes, and TypeScript's parser re-reads nested type arguments. Through the pool of
 * ../worker-pool.ts (turns, deadlines, admission): each job has COMPILE_DEADLINE_MS of its worker's CPU time (loading
 * Tailwind's bundle not counted; at most five times that of wall-clock time), so that a template compiles on a machine
 * busy with renders or other compiles as on an idle one, a worker's thread running below the event loop's priority.
 * A worker still busy past it is terminated and replaced, and the job answers a failure with a message, as a compile
 * error does. A worker runs one job at a time, and the account with the fewest jobs running goes first, so one
 * account's slow sources delay another's compile by at most one deadline (on an idle machine; five at most). Past COMPILE_QUEUE.perAccount jobs held
 * by one account, or past COMPILE_QUEUE.total in all for an account holding its fair share, a job is refused at once with
 * the 503 SANDBOX_BUSY, since each waiting job holds its source in memory.
 */
import "server-only";
import { COMPILE_DEADLINE_MS, COMPILE_QUEUE } from "../../core/limits";
import { generatedFilePath } from "../workers/generated-file";
import { WorkerPool, type WithoutId, type WorkerLoss } from "../workers/worker-pool";
import type { TemplateFiles } from "../../templates/files";
import type { MessagesCheck } from "../../templates/messages";
import {
  oversizedFiles,
  oversizedSource,
  type CompileComponents,
  type CompileResult,
  type FilesCompileResult,
} from "./compile-result";

/** main thread → worker */
export type UserCodeRequest =
  | { id: number; type: "compile"; source: string }
  | {
      id: number;
      type: "compile-files";
      files: TemplateFiles;
      entry: string;
      defaultLocale: string | null;
      components?: CompileComponents;
    }
  | { id: number; type: "react"; code: string; props: Record<string, unknown> }
  | { id: number; type: "messages"; files: TemplateFiles; defaultLocale: string | undefined };

/**
 * How a worker starts, besides its progress cells (../worker-progress.ts): with Tailwind's bundle loaded when it
 * replaces a worker whose Tailwind styled a template.
 */
export type CompileWorkerData = { preloadTailwind: boolean };

/** The template's source with the variables applied as its default props (see ../react-source.ts). */
export type ReactSourceResult = { ok: true; source: string } | { ok: false; message: string };

/**
 * worker → main thread: first `ready`, then one answer per request; `error` is a bug of ours, not of the code. A worker
 * that is not `reusable` keeps state made from the job's input (compile-worker.ts) and is replaced.
 */
export type UserCodeReply =
  | { type: "ready" }
  | {
      type: "done";
      id: number;
      result: CompileResult | FilesCompileResult | ReactSourceResult | MessagesCheck;
      reusable: boolean;
    }
  | { type: "error"; id: number; message: string; reusable: boolean };

/** A compile that failed without a position in the source: it ran past its deadline or out of memory. */
export type UnplacedFailure = { ok: false; message: string; line?: undefined; column?: undefined };

/** Heap of one worker: parsing the largest source allowed takes a fraction of it. */
const WORKER_HEAP_MB = 256;

type UserCodeResult = CompileResult | FilesCompileResult | ReactSourceResult | MessagesCheck | UnplacedFailure;

const pool = new WorkerPool<WithoutId<UserCodeRequest>, UserCodeReply, UserCodeResult>({
  file: () => generatedFilePath("lib/render/sandbox/compile-worker.generated.cjs", import.meta.url),
  // Two at once, and accounts kept apart as on the sandbox's pool: one account's sources running into their deadline
  // hold one worker at most while another account's compile waits.
  workers: 2,
  jobsPerWorker: 1,
  jobsPerOwnerPerWorker: 1,
  keepOwnersApart: true,
  admission: {
    ...COMPILE_QUEUE,
    jobs: "compiles",
    full: "The template compiler is busy with other compiles",
  },
  resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
  // Saves of templates with <Tailwind> come in runs: a spent worker's replacement starts with it loaded.
  workerData: (spent) => ({ preloadTailwind: spent }) satisfies CompileWorkerData,
  deadlineMs: () => COMPILE_DEADLINE_MS,
  deadlineClock: "thread-cpu",
  read: (reply) =>
    reply.type === "ready"
      ? { ready: true }
      : reply.type === "done"
        ? { id: reply.id, result: reply.result, spent: !reply.reusable }
        : { id: reply.id, error: new Error(`The compile worker failed: ${reply.message}`), spent: !reply.reusable },
  lost: (loss, request) => ({ ok: false, message: lossMessage(loss, request) }),
});

function lossMessage(loss: WorkerLoss, request: WithoutId<UserCodeRequest>): string {
  switch (loss.cause) {
    case "deadline":
      return request.type === "messages"
        ? `The template's messages took longer than ${COMPILE_DEADLINE_MS / 1000} s to parse: simplify them`
        : `The template's code took longer than ${COMPILE_DEADLINE_MS / 1000} s to ${request.type === "react" ? "parse" : "compile"}: simplify it (deeply nested expressions, a very large file)`;
    case "start":
      return "The compile worker did not start in time";
    case "crashed":
      return (loss.error as { code?: unknown }).code === "ERR_WORKER_OUT_OF_MEMORY"
        ? "The template's code needs more memory to compile than a template may use"
        : `The compile worker ${loss.reason}`;
    case "exited":
      return `The compile worker ${loss.reason}`;
  }
}

/**
 * compileTemplate (./compile.ts) of a user's TSX, run on a worker under the deadline. `owner` is the account it is
 * for: accounts take turns. Rejects with the SANDBOX_BUSY AppError when the queue is full, and with `signal`'s reason
 * when it is aborted before the compile starts.
 */
export async function compileTemplateOffThread(
  owner: string,
  source: string,
  signal?: AbortSignal,
): Promise<CompileResult | UnplacedFailure> {
  return runJob(owner, { type: "compile", source }, oversizedSource(source), signal);
}

/**
 * compileTemplateFiles (./compile.ts) of a user's template of one or more files, as compileTemplateOffThread: one job,
 * under one deadline, for all the files. A template with messages names its default locale: the job first merges
 * each locale's messages with its fallbacks (localizedFiles), the template's code importing them merged.
 */
export async function compileTemplateFilesOffThread(
  owner: string,
  files: TemplateFiles,
  entry: string,
  defaultLocale: string | null,
  components?: CompileComponents,
  signal?: AbortSignal,
): Promise<FilesCompileResult | UnplacedFailure> {
  const request = { type: "compile-files", files, entry, defaultLocale, components } as const;
  return runJob(owner, request, oversizedFiles(files), signal);
}

/** applyVariablesToSource (../react-source.ts) of a stored template's TSX, run on a worker under the deadline. */
export async function applyVariablesOffThread(
  owner: string,
  code: string,
  props: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<ReactSourceResult> {
  const oversized = oversizedSource(code);
  return runJob(owner, { type: "react", code, props }, oversized && { ok: false, message: oversized.message }, signal);
}

/**
 * checkMessages (../../templates/messages.ts) of a template's `messages/<tag>.json` files, run on a worker under the
 * deadline as a compile is: up to 50 files of 100 KB of ICU messages are parsed at each save, which the event loop
 * every request shares should not wait for.
 */
export async function checkMessagesOffThread(
  owner: string,
  files: TemplateFiles,
  defaultLocale: string | undefined,
  signal?: AbortSignal,
): Promise<MessagesCheck | UnplacedFailure> {
  return runJob<MessagesCheck | UnplacedFailure>(owner, { type: "messages", files, defaultLocale }, null, signal);
}

/** The job's result from a worker, or `refused` at once: a source too large is not copied to one. */
async function runJob<Result extends UserCodeResult>(
  owner: string,
  request: WithoutId<UserCodeRequest>,
  refused: Result | null,
  signal?: AbortSignal,
): Promise<Result> {
  if (refused) return refused;
  return (await pool.run(owner, request, { signal })) as Result;
}

/** Stops the workers (tests, shutdown); jobs waiting or running fail. */
export function stopCompileWorkers(): Promise<void> {
  return pool.stop("The compile workers were stopped");
}
