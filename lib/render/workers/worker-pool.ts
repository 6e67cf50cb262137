/**
 * The pool of worker threads that catalogue renders (./catalogue-pool.ts), sandboxed renders (./sandbox/index.ts) and
 * compiles (./sandbox/compile-pool.ts) run on, so that none of them holds up the event loop every request shares. Each
 * of the three gives what differs: its worker's file and limits, how many jobs a worker takes at once, a job's
 * deadline, what the worker's messages mean, and what a job whose worker went answers.
 *
 * Turns. Jobs wait here, per owner (the account they are for), until a worker has room: a worker takes at most
 * `jobsPerWorker`, of one owner at most `jobsPerOwnerPerWorker`, and runs them in the order it received them. The
 * owner with the fewest jobs sent goes first, the owner served last going to the back of the line; its job goes to the
 * least busy worker (a ready one before one still starting, before starting a new one), unless `pick` prefers another.
 * So one account's flood delays another account's job by at most `jobsPerOwnerPerWorker` of its jobs per worker.
 *
 * Owners kept apart (`keepOwnersApart`, the sandbox's pool): a job goes only to a worker whose jobs in flight are all
 * its owner's, behind them only while no other owner waits for a worker, and an owner's jobs are on all the workers but
 * one at most. So however slow one account's jobs are (say, each running to its deadline), they never hold every
 * worker, and another account's job never waits in a worker behind them: it waits here for the first worker free of
 * them, which the jobs of others, fast ones, free again soon.
 *
 * Deadlines. A worker publishes the id and start of the job it runs in shared memory (./worker-progress.ts). While any
 * job is in flight a watchdog reads them, and terminates a worker whose job has run past `deadlineMs` (counted from
 * the job's start on its worker), or whose next job has not started within START_TIMEOUT_MS. On the `thread-cpu`
 * clock the deadline counts the CPU time the worker's thread spends on the job (./thread-cpu.ts; wall-clock time where
 * there is none to read), so that a machine busy with other work slows a job down without failing it; the job still
 * goes past WALL_CLOCK_ALLOWANCE deadlines of wall-clock time, so its worker is free again within that however busy. The job it was running
 * answers what `lost` says, the jobs sent behind it wait first in line again, and its owner goes to the back of the
 * line. A worker that crashes or exits is replaced the same way.
 *
 * Admission. The jobs held (waiting or sent) are bounded fairly (./queue-admission.ts): a job past the bounds is
 * refused at once with the 503 SANDBOX_BUSY. A job whose signal aborts while it still waits leaves the line.
 *
 * Workers start on first use, each below the event loop's priority (./worker-priority.ts, which every worker's entry
 * imports first), and keep the process alive only while they have jobs.
 */
import "server-only";
import { watchFile } from "node:fs";
import { Worker, type ResourceLimits } from "node:worker_threads";
import { QueueAdmission, type AdmissionCaps } from "./queue-admission";
import { threadCpuMs } from "./thread-cpu";
import { PROGRESS_CELLS, type ProgressData } from "./worker-progress";

/** Time a job may wait at the head of a worker's queue: starting a worker runs trusted code only. */
const START_TIMEOUT_MS = 15_000;
/** How often the watchdog looks at the running jobs while any is in flight. */
const WATCHDOG_POLL_MS = 25;
/** A job on the `thread-cpu` clock goes after this many of its deadlines of wall-clock time, whatever its CPU time. */
export const WALL_CLOCK_ALLOWANCE = 5;

/** Why a job's worker went before it answered: its deadline, its start, or the worker crashed or exited. */
export type WorkerLoss =
  | { cause: "deadline" }
  | { cause: "start" }
  | { cause: "crashed"; reason: string; error: Error }
  | { cause: "exited"; reason: string };

/**
 * What a worker's message means: the worker is ready, or the answer to job `id`, a result or an error. `spent`: the
 * job left state in the worker that no other job may meet; the worker is replaced at once.
 */
export type WorkerReading<Result> =
  { ready: true } | ({ id: number; spent?: boolean } & ({ result: Result } | { error: Error }));

/** A worker with room for a job, and how many jobs it has. */
export type WorkerChoice = { slot: number; load: number };

/** `Request`: a job as its pool's callers give it; the worker receives it with the `id` the pool gives it. */
export type WorkerPoolOptions<Request extends object, Message, Result> = {
  /** The worker's entry, found when a worker starts. */
  file: () => string;
  workers: number;
  jobsPerWorker: number;
  jobsPerOwnerPerWorker: number;
  admission: AdmissionCaps;
  resourceLimits?: ResourceLimits;
  /** What a worker starts with besides its progress cells; `spent`: it replaces a spent worker. */
  workerData?: (spent: boolean) => object;
  deadlineMs: (request: Request) => number;
  /** What the deadline counts: wall-clock time (the default), or the CPU time of the worker's thread. */
  deadlineClock?: "wall" | "thread-cpu";
  read: (message: Message, slot: number) => WorkerReading<Result>;
  /** What a job answers (or the error it fails with) when its worker went before it answered. */
  lost: (loss: WorkerLoss, request: Request) => Result | Error;
  /** Chooses among the workers with room for `request`, least busy first; the first when not given. */
  pick?: (request: Request, choices: WorkerChoice[]) => number;
  /** Keep owners apart on the workers (see the top of the file). */
  keepOwnersApart?: boolean;
  /**
   * Told when the worker in `slot` goes: with its loss and the owner of the job it lost (null when none), or with null
   * when it was stopped or replaced sound.
   */
  onWorkerGone?: (slot: number, loss: WorkerLoss | null, lostOwner: string | null) => void;
  /** Replace the workers whenever their file changes (development only: bin/serve.ts rebuilds it). */
  reloadOnChange?: boolean;
};

/** A worker's request without the id the pool gives it. */
export type WithoutId<Request> = Request extends unknown ? Omit<Request, "id"> : never;

type Job<Request, Result> = {
  owner: string;
  request: Request & { id: number };
  onRunTime: ((ms: number) => void) | undefined;
  resolve: (result: Result) => void;
  reject: (error: Error) => void;
};

/** With owners kept apart: the workers each owner's jobs are on, the most one owner may be on, who may take one more. */
type OwnersApart = { workersOf: Map<string, number>; most: number; mayTakeAWorker: number };

type PoolWorker<J> = {
  slot: number;
  thread: Worker;
  /** Written by the worker: [id of the running job or 0, its start in ms since `epoch`, mod 2^32]. */
  progress: Int32Array;
  epoch: number;
  /** Said it is ready, or answered a job. */
  ready: boolean;
  /** Sent to this worker and not answered yet, oldest first: the worker runs them in this order. */
  inFlight: J[];
  /** When the oldest job in flight became the next one to run: it must start within START_TIMEOUT_MS. */
  headSince: number;
  /**
   * On the `thread-cpu` clock, the running job's CPU time so far: added up at each look while the job shows as
   * running (not while the worker loads what it needs off the job's clock); `lastMs` null until the next look.
   */
  cpu: { jobId: number; lastMs: number | null; usedMs: number } | null;
};

export class WorkerPool<Request extends object, Message, Result> {
  private readonly workers: (PoolWorker<Job<Request, Result>> | null)[];
  /** Jobs not sent to a worker yet, per owner, oldest first; the owner served last goes to the back. */
  private readonly waiting = new Map<string, Job<Request, Result>[]>();
  /** Jobs sent to workers and not answered yet, per owner. */
  private readonly sent = new Map<string, number>();
  private readonly admission: QueueAdmission;
  private watchdog: ReturnType<typeof setInterval> | null = null;
  private watchingFile = false;
  private nextId = 1;

  constructor(private readonly options: WorkerPoolOptions<Request, Message, Result>) {
    this.workers = Array.from({ length: options.workers }, () => null);
    this.admission = new QueueAdmission(options.admission);
  }

  /** Jobs held: waiting, sent or running. */
  get held(): number {
    return this.admission.held;
  }

  /**
   * Runs `request` for `owner` on a worker. Throws the SANDBOX_BUSY AppError at once when the owner may not queue
   * another job, and rejects with `signal`'s reason when it aborts while the job still waits. `onRunTime` is told how
   * long the job ran on its worker (waiting not included) when it ends, answered or lost.
   */
  run(
    owner: string,
    request: Request,
    { signal, onRunTime }: { signal?: AbortSignal; onRunTime?: (ms: number) => void } = {},
  ): Promise<Result> {
    signal?.throwIfAborted();
    const release = this.admission.admit(owner);
    return new Promise<Result>((resolve, reject) => {
      const settle = () => {
        release();
        signal?.removeEventListener("abort", drop);
      };
      const job: Job<Request, Result> = {
        owner,
        request: { ...request, id: this.nextId++ },
        onRunTime,
        resolve: (result) => {
          settle();
          resolve(result);
        },
        reject: (error) => {
          settle();
          reject(error);
        },
      };
      const drop = () => {
        if (this.leaveLine(job)) job.reject(signal!.reason);
      };
      signal?.addEventListener("abort", drop, { once: true });
      this.wait(job, "last");
      this.dispatch();
    });
  }

  /** Stops the workers (tests, shutdown); jobs waiting or in flight fail with `reason`. */
  async stop(reason: string): Promise<void> {
    const live = this.workers.filter((worker) => worker !== null);
    this.workers.fill(null);
    const dropped = [...live.flatMap((worker) => worker.inFlight.splice(0)), ...[...this.waiting.values()].flat()];
    this.waiting.clear();
    this.sent.clear();
    for (const worker of live) {
      this.idle(worker);
      this.options.onWorkerGone?.(worker.slot, null, null);
    }
    for (const job of dropped) job.reject(new Error(reason));
    await Promise.all(live.map((worker) => worker.thread.terminate()));
  }

  private spawn(slot: number, spent: boolean): PoolWorker<Job<Request, Result>> {
    const file = this.options.file();
    const progress = new Int32Array(new SharedArrayBuffer(PROGRESS_CELLS * Int32Array.BYTES_PER_ELEMENT));
    const epoch = Date.now();
    const thread = new Worker(file, {
      resourceLimits: this.options.resourceLimits,
      // The worker needs neither the server's environment nor its CLI flags/loaders.
      env: {},
      execArgv: [],
      workerData: {
        ...this.options.workerData?.(spent),
        progress: progress.buffer as SharedArrayBuffer,
        epoch,
      } satisfies ProgressData,
    });
    const worker = { slot, thread, progress, epoch, ready: false, inFlight: [], headSince: Date.now(), cpu: null };
    thread.on("message", (message: Message) => this.onMessage(worker, message));
    thread.on("error", (error: Error) =>
      this.lose(worker, { cause: "crashed", reason: `crashed: ${error.message}`, error }),
    );
    thread.on("exit", (code: number) => this.lose(worker, { cause: "exited", reason: `exited with code ${code}` }));
    thread.unref();
    if (this.options.reloadOnChange && !this.watchingFile) {
      this.watchingFile = true;
      watchFile(file, { interval: 250 }, (now, before) => {
        if (now.mtimeMs !== before.mtimeMs) this.restart();
      }).unref();
    }
    return worker;
  }

  private wait(job: Job<Request, Result>, place: "first" | "last"): void {
    const line = this.waiting.get(job.owner);
    if (!line) this.waiting.set(job.owner, [job]);
    else if (place === "first") line.unshift(job);
    else line.push(job);
  }

  /** Takes `job` out of its owner's line; false when it is no longer waiting (sent to a worker, or settled). */
  private leaveLine(job: Job<Request, Result>): boolean {
    const line = this.waiting.get(job.owner);
    const index = line?.indexOf(job) ?? -1;
    if (index === -1) return false;
    line!.splice(index, 1);
    if (line!.length === 0) this.waiting.delete(job.owner);
    return true;
  }

  private toBackOfLine(owner: string): void {
    const line = this.waiting.get(owner);
    if (!line) return;
    this.waiting.delete(owner);
    this.waiting.set(owner, line);
  }

  /** Sends waiting jobs to workers with room, the owner with the fewest jobs sent first (see the top of the file). */
  private dispatch(): void {
    while (this.waiting.size > 0) {
      const apart = this.options.keepOwnersApart ? this.ownersApart() : null;
      let next: { owner: string; choices: WorkerChoice[] } | null = null;
      let fewest = Infinity;
      for (const owner of this.waiting.keys()) {
        const sent = this.sent.get(owner) ?? 0;
        if (sent >= fewest) continue;
        const choices = this.choices(owner, apart);
        if (choices.length > 0) [next, fewest] = [{ owner, choices }, sent];
      }
      if (!next) return;
      const line = this.waiting.get(next.owner)!;
      const slot = this.options.pick?.(line[0].request, next.choices) ?? next.choices[0].slot;
      let worker: PoolWorker<Job<Request, Result>>;
      try {
        worker = this.workers[slot] ??= this.spawn(slot, false);
      } catch (error) {
        for (const job of [...this.waiting.values()].flat()) job.reject(error as Error);
        this.waiting.clear();
        return;
      }
      this.send(worker, line.shift()!);
      this.waiting.delete(next.owner);
      if (line.length > 0) this.waiting.set(next.owner, line); // to the back of the line
    }
  }

  /**
   * With owners kept apart: how many workers each owner's jobs are on, and how many waiting owners may take another
   * worker (those on fewer than all the workers but one).
   */
  private ownersApart(): OwnersApart {
    const workersOf = new Map<string, number>();
    for (const worker of this.workers) {
      for (const owner of new Set(worker?.inFlight.map((job) => job.owner))) {
        workersOf.set(owner, (workersOf.get(owner) ?? 0) + 1);
      }
    }
    const most = Math.max(1, this.workers.length - 1);
    let mayTakeAWorker = 0;
    for (const owner of this.waiting.keys()) if ((workersOf.get(owner) ?? 0) < most) mayTakeAWorker++;
    return { workersOf, most, mayTakeAWorker };
  }

  /** The workers with room for another of `owner`'s jobs: least busy first, then ready, started, not started. */
  private choices(owner: string, apart: OwnersApart | null): WorkerChoice[] {
    const ownersWorkers = apart?.workersOf.get(owner) ?? 0;
    // Behind its own jobs only while no other owner waits for a worker: the next worker free goes to that owner.
    const othersWait = apart !== null && apart.mayTakeAWorker > (ownersWorkers < apart.most ? 1 : 0);
    const choices: (WorkerChoice & { rank: number })[] = [];
    this.workers.forEach((worker, slot) => {
      const inFlight = worker?.inFlight ?? [];
      if (inFlight.length >= this.options.jobsPerWorker) return;
      let owners = 0;
      for (const job of inFlight) if (job.owner === owner) owners++;
      if (owners >= this.options.jobsPerOwnerPerWorker) return;
      if (apart) {
        if (owners < inFlight.length) return; // another owner's job is there
        if (inFlight.length > 0 ? othersWait : ownersWorkers >= apart.most) return;
      }
      choices.push({ slot, load: inFlight.length, rank: !worker ? 2 : worker.ready ? 0 : 1 });
    });
    return choices.sort((a, b) => a.load - b.load || a.rank - b.rank);
  }

  private send(worker: PoolWorker<Job<Request, Result>>, job: Job<Request, Result>): void {
    if (worker.inFlight.length === 0) {
      worker.headSince = Date.now();
      worker.thread.ref(); // keep the process alive while a job is in flight
    }
    worker.inFlight.push(job);
    this.sent.set(job.owner, (this.sent.get(job.owner) ?? 0) + 1);
    worker.thread.postMessage(job.request);
    this.watchdog ??= setInterval(() => this.checkDeadlines(), WATCHDOG_POLL_MS);
    this.watchdog.unref();
  }

  /** `job` is no longer in flight. */
  private unsend(job: Job<Request, Result>): void {
    const left = this.sent.get(job.owner)! - 1;
    if (left === 0) this.sent.delete(job.owner);
    else this.sent.set(job.owner, left);
  }

  private onMessage(worker: PoolWorker<Job<Request, Result>>, message: Message): void {
    if (this.workers[worker.slot] !== worker) return;
    const reading = this.options.read(message, worker.slot);
    worker.ready = true;
    if ("ready" in reading) return;
    const job = worker.inFlight[0];
    if (!job || reading.id !== job.request.id) return;
    worker.inFlight.shift();
    this.unsend(job);
    // The worker started this job when it became the head of its queue, and takes the next one now.
    const now = Date.now();
    job.onRunTime?.(now - worker.headSince);
    worker.headSince = now;
    if (reading.spent) this.replaceSpent(worker);
    else if (worker.inFlight.length === 0) this.idle(worker);
    if ("error" in reading) job.reject(reading.error);
    else job.resolve(reading.result);
    this.dispatch();
  }

  /** The worker waits for its next job without keeping the process alive; the watchdog stops when no job is in flight. */
  private idle(worker: PoolWorker<Job<Request, Result>>): void {
    worker.thread.unref();
    if (this.watchdog && this.workers.every((live) => !live || live.inFlight.length === 0)) {
      clearInterval(this.watchdog);
      this.watchdog = null;
    }
  }

  /** A running job's deadline, or the next job's start, has passed: that whole worker goes. */
  private checkDeadlines(): void {
    const now = Date.now();
    for (const worker of this.workers) {
      const head = worker?.inFlight[0];
      if (!worker || !head) continue;
      if (Atomics.load(worker.progress, 0) === head.request.id) {
        // Modular, as the worker writes it into an Int32: right however long the worker has lived.
        const elapsed = (now - worker.epoch - Atomics.load(worker.progress, 1)) >>> 0;
        const deadline = this.options.deadlineMs(head.request);
        const cpu = this.options.deadlineClock === "thread-cpu" ? this.cpuTime(worker, head.request.id) : null;
        const late = cpu === null ? elapsed > deadline : cpu > deadline || elapsed > deadline * WALL_CLOCK_ALLOWANCE;
        if (late) this.lose(worker, { cause: "deadline" });
      } else {
        if (worker.cpu) worker.cpu.lastMs = null;
        if (now > worker.headSince + START_TIMEOUT_MS) this.lose(worker, { cause: "start" });
      }
    }
  }

  /** The CPU time job `jobId` has spent running on `worker` so far; null when the thread's time cannot be read. */
  private cpuTime(worker: PoolWorker<Job<Request, Result>>, jobId: number): number | null {
    const tid = Atomics.load(worker.progress, 2);
    const now = tid === 0 ? null : threadCpuMs(tid);
    if (now === null) return null;
    if (worker.cpu?.jobId !== jobId) worker.cpu = { jobId, lastMs: now, usedMs: 0 };
    else if (worker.cpu.lastMs !== null) worker.cpu.usedMs += now - worker.cpu.lastMs;
    worker.cpu.lastMs = now;
    return worker.cpu.usedMs;
  }

  /** The worker went before it answered: its running job answers `lost`, its owner goes to the back of the line. */
  private lose(worker: PoolWorker<Job<Request, Result>>, loss: WorkerLoss): void {
    if (this.workers[worker.slot] !== worker) return; // already replaced or stopped
    const running = worker.inFlight.shift();
    this.detach(worker, loss, running?.owner ?? null);
    if (running) {
      this.unsend(running);
      this.toBackOfLine(running.owner);
      running.onRunTime?.(Date.now() - worker.headSince);
      const answer = this.options.lost(loss, running.request);
      if (answer instanceof Error) running.reject(answer);
      else running.resolve(answer);
    }
    this.dispatch();
  }

  /** Its job left state in the worker (see WorkerReading): it goes, and its replacement starts now, off any job's clock. */
  private replaceSpent(worker: PoolWorker<Job<Request, Result>>): void {
    this.detach(worker, null, null);
    try {
      this.workers[worker.slot] = this.spawn(worker.slot, true);
    } catch {
      // Started on demand by dispatch instead, which reports a failure to start.
    }
  }

  /** New workers for every slot, loading the file as it is now; their jobs go to them first. */
  private restart(): void {
    for (const worker of this.workers) if (worker) this.detach(worker, null, null);
    this.dispatch();
  }

  /** Terminates the worker and empties its slot; the jobs it was sent and still holds wait first in line again. */
  private detach(worker: PoolWorker<Job<Request, Result>>, loss: WorkerLoss | null, lostOwner: string | null): void {
    this.workers[worker.slot] = null;
    this.idle(worker);
    for (const job of worker.inFlight.splice(0).reverse()) {
      this.unsend(job);
      this.wait(job, "first");
    }
    this.options.onWorkerGone?.(worker.slot, loss, lostOwner);
    void worker.thread.terminate();
  }
}
