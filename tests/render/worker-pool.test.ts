/**
 * The worker pool the catalogue renders, sandboxed renders and compiles share (lib/render/workers/worker-pool.ts),
 * driven with a tiny worker of its own: turns between accounts, deadlines, replacing a worker, admission, abandoned
 * jobs, stopping and reloading. The three pools' own behaviour is tested end to end in render.test.ts, sandbox.test.ts
 * and user-code-off-thread.test.ts.
 */
import { mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { httpError } from "@/lib/api/errors";
import { AppError } from "@/lib/core/errors";
import { currentThreadId, threadCpuMs } from "@/lib/render/workers/thread-cpu";
import { WorkerPool, type WorkerLoss, type WorkerPoolOptions } from "@/lib/render/workers/worker-pool";
import { jobProgress, PROGRESS_CELLS } from "@/lib/render/workers/worker-progress";

/** What the test worker is asked to do: answer at once, after `ms` asleep or busy, never, or crash or exit. */
type Job = { op: "answer" | "sleep" | "spin" | "hang" | "crash" | "exit"; ms?: number; label: string; spend?: boolean };
type Answer = { id: number; label: string; version: number; threadId: number; preloaded: boolean; spend?: boolean };

/**
 * A worker as the pool's workers are: one job at a time in order, publishing its thread's Linux id and each job's id
 * and start.
 */
const workerSource = (version: number) => `
const { parentPort, threadId, workerData } = require("node:worker_threads");
const cells = new Int32Array(workerData.progress);
if (process.platform === "linux")
  Atomics.store(cells, 2, Number(require("node:fs").readFileSync("/proc/thread-self/stat", "latin1").split(" ")[0]));
let queue = Promise.resolve();
parentPort.on("message", (job) => { queue = queue.then(() => run(job)); });
async function run(job) {
  Atomics.store(cells, 1, Date.now() - workerData.epoch);
  Atomics.store(cells, 0, job.id);
  if (job.op === "sleep") await new Promise((resolve) => setTimeout(resolve, job.ms));
  if (job.op === "spin") for (const end = Date.now() + job.ms; Date.now() < end; );
  if (job.op === "hang") await new Promise(() => {});
  if (job.op === "crash") setImmediate(() => { throw new Error("boom"); });
  if (job.op === "exit") process.exit(3);
  if (job.op === "crash") return;
  Atomics.store(cells, 0, 0);
  const { id, label, spend } = job;
  parentPort.postMessage({ id, label, spend, version: ${version}, threadId, preloaded: workerData.preloaded });
}
`;

const dir = mkdtempSync(path.join(os.tmpdir(), "worker-pool-test-"));
const workerFile = path.join(dir, "worker.cjs");
writeFileSync(workerFile, workerSource(1));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const pools: WorkerPool<Job, Answer, Answer>[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.stop("stopped")));
});

function pool(options: Partial<WorkerPoolOptions<Job, Answer, Answer>> = {}): WorkerPool<Job, Answer, Answer> {
  const created = new WorkerPool<Job, Answer, Answer>({
    file: () => workerFile,
    workers: 1,
    jobsPerWorker: Infinity,
    jobsPerOwnerPerWorker: 2,
    admission: { total: 100, perAccount: 50, jobs: "jobs", full: "The pool is busy" },
    workerData: (spent) => ({ preloaded: spent }),
    deadlineMs: () => 300,
    read: (answer) => ({ id: answer.id, result: answer, spent: answer.spend }),
    lost: (loss: WorkerLoss, job) =>
      new Error(`${job.label}: ${loss.cause}${"reason" in loss ? `, ${loss.reason}` : ""}`),
    ...options,
  });
  pools.push(created);
  return created;
}

/** Runs the jobs and gives their labels in the order they ended, or their failures' messages. */
async function endings(runs: Promise<Answer>[]): Promise<string[]> {
  const ended: string[] = [];
  await Promise.all(
    runs.map((run) =>
      run.then(
        (answer) => ended.push(answer.label),
        (e: Error) => ended.push(e.message),
      ),
    ),
  );
  return ended;
}

const sleep = (label: string, ms = 40): Job => ({ op: "sleep", ms, label });

describe("turns", () => {
  it("sends a flooding account's jobs two at a time to a worker: another account's goes right behind them", async () => {
    const workers = pool();
    const flood = Array.from({ length: 6 }, (_, i) => workers.run("flood", sleep(`flood ${i}`)));
    const other = workers.run("other", sleep("other"));
    expect(await endings([...flood, other])).toEqual([
      "flood 0",
      "flood 1",
      "other",
      "flood 2",
      "flood 3",
      "flood 4",
      "flood 5",
    ]);
  });

  it("with one job a worker, gives the next free worker to the account with the fewest jobs running", async () => {
    const workers = pool({ workers: 2, jobsPerWorker: 1, jobsPerOwnerPerWorker: 1 });
    const slow = [1, 2, 3].map((n) => workers.run("slow", sleep(`slow ${n}`, 150)));
    const other = workers.run("other", sleep("other", 10));
    const ended = await endings([...slow, other]);
    expect(ended.indexOf("other")).toBeLessThan(ended.indexOf("slow 3"));
  });

  it("sends a job to the least busy worker, unless `pick` chooses another among those with room", async () => {
    const picked: number[][] = [];
    const workers = pool({
      workers: 2,
      pick: (_, choices) => {
        picked.push(choices.map((choice) => choice.slot));
        return choices[choices.length - 1].slot;
      },
    });
    const answers = await Promise.all([workers.run("a", sleep("one")), workers.run("a", sleep("two"))]);
    // Least busy first: both empty at first, then slot 0 (empty) before slot 1 (one job). The last went to slot 1.
    expect(picked).toEqual([
      [0, 1],
      [0, 1],
    ]);
    expect(answers[0].threadId).toBe(answers[1].threadId);
  });
});

describe("owners kept apart", () => {
  /** Runs the jobs and gives, per label, the thread that ran it and when it ended (ms after the first was sent). */
  async function timings(
    runs: Record<string, Promise<Answer>>,
  ): Promise<Record<string, { threadId: number; ms: number }>> {
    const started = performance.now();
    const ended = await Promise.all(
      Object.values(runs).map((run) => run.then(({ threadId }) => ({ threadId, ms: performance.now() - started }))),
    );
    return Object.fromEntries(Object.keys(runs).map((label, i) => [label, ended[i]]));
  }

  it("gives one owner's slow jobs all the workers but one, and another owner's job the one left at once", async () => {
    const workers = pool({ workers: 3, keepOwnersApart: true, deadlineMs: () => 5_000 });
    const runs: Record<string, Promise<Answer>> = {};
    for (let i = 0; i < 6; i++) runs[`slow ${i}`] = workers.run("slow", sleep(`slow ${i}`, 400));
    runs.other = workers.run("other", sleep("other", 10));
    const ended = await timings(runs);
    const slowThreads = new Set(
      Object.entries(ended).flatMap(([label, { threadId }]) => (label === "other" ? [] : [threadId])),
    );
    expect({
      slowOnTwoWorkers: slowThreads.size,
      otherOnAThirdWorker: !slowThreads.has(ended.other.threadId),
      // Behind none of the slow jobs (each 400 ms): started at once.
      otherBeforeAnySlow: Object.values(ended).every(({ ms }) => ms >= ended.other.ms),
    }).toEqual({ slowOnTwoWorkers: 2, otherOnAThirdWorker: true, otherBeforeAnySlow: true });
    expect(ended.other.ms).toBeLessThan(300);
  });

  it("sends a job behind its owner's own only while no other owner waits: the next worker free goes to a newcomer", async () => {
    const workers = pool({ workers: 3, keepOwnersApart: true });
    const runs: Record<string, Promise<Answer>> = {};
    // Two floods, each sending two jobs at a time to its workers: every worker busy, none ever empty while they last.
    for (let i = 0; i < 12; i++) runs[`a ${i}`] = workers.run("a", sleep(`a ${i}`, 100));
    for (let i = 0; i < 8; i++) runs[`b ${i}`] = workers.run("b", sleep(`b ${i}`, 100));
    runs.c = new Promise((resolve) => setTimeout(resolve, 50)).then(() => workers.run("c", sleep("c", 10)));
    const ended = await timings(runs);
    // c waits for a worker to empty (at most two jobs of 100 ms), not for a flood to end (600 ms and more).
    expect({ beforeA: ended.c.ms < ended["a 11"].ms, beforeB: ended.c.ms < ended["b 7"].ms }).toEqual({
      beforeA: true,
      beforeB: true,
    });
    expect(ended.c.ms).toBeLessThan(500);
  });

  it("with one worker, still runs every owner's jobs", async () => {
    const workers = pool({ workers: 1, keepOwnersApart: true });
    expect(await endings([workers.run("a", sleep("a")), workers.run("b", sleep("b"))])).toEqual(["a", "b"]);
  });
});

describe("deadlines and lost workers", () => {
  it("terminates a worker whose job runs past its deadline: the job answers `lost`, the jobs behind it go to a new worker", async () => {
    const workers = pool();
    const started = performance.now();
    const stuck = workers.run("a", { op: "spin", ms: 5_000, label: "stuck" });
    const behind = workers.run("a", { op: "answer", label: "behind" });
    await expect(stuck).rejects.toThrow("stuck: deadline");
    expect(performance.now() - started).toBeLessThan(1_500);
    expect((await behind).label).toBe("behind");
    expect(workers.held).toBe(0);
  });

  it.runIf(process.platform === "linux")(
    "on the thread-cpu clock, counts the worker's CPU time: a job asleep past its deadline is answered, a busy one goes",
    async () => {
      const workers = pool({ deadlineClock: "thread-cpu", deadlineMs: () => 150 });
      // Asleep for three deadlines, within the five of wall-clock time a job may take; then busy, and gone before those
      // five: at its deadline of CPU time.
      expect((await workers.run("a", { op: "sleep", ms: 450, label: "asleep" })).label).toBe("asleep");
      const started = performance.now();
      await expect(workers.run("a", { op: "spin", ms: 5_000, label: "busy" })).rejects.toThrow("busy: deadline");
      expect(performance.now() - started).toBeLessThan(700);
    },
  );

  it.runIf(process.platform === "linux")(
    "on the thread-cpu clock, a job goes after five deadlines of wall-clock time, however little CPU it used",
    async () => {
      const workers = pool({ deadlineClock: "thread-cpu", deadlineMs: () => 100 });
      const started = performance.now();
      await expect(workers.run("a", { op: "hang", label: "hung" })).rejects.toThrow("hung: deadline");
      expect(performance.now() - started).toBeGreaterThanOrEqual(500);
      expect(performance.now() - started).toBeLessThan(1_000);
    },
  );

  it.runIf(process.platform === "linux")(
    "reads a thread's CPU time from /proc, and none for a thread that is gone",
    () => {
      // Busy until this thread's time has moved on by 50 ms (a busy machine gives it less than the wall clock's).
      const before = threadCpuMs(currentThreadId())!;
      const started = performance.now();
      let used = 0;
      while (used < 50 && performance.now() - started < 5_000) used = threadCpuMs(currentThreadId())! - before;
      const wall = performance.now() - started;
      // /proc counts in 10 ms ticks, each charged whole to the thread running at it: two ticks of slack.
      expect({ reached: used >= 50, atMostTheWallClock: used <= wall + 20 }).toEqual({
        reached: true,
        atMostTheWallClock: true,
      });
      expect(threadCpuMs(2 ** 30)).toBeNull();
    },
  );

  it("counts the deadline from the job's start on its worker, not from the jobs before it", async () => {
    const workers = pool();
    const first = workers.run("a", sleep("first", 200));
    const second = workers.run("a", sleep("second", 200));
    expect((await Promise.all([first, second])).map((answer) => answer.label)).toEqual(["first", "second"]);
  });

  it("answers `lost` for the job of a worker that crashes or exits, and starts another for the next job", async () => {
    const workers = pool();
    await expect(workers.run("a", { op: "crash", label: "crash" })).rejects.toThrow("crash: crashed, crashed: boom");
    await expect(workers.run("a", { op: "exit", label: "exit" })).rejects.toThrow("exit: exited, exited with code 3");
    expect((await workers.run("a", { op: "answer", label: "next" })).label).toBe("next");
  });

  it("leaves a worker's own loading off its job's clock: the job shows as not started meanwhile, then starts later", () => {
    const cells = new Int32Array(new SharedArrayBuffer(PROGRESS_CELLS * Int32Array.BYTES_PER_ELEMENT));
    const progress = jobProgress({ progress: cells.buffer as SharedArrayBuffer, epoch: Date.now() });
    progress.started(7);
    const start = cells[1];
    const during = progress.untimed(() => {
      for (const end = Date.now() + 50; Date.now() < end;);
      return cells[0];
    });
    expect({ during, after: cells[0], movedOn: cells[1] - start >= 50, thread: cells[2] }).toEqual({
      during: 0,
      after: 7,
      movedOn: true,
      thread: process.platform === "linux" ? currentThreadId() : 0,
    });
  });

  it("tells `onRunTime` how long each job ran, and `onWorkerGone` which worker went, why and whose job it lost", async () => {
    const gone: [number, WorkerLoss["cause"] | null, string | null][] = [];
    const workers = pool({ onWorkerGone: (slot, loss, owner) => gone.push([slot, loss?.cause ?? null, owner]) });
    const ran: number[] = [];
    const onRunTime = (ms: number) => ran.push(ms);
    await workers.run("a", sleep("sleep", 100), { onRunTime });
    await workers.run("a", { op: "hang", label: "hang" }, { onRunTime }).catch(() => undefined);
    expect(ran[0]).toBeGreaterThanOrEqual(100);
    expect(ran[1]).toBeGreaterThanOrEqual(300);
    expect(gone).toEqual([[0, "deadline", "a"]]);
  });

  it("replaces a worker its job left spent at once, the replacement told so, and runs the next job there", async () => {
    const workers = pool();
    const spent = await workers.run("a", { op: "answer", label: "spend", spend: true });
    const next = await workers.run("a", { op: "answer", label: "next" });
    expect({ spentWasPreloaded: spent.preloaded, nextPreloaded: next.preloaded }).toEqual({
      spentWasPreloaded: false,
      nextPreloaded: true,
    });
    expect(next.threadId).not.toBe(spent.threadId);
  });
});

describe("admission", () => {
  /** "ran", or the refusal: it is thrown at once, before the job is queued. */
  const attempt = (workers: WorkerPool<Job, Answer, Answer>, owner: string) => {
    try {
      return workers.run(owner, sleep(owner)).then(() => "ran");
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return `${httpError(error).status} ${error.message}`;
    }
  };

  it("refuses a job past the account's cap, and past its fair share of a full queue, at once with the 503", async () => {
    const workers = pool({ admission: { total: 4, perAccount: 3, jobs: "jobs", full: "The pool is busy" } });
    const a = [1, 2, 3, 4].map(() => attempt(workers, "a"));
    const b = [1, 2].map(() => attempt(workers, "b"));
    const c = [1, 2].map(() => attempt(workers, "c"));
    expect({ a: await Promise.all(a), b: await Promise.all(b), c: await Promise.all(c) }).toEqual({
      a: ["ran", "ran", "ran", "503 This account already has 3 jobs waiting; try again in a moment."],
      // 4 held in all: b's share is 4 ÷ 2 accounts = 2, of which it held 1; then c's is 4 ÷ 3 = 1.
      b: ["ran", "ran"],
      c: ["ran", "503 The pool is busy; try again in a moment."],
    });
    expect(workers.held).toBe(0);
  });

  it("drops a waiting job whose signal aborts, and gives its place to the next; a job already sent runs on", async () => {
    const workers = pool({ admission: { total: 100, perAccount: 3, jobs: "jobs", full: "The pool is busy" } });
    const sent = new AbortController();
    const waiting = new AbortController();
    const runs = [
      workers.run("a", sleep("sent"), { signal: sent.signal }),
      workers.run("a", sleep("also sent")),
      workers.run("a", sleep("waiting"), { signal: waiting.signal }),
    ];
    sent.abort(new Error("gone"));
    waiting.abort(new Error("gone"));
    const next = workers.run("a", sleep("next"));
    expect(await endings([...runs, next])).toEqual(["gone", "sent", "also sent", "next"]);
  });
});

describe("stopping and reloading", () => {
  it("fails the jobs waiting or in flight when stopped, and starts a new worker for the next", async () => {
    const workers = pool();
    const ended = endings([1, 2, 3].map((n) => workers.run("a", sleep(`${n}`, 100))));
    await workers.stop("The pool was stopped");
    expect(await ended).toEqual(["The pool was stopped", "The pool was stopped", "The pool was stopped"]);
    expect((await workers.run("a", { op: "answer", label: "next" })).label).toBe("next");
  });

  it("with reloadOnChange, replaces its workers when their file changes: the next job runs the new file", async () => {
    const file = path.join(dir, "reloaded.cjs");
    writeFileSync(file, workerSource(1));
    const workers = pool({ file: () => file, reloadOnChange: true, deadlineMs: () => 5_000 });
    expect((await workers.run("a", { op: "answer", label: "before" })).version).toBe(1);
    // Jobs in flight when the file changes run again on the new worker, rather than fail.
    const inFlight = workers.run("a", sleep("in flight", 1_000));
    // As the build writes it: whole, by renaming.
    writeFileSync(`${file}.tmp`, workerSource(2));
    renameSync(`${file}.tmp`, file);
    expect((await inFlight).version).toBe(2);
    expect((await workers.run("a", { op: "answer", label: "after" })).version).toBe(2);
  });
});
