import { currentThreadId } from "./thread-cpu";

/**
 * A worker's side of its pool's watchdog (./worker-pool.ts): the id and start time of the job it runs, and the
 * worker's thread id (for a deadline that counts its CPU time, ./thread-cpu.ts), written to the memory the pool shares
 * with it, instead of a message per job. The start is kept in ms since the pool's `epoch`, modulo 2^32 (the watchdog
 * subtracts the same way), so a worker older than 24 days still reads right.
 */
export type ProgressData = { progress: SharedArrayBuffer; epoch: number };

/** The cells of a worker's progress: the running job's id (0 when none), its start, the worker's thread id. */
export const PROGRESS_CELLS = 3;

export function jobProgress({ progress, epoch }: ProgressData) {
  const cells = new Int32Array(progress);
  Atomics.store(cells, 2, currentThreadId());
  return {
    started(id: number): void {
      // Start time first: the watchdog reads the id first, so it never pairs this id with an older start.
      Atomics.store(cells, 1, Date.now() - epoch);
      Atomics.store(cells, 0, id);
    },
    /**
     * Runs `load` (our own code, such as loading a library) off the running job's clock: meanwhile the job shows as not
     * started (the pool's start timeout applies), then its start moves on by the time `load` took.
     */
    untimed<T>(load: () => T): T {
      const id = Atomics.exchange(cells, 0, 0);
      const begun = Date.now();
      try {
        return load();
      } finally {
        Atomics.add(cells, 1, Date.now() - begun);
        Atomics.store(cells, 0, id);
      }
    },
    ended(): void {
      Atomics.store(cells, 0, 0);
    },
  };
}
