/**
 * Renders catalogue templates on worker threads (catalogue-worker.ts, bundled into catalogue-worker.generated.cjs),
 * so a render — about a quarter of a millisecond of React for the welcome template, twice that with plain text — never
 * holds up the event loop that serves every other request. For an API response the worker also writes the JSON.
 *
 * Scheduled as the sandbox's worker is (lib/render/sandbox/index.ts). A worker renders one job at a time, in the order
 * it received them. Each owner (the account a render is for) has at most MAX_SENT_PER_OWNER jobs sent to a worker;
 * the rest wait here and the owners take turns, each job going to the worker with the fewest in flight. So one
 * account's flood delays another account's render by at most that many of its renders per worker. A worker publishes
 * the id and start time of the render it runs in shared memory; a watchdog terminates a worker whose render passes
 * RENDER_DEADLINE_MS (catalogue templates are trusted code: nothing inside the render can be interrupted). That render
 * fails, the jobs sent behind it go to a new worker, and its owner goes to the back of the line. The worker itself
 * refuses HTML over the contract's 5 MB. Workers start on first use and restart after a crash (the render running on the
 * crashed one fails). The jobs held (waiting or running) are bounded as the sandbox's are (./queue-admission.ts): past
 * MAX_CATALOGUE_QUEUE_PER_ACCOUNT of one account, or past MAX_CATALOGUE_QUEUE in all for an account holding its fair
 * share, a render is refused at once with the 503 SANDBOX_BUSY. A job whose request is aborted while it waits is dropped.
 */
import "server-only";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { generatedFilePath } from "./generated-file";
import { QueueAdmission, queueJob, removeFromLine } from "./queue-admission";
import { MAX_CATALOGUE_QUEUE, MAX_CATALOGUE_QUEUE_PER_ACCOUNT, RENDER_DEADLINE_MS } from "@/lib/limits";
import type { RenderWarning } from "./warnings";

export type CatalogueRenderRequest = {
  id: number;
  slug: string;
  props: Record<string, unknown>;
  plainText: boolean;
  /**
   * Answer with the UTF-8 JSON of `{ ...jsonFields, html, text?, warnings? }` instead of the strings; the HTML's own
   * warning (Gmail clipping) joins the `warnings` given here.
   */
  jsonFields?: JsonRenderFields;
};
export type JsonRenderFields = Record<string, unknown> & { warnings?: RenderWarning[] };
/** What a worker is started with: `progress` holds [running job id or 0, its start in ms since `epoch`, mod 2^32]. */
export type CatalogueWorkerData = { progress: SharedArrayBuffer; epoch: number };
/** A rendered document and, when asked for, its plain text. */
export type RenderedEmail = { html: string; text?: string; warnings?: RenderWarning[] };
/** The template threw, has no component (`missing`), made too much HTML, or ran past its deadline. */
export type CatalogueRenderFailure = "threw" | "missing" | "too_large" | "timeout";
export type CatalogueRenderReply =
  | ({ id: number; ok: true } & ({ rendered: RenderedEmail } | { json: Uint8Array<ArrayBuffer> }))
  | { id: number; ok: false; kind: Exclude<CatalogueRenderFailure, "timeout">; message: string };

export class CatalogueRenderError extends Error {
  constructor(
    message: string,
    readonly kind: CatalogueRenderFailure,
  ) {
    super(message);
    this.name = "CatalogueRenderError";
  }
}

/** Time a render may wait at the head of a worker's queue (starting the worker: trusted code only). */
const START_TIMEOUT_MS = 15_000;
/** Jobs of one owner sent to one worker at once (see the top of the file). */
const MAX_SENT_PER_OWNER = 2;
/** How often the watchdog looks at the running renders while any is in flight. */
const WATCHDOG_POLL_MS = 25;

const WORKER_FILE = "catalogue-worker.generated.cjs";
/** One core stays with the event loop; the workers take the others. */
const POOL_SIZE = Math.max(1, Math.min(4, os.availableParallelism() - 1));

type Job = {
  owner: string;
  request: CatalogueRenderRequest;
  resolve: (reply: CatalogueRenderReply & { ok: true }) => void;
  reject: (error: Error) => void;
};
type PoolWorker = {
  slot: number;
  thread: Worker;
  /** Written by the worker: see CatalogueWorkerData. */
  progress: Int32Array;
  epoch: number;
  /** Sent to this worker and not answered yet, oldest first: the worker runs them in this order. */
  inFlight: Job[];
  /** When the oldest job in flight became the next one to run: it must start within START_TIMEOUT_MS. */
  headSince: number;
};

const workers: (PoolWorker | null)[] = Array.from({ length: POOL_SIZE }, () => null);
/** Jobs not sent to a worker yet, per owner, oldest first; the owner served last goes to the back. */
const waiting = new Map<string, Job[]>();
const admission = new QueueAdmission(
  { total: MAX_CATALOGUE_QUEUE, perAccount: MAX_CATALOGUE_QUEUE_PER_ACCOUNT },
  {
    jobs: "renders",
    full: "The render workers are busy with other renders",
  },
);
let watchdog: ReturnType<typeof setInterval> | null = null;
let nextId = 1;

function spawn(slot: number): PoolWorker {
  const progress = new Int32Array(new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT));
  const epoch = Date.now();
  const thread = new Worker(generatedFilePath(WORKER_FILE, import.meta.url, path.join("lib", "render")), {
    env: {},
    execArgv: [],
    workerData: { progress: progress.buffer as SharedArrayBuffer, epoch } satisfies CatalogueWorkerData,
  });
  const worker: PoolWorker = { slot, thread, progress, epoch, inFlight: [], headSince: Date.now() };
  thread.on("message", (reply: CatalogueRenderReply) => onReply(worker, reply));
  thread.on("error", (error) => onGone(worker, `crashed: ${error.message}`));
  thread.on("exit", (code) => onGone(worker, `exited with code ${code}`));
  thread.unref();
  return worker;
}

/**
 * The document render() gives for the catalogue template `slug` with these (validated) props, and its plain text.
 * Rejects with the 503 ApiError when the queue is full, and with `signal`'s reason when it is aborted before the render
 * is sent to a worker.
 */
export async function renderCatalogueOffThread(
  owner: string,
  slug: string,
  props: Record<string, unknown>,
  plainText: boolean,
  signal?: AbortSignal,
): Promise<RenderedEmail> {
  const reply = await submit(owner, { slug, props, plainText }, signal);
  if (!("rendered" in reply)) throw new Error("The catalogue render worker answered JSON where strings were asked for");
  return reply.rendered;
}

/**
 * The same render as the UTF-8 JSON of `{ ...jsonFields, html, text?, warnings? }`, written on the worker: an API response body
 * the event loop only forwards, instead of serializing and encoding ten or more kilobytes of HTML itself.
 */
export async function renderCatalogueJsonOffThread(
  owner: string,
  slug: string,
  props: Record<string, unknown>,
  plainText: boolean,
  jsonFields: JsonRenderFields,
  signal?: AbortSignal,
): Promise<Uint8Array<ArrayBuffer>> {
  const reply = await submit(owner, { slug, props, plainText, jsonFields }, signal);
  if (!("json" in reply)) throw new Error("The catalogue render worker answered strings where JSON was asked for");
  return reply.json;
}

/** Queues the job; throws the 503 ApiError at once when the owner may not queue another (see the top of the file). */
function submit(
  owner: string,
  request: Omit<CatalogueRenderRequest, "id">,
  signal: AbortSignal | undefined,
): Promise<CatalogueRenderReply & { ok: true }> {
  return queueJob(
    admission,
    owner,
    signal,
    (settlers) => {
      const job: Job = { owner, request: { id: nextId++, ...request }, ...settlers };
      addWaiting(job, "last");
      dispatch();
      return job;
    },
    (job) => removeFromLine(waiting, job),
  );
}

function addWaiting(job: Job, place: "first" | "last"): void {
  const queue = waiting.get(job.owner);
  if (!queue) waiting.set(job.owner, [job]);
  else if (place === "first") queue.unshift(job);
  else queue.push(job);
}

function toBackOfLine(owner: string): void {
  const queue = waiting.get(owner);
  if (!queue) return;
  waiting.delete(owner);
  waiting.set(owner, queue);
}

/** Sends waiting jobs to the workers, owners in turn, each up to MAX_SENT_PER_OWNER per worker. */
function dispatch(): void {
  for (let sent = true; sent && waiting.size > 0;) {
    sent = false;
    for (const [owner, queue] of waiting) {
      const slot = slotFor(owner);
      if (slot === null) continue;
      let target: PoolWorker;
      try {
        target = workers[slot] ??= spawn(slot);
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

/** The slot with the fewest jobs in flight among those where `owner` may send another; null when there is none. */
function slotFor(owner: string): number | null {
  let best: number | null = null;
  for (let slot = 0; slot < workers.length; slot++) {
    const inFlight = workers[slot]?.inFlight ?? [];
    if (inFlight.filter((job) => job.owner === owner).length >= MAX_SENT_PER_OWNER) continue;
    if (best === null || inFlight.length < (workers[best]?.inFlight.length ?? 0)) best = slot;
  }
  return best;
}

function send(target: PoolWorker, job: Job): void {
  if (target.inFlight.length === 0) {
    target.headSince = Date.now();
    target.thread.ref(); // keep the process alive while a render is in flight
  }
  target.inFlight.push(job);
  target.thread.postMessage(job.request);
  watchdog ??= setInterval(checkDeadlines, WATCHDOG_POLL_MS);
  watchdog.unref();
}

function onReply(from: PoolWorker, reply: CatalogueRenderReply): void {
  const job = from.inFlight[0];
  if (workers[from.slot] !== from || !job || reply.id !== job.request.id) return;
  from.inFlight.shift();
  from.headSince = Date.now();
  if (from.inFlight.length === 0) idle(from);
  if (reply.ok) job.resolve(reply);
  else job.reject(new CatalogueRenderError(reply.message, reply.kind));
  dispatch();
}

function idle(target: PoolWorker): void {
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
      // Modular, as the worker writes it: right however long the worker has lived.
      const elapsed = (now - target.epoch - Atomics.load(target.progress, 1)) >>> 0;
      if (elapsed > RENDER_DEADLINE_MS) {
        kill(
          target,
          new CatalogueRenderError(
            `The template did not finish rendering within its deadline of ${RENDER_DEADLINE_MS} ms`,
            "timeout",
          ),
        );
      }
    } else if (now > target.headSince + START_TIMEOUT_MS) {
      kill(target, new Error("The catalogue render worker did not start a render in time"));
    }
  }
}

function kill(target: PoolWorker, failure: Error): void {
  replace(target, failure);
  void target.thread.terminate();
}

function onGone(from: PoolWorker, reason: string): void {
  if (workers[from.slot] !== from) return; // already replaced (by the watchdog) or stopped
  replace(from, new Error(`The catalogue render worker ${reason}`));
}

/** The render that was running fails; those sent behind it wait first in line again, ahead of its owner's. */
function replace(target: PoolWorker, failure: Error): void {
  workers[target.slot] = null;
  idle(target);
  const [running, ...sent] = target.inFlight.splice(0);
  for (const job of sent.reverse()) addWaiting(job, "first");
  if (running) {
    toBackOfLine(running.owner);
    running.reject(failure);
  }
  dispatch();
}

/** Stops the workers (tests, shutdown); renders in flight or waiting fail. */
export async function stopCatalogueWorkers(): Promise<void> {
  const running = workers.filter((worker) => worker !== null);
  workers.fill(null);
  const dropped = [...running.flatMap((worker) => worker.inFlight.splice(0)), ...[...waiting.values()].flat()];
  waiting.clear();
  for (const worker of running) idle(worker);
  for (const job of dropped) job.reject(new Error("The catalogue render workers were stopped"));
  await Promise.all(running.map((worker) => worker.thread.terminate()));
}
