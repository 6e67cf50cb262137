import os from "node:os";

// Imported first by the render and compile workers' entry points, so that even loading their modules (React, the
// parsers) runs below the event loop's priority: the event loop answers every request, so when it and a worker compete
// for a core it goes first, and a compile worker replaced after a source ran into its deadline yields the core.
// Linux only: there a thread's nice value is its own (who = 0 is the calling thread); elsewhere it would lower the
// whole server. Threads started from a worker would inherit it; they start none.
const WORKER_NICE = 10;

if (process.platform === "linux") {
  try {
    os.setPriority(0, WORKER_NICE);
  } catch {
    // Not permitted here: the default priority only costs the event loop some time under load.
  }
}
