/**
 * Minimal host-environment shims for the QuickJS sandbox runtime.
 *
 * This file is NOT imported by server code. It is bundled into
 * `runtime.generated.js` by `scripts/build-sandbox-runtime.ts` through
 * esbuild's `inject` option: every free reference to `queueMicrotask`,
 * `MessageChannel`, `setTimeout`, `clearTimeout` or `ReadableStream`
 * inside the bundled libraries (React, react-dom/server)
 * is rewritten to the exports below. They are module-scoped bindings inside
 * the bundle, never globals, so template code cannot see any of them: there
 * are no timers in the sandbox, only a task queue that the host drains
 * synchronously (see `runMacrotask`). There is no real time, network or I/O.
 * The catalogue render worker reuses only the stream pieces (ReadableStream,
 * readAll and the string-chunk helpers; see lib/render/string-chunk-stream.ts).
 */

/* ------------------------------------------------------------------------ */
/* Output accounting, controlled by the harness around each render.          */
/* ------------------------------------------------------------------------ */

export class OutputLimitError extends Error {
  constructor(limit: number) {
    super(`Rendered output exceeds the limit of ${limit} bytes`);
    this.name = "OutputLimitError";
  }
}

export const outputState = {
  /** Max UTF-8 bytes of output the current render may write. */
  limit: Number.POSITIVE_INFINITY,
  /** UTF-16 units of text escaped since the last reset: each becomes at least one byte of output. */
  escaped: 0,
  /** Set once the limit was hit; the harness reports it to the host. */
  exceeded: false,
};

export function resetOutputState(limit: number): void {
  outputState.limit = limit;
  outputState.escaped = 0;
  outputState.exceeded = false;
}

function failOutput(): never {
  outputState.exceeded = true;
  throw new OutputLimitError(outputState.limit);
}

/* ------------------------------------------------------------------------ */
/* Helpers referenced by the string-chunk patch that                          */
/* scripts/build-sandbox-runtime.ts applies to react-dom/server (see there).  */
/* ------------------------------------------------------------------------ */

/**
 * Called by the patched escapeTextForBrowser for every text/attribute value:
 * fails the render early once the escaped text alone exceeds the output
 * limit (each UTF-16 unit becomes at least one output byte).
 */
export function __sbxGuardText(text: string): void {
  outputState.escaped += text.length;
  if (outputState.escaped > outputState.limit) failOutput();
}

const NON_ASCII = /[^\x00-\x7f]/;
const TWO_BYTES = /[\u0080-\u07ff]/g;
/** Surrogates included: a pair is two of them, 4 bytes; a lone one is encoded as U+FFFD, 3 bytes. */
const THREE_BYTES = /[\u0800-\uffff]/g;
const SURROGATE_PAIRS = /[\ud800-\udbff][\udc00-\udfff]/g;

/** How many characters of `s` the global `pattern` matches. */
function count(s: string, pattern: RegExp): number {
  return s.length - s.replace(pattern, "").length;
}

/**
 * UTF-8 byte length of a string chunk (what TextEncoder.encode(s).byteLength would be), counted by the regular
 * expression engine, which runs as compiled code: a loop over the characters in JavaScript took 0.1 ms for the
 * 945 characters of whitespace every <Preview> writes.
 */
export function __sbxUtf8Length(s: string): number {
  if (!NON_ASCII.test(s)) return s.length;
  return s.length + count(s, TWO_BYTES) + 2 * count(s, THREE_BYTES) - count(s, SURROGATE_PAIRS);
}

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

/* ------------------------------------------------------------------------ */
/* ReadableStream: only what react-dom/server's renderToReadableStream uses   */
/* ({ type: "bytes", pull, cancel }); consumed by the harness via readAll.   */
/* Chunks are strings: the build applies the string-chunk patch or fails.   */
/* ------------------------------------------------------------------------ */

export type StreamController = {
  enqueue(chunk: string): void;
  close(): void;
  error(reason: unknown): void;
  readonly desiredSize: number;
};

type UnderlyingSource = {
  type?: string;
  start?: (controller: StreamController) => void;
  pull?: (controller: StreamController) => void;
  cancel?: (reason: unknown) => void;
};

class SandboxReadableStream {
  readonly source: UnderlyingSource;
  allReady?: Promise<void>;
  constructor(source: UnderlyingSource) {
    this.source = source;
  }
}
export { SandboxReadableStream as ReadableStream };

/**
 * Pulls every chunk out of a stream created by react-dom/server and joins
 * them (lone surrogates replaced by U+FFFD, as a TextEncoder/TextDecoder
 * round trip would). Enforces the output limit (bytes; string length is a
 * lower bound).
 */
export function readAll(stream: SandboxReadableStream, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const collector = new ChunkCollector(stream.source, limit, resolve, reject);
    try {
      if (stream.source.start) stream.source.start(collector);
      if (!collector.done && stream.source.pull) stream.source.pull(collector);
    } catch (error) {
      collector.error(error);
    }
  });
}

/**
 * The controller readAll hands to React. A class, not an object literal with a `desiredSize` getter: V8 gives such a
 * literal a new hidden class (map) on every evaluation, and maps live in the old generation, so each render's
 * controller, its closures and everything they reach (React's whole request, every chunk, the joined HTML) stayed
 * reachable until the next full GC. In the catalogue worker that promoted about 38 KB per render of the welcome
 * template, and scavenges took a quarter of the worker's time.
 */
class ChunkCollector implements StreamController {
  done = false;
  private readonly chunks: string[] = [];
  private total = 0;

  constructor(
    private readonly source: UnderlyingSource,
    private readonly limit: number,
    private readonly resolve: (html: string) => void,
    private readonly reject: (reason: unknown) => void,
  ) {}

  get desiredSize(): number {
    return 0;
  }

  enqueue(chunk: string): void {
    if (this.done) return;
    this.total += chunk.length;
    if (this.total > this.limit) {
      this.done = true;
      outputState.exceeded = true;
      const error = new OutputLimitError(this.limit);
      try {
        if (this.source.cancel) this.source.cancel(error);
      } catch {
        // ignore: we are already failing
      }
      this.reject(error);
      return;
    }
    this.chunks.push(chunk);
  }

  close(): void {
    if (this.done) return;
    this.done = true;
    // String.prototype.toWellFormed (ES2024) exists in QuickJS.
    const joined = this.chunks.join("") as string & { toWellFormed(): string };
    this.resolve(joined.toWellFormed());
  }

  error(reason: unknown): void {
    if (this.done) return;
    this.done = true;
    this.reject(reason);
  }
}
