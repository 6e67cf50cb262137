/**
 * How both renderers read React's output, the pieces of @react-email/render's render() that run while React writes:
 * a ReadableStream of just the shape react-dom/server's renderToReadableStream uses, the text render()'s TextDecoder
 * would give, and the helpers the string-chunk patch calls (scripts/lib/dependency-patches.ts; `__sbx` names, as the
 * patch writes them), with the output limit they enforce. Injected (esbuild `inject`, scripts/build-sandbox-runtime.ts)
 * into the QuickJS runtime, where the harness reads the stream (lib/render/sandbox/runtime-harness.ts), and into the
 * catalogue render worker (lib/render/workers/catalogue-worker.ts); in both, react-dom/server is the patched production
 * browser build, which hands over its markup as strings. Bundled into QuickJS, so nothing from Node here; module-scoped
 * inside each bundle, never globals, so template code cannot see any of it.
 */

/* ------------------------------------------------------------------------ */
/* Output accounting: the sandbox harness sets the limit around each render; */
/* the catalogue worker leaves it unbounded and bounds what readAll keeps.   */
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
/* Helpers the string-chunk patch of react-dom/server calls.                 */
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
/* ReadableStream: only what react-dom/server's renderToReadableStream uses   */
/* ({ type: "bytes", pull, cancel }), read by readAll. Chunks are strings:   */
/* the build applies the string-chunk patch or fails.                        */
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

class StringChunkStream {
  readonly source: UnderlyingSource;
  allReady?: Promise<void>;
  constructor(source: UnderlyingSource) {
    this.source = source;
  }
}
export { StringChunkStream as ReadableStream };

const BYTE_ORDER_MARK = 0xfeff;

/**
 * The text render() decodes from a stream created by react-dom/server: every chunk, joined, as its TextEncoder and
 * TextDecoder round trip gives it (lone surrogates become U+FFFD, a leading byte-order mark is dropped). Enforces the
 * output limit (bytes; string length is a lower bound).
 */
export function readAll(stream: StringChunkStream, limit: number): Promise<string> {
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
    const text = (this.chunks.join("") as string & { toWellFormed(): string }).toWellFormed();
    this.resolve(text.charCodeAt(0) === BYTE_ORDER_MARK ? text.slice(1) : text);
  }

  error(reason: unknown): void {
    if (this.done) return;
    this.done = true;
    this.reject(reason);
  }
}
