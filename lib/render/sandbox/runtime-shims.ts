/**
 * Minimal host-environment shims for the QuickJS sandbox runtime.
 *
 * This file is NOT imported by server code. It is bundled into
 * `runtime.generated.js` by `scripts/build-sandbox-runtime.ts` through
 * esbuild's `inject` option: every free reference to `TextEncoder`,
 * `queueMicrotask`, `MessageChannel`, `setTimeout`, `clearTimeout` or
 * `ReadableStream` inside the bundled libraries (React, react-dom/server)
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
  /** Max UTF-8 bytes that may be encoded during the current render. */
  limit: Number.POSITIVE_INFINITY,
  /** UTF-8 bytes encoded since the last reset. */
  encoded: 0,
  /** Set once the limit was hit; the harness reports it to the host. */
  exceeded: false,
};

export function resetOutputState(limit: number): void {
  outputState.limit = limit;
  outputState.encoded = 0;
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
  outputState.encoded += text.length;
  if (outputState.encoded > outputState.limit) failOutput();
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
/* TextEncoder (UTF-8, WHATWG semantics: lone surrogates become U+FFFD).      */
/* ------------------------------------------------------------------------ */

class SandboxTextEncoder {
  get encoding(): string {
    return "utf-8";
  }

  encode(input: string = ""): Uint8Array {
    const s = String(input);
    const n = s.length;
    // UTF-8 needs at least one byte per UTF-16 code unit: bail out before
    // allocating anything for absurdly large strings.
    if (outputState.encoded + n > outputState.limit) failOutput();
    let bytes = 0;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c < 0x80) bytes += 1;
      else if (c < 0x800) bytes += 2;
      else if (c >= 0xd800 && c <= 0xdbff && i + 1 < n && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
        bytes += 4;
        i++;
      } else bytes += 3;
    }
    outputState.encoded += bytes;
    if (outputState.encoded > outputState.limit) failOutput();
    const out = new Uint8Array(bytes);
    if (bytes === n) {
      for (let i = 0; i < n; i++) out[i] = s.charCodeAt(i);
      return out;
    }
    let p = 0;
    for (let i = 0; i < n; i++) {
      let c = s.charCodeAt(i);
      if (c < 0x80) {
        out[p++] = c;
      } else if (c < 0x800) {
        out[p++] = 0xc0 | (c >> 6);
        out[p++] = 0x80 | (c & 0x3f);
      } else if (c >= 0xd800 && c <= 0xdfff) {
        const next = i + 1 < n ? s.charCodeAt(i + 1) : 0;
        if (c <= 0xdbff && (next & 0xfc00) === 0xdc00) {
          c = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
          i++;
          out[p++] = 0xf0 | (c >> 18);
          out[p++] = 0x80 | ((c >> 12) & 0x3f);
          out[p++] = 0x80 | ((c >> 6) & 0x3f);
          out[p++] = 0x80 | (c & 0x3f);
        } else {
          out[p++] = 0xef;
          out[p++] = 0xbf;
          out[p++] = 0xbd;
        }
      } else {
        out[p++] = 0xe0 | (c >> 12);
        out[p++] = 0x80 | ((c >> 6) & 0x3f);
        out[p++] = 0x80 | (c & 0x3f);
      }
    }
    return out;
  }
}
export { SandboxTextEncoder as TextEncoder };

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
/* Chunks are strings when the string-chunk patch is applied (the normal    */
/* case), Uint8Arrays otherwise.                                            */
/* ------------------------------------------------------------------------ */

type Chunk = string | Uint8Array;

export type StreamController = {
  enqueue(chunk: Chunk): void;
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

export type StreamResult = { html: string } | { bytes: ArrayBuffer };

/**
 * Pulls every chunk out of a stream created by react-dom/server. String
 * chunks are joined (lone surrogates replaced by U+FFFD, as a
 * TextEncoder/TextDecoder round trip would); byte chunks are concatenated.
 * Enforces the output limit (bytes; string length is a lower bound).
 */
export function readAll(stream: SandboxReadableStream, limit: number): Promise<StreamResult> {
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
  private readonly strings: string[] = [];
  private readonly bytes: Uint8Array[] = [];
  private total = 0;

  constructor(
    private readonly source: UnderlyingSource,
    private readonly limit: number,
    private readonly resolve: (result: StreamResult) => void,
    private readonly reject: (reason: unknown) => void,
  ) {}

  get desiredSize(): number {
    return 0;
  }

  enqueue(chunk: Chunk): void {
    if (this.done) return;
    this.total += typeof chunk === "string" ? chunk.length : chunk.byteLength;
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
    // React never writes into a view after enqueueing it (it allocates a
    // fresh one), so keeping references is safe.
    if (typeof chunk === "string") this.strings.push(chunk);
    else this.bytes.push(chunk);
  }

  close(): void {
    if (this.done) return;
    this.done = true;
    if (this.bytes.length === 0) {
      // String.prototype.toWellFormed (ES2024) exists in QuickJS.
      const joined = this.strings.join("") as string & { toWellFormed(): string };
      this.resolve({ html: joined.toWellFormed() });
      return;
    }
    if (this.strings.length > 0) {
      this.reject(new Error("react-dom/server produced both string and byte chunks"));
      return;
    }
    const out = new Uint8Array(this.total);
    let offset = 0;
    for (const chunk of this.bytes) {
      out.set(chunk, offset);
      offset += chunk.byteLength;
    }
    this.resolve({ bytes: out.buffer as ArrayBuffer });
  }

  error(reason: unknown): void {
    if (this.done) return;
    this.done = true;
    this.reject(reason);
  }
}
