/**
 * Minimal host-environment shims for the QuickJS sandbox runtime.
 *
 * This file is NOT imported by server code. It is bundled into
 * `runtime.generated.js` by `scripts/build-sandbox-runtime.ts` through
 * esbuild's `inject` option: every free reference to `queueMicrotask`,
 * `MessageChannel`, `setTimeout` or `clearTimeout` inside the bundled
 * libraries (React, react-dom/server) is rewritten to the exports below.
 * They are module-scoped bindings inside the bundle, never globals, so
 * template code cannot see any of them: there are no timers in the sandbox,
 * only a task queue that the host drains synchronously (see `runMacrotask`).
 * There is no real time, network or I/O. React's ReadableStream comes from
 * lib/render/react-email/stream.ts, injected the same way.
 */

/* ------------------------------------------------------------------------ */
/* Event loop: microtasks are QuickJS promise jobs; "macrotasks" go into a   */
/* queue that the host drains one at a time when no promise job is pending.  */
/* Delays are ignored: there is no clock-driven scheduling in the sandbox.   */
/* ------------------------------------------------------------------------ */

type Task = () => void;
const macrotasks: Array<{ id: number; run: Task }> = [];
let nextTaskId = 1;

function enqueueTask(run: Task): number {
  const id = nextTaskId++;
  macrotasks.push({ id, run });
  return id;
}

/** Runs one queued task; returns false when the queue was empty. */
export function runMacrotask(): boolean {
  const task = macrotasks.shift();
  if (!task) return false;
  try {
    task.run();
  } catch {
    // An exception escaping a task is "reported" by a browser and the event
    // loop carries on; there is nowhere to report it here.
  }
  return true;
}

export function clearMacrotasks(): void {
  macrotasks.length = 0;
}

function sandboxQueueMicrotask(callback: () => void): void {
  void Promise.resolve().then(callback);
}
export { sandboxQueueMicrotask as queueMicrotask };

function sandboxSetTimeout(callback: (...args: unknown[]) => void, _ms?: number, ...args: unknown[]): number {
  return enqueueTask(() => callback(...args));
}
function sandboxClearTimeout(id: number | undefined): void {
  const index = macrotasks.findIndex((t) => t.id === id);
  if (index >= 0) macrotasks.splice(index, 1);
}
export { sandboxSetTimeout as setTimeout, sandboxClearTimeout as clearTimeout };

class SandboxMessagePort {
  onmessage: ((event: { data: unknown }) => void) | null = null;
  other: SandboxMessagePort | null = null;
  postMessage(data: unknown): void {
    const target = this.other;
    enqueueTask(() => {
      if (target && target.onmessage) target.onmessage({ data });
    });
  }
  close(): void {
    this.onmessage = null;
  }
}

class SandboxMessageChannel {
  readonly port1 = new SandboxMessagePort();
  readonly port2 = new SandboxMessagePort();
  constructor() {
    this.port1.other = this.port2;
    this.port2.other = this.port1;
  }
}
export { SandboxMessageChannel as MessageChannel };
