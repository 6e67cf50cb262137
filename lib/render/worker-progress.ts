/**
 * A worker's side of its pool's watchdog (./worker-pool.ts): the id and start time of the job it runs, written to the
 * memory the pool shares with it, instead of a message per job. The start is kept in ms since the pool's `epoch`,
 * modulo 2^32 (the watchdog subtracts the same way), so a worker older than 24 days still reads right.
 */
export type ProgressData = { progress: SharedArrayBuffer; epoch: number };

export function jobProgress({ progress, epoch }: ProgressData): { started(id: number): void; ended(): void } {
  const cells = new Int32Array(progress);
  return {
    started(id) {
      // Start time first: the watchdog reads the id first, so it never pairs this id with an older start.
      Atomics.store(cells, 1, Date.now() - epoch);
      Atomics.store(cells, 0, id);
    },
    ended() {
      Atomics.store(cells, 0, 0);
    },
  };
}
