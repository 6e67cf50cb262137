import os from "node:os";

// The compile worker's first import, so that loading the parsers (TypeScript's is large) already runs below the
// event loop's priority: a worker replaced after a source ran into its deadline yields the core to the event loop.
// Linux only: there a thread's nice value is its own (who = 0 is the calling thread); elsewhere it is the process's.
const COMPILE_WORKER_NICE = 10;

if (process.platform === "linux") {
  try {
    os.setPriority(0, COMPILE_WORKER_NICE);
  } catch {
    // Not permitted here: the default priority only costs the event loop some time under load.
  }
}
