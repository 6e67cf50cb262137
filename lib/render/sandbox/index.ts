/**
 * Server-side renderer for UNTRUSTED user templates.
 *
 * Template code only ever runs inside a QuickJS (WebAssembly) sandbox with a
 * memory limit, a max stack size and a deadline enforced by an interrupt
 * handler. Nothing from Node (process, require, fetch, fs, env, timers) is
 * reachable from inside: the only globals are the ECMAScript built-ins plus a
 * no-op `console`, and `require` (passed to the template module) resolves
 * exactly three names. Props cross the boundary as a JSON string; HTML comes
 * back as UTF-8 bytes.
 *
 * Warm contexts: one QuickJS runtime+context per cacheKey (templateId:version),
 * kept in a small LRU. A warm context already holds React and the React Email
 * components, so a repeat render only instantiates the template module and
 * renders (a few ms instead of ~100 ms).
 *
 * Isolation guarantees:
 *  - across cacheKeys: nothing is shared (separate QuickJS runtimes/heaps);
 *  - across renders of the same cacheKey: the template module is evaluated
 *    afresh for every render (module-level variables start over), globalThis
 *    and every built-in / library object reachable by template code are
 *    deep-frozen (writes such as `globalThis.leak = 1` or
 *    `Array.prototype.x = 1` throw a TypeError in the template's strict-mode
 *    code, so nothing can be stashed), and React's internal dispatcher slots
 *    are reset after each render;
 *  - a context whose render hit a limit (timeout, memory/stack, output size)
 *    or left work behind is disposed and never reused.
 *
 * Not imported with "server-only" so that Vitest can load it; never import it
 * from client components.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  newQuickJSWASMModule,
  type QuickJSContext,
  type QuickJSHandle,
  type QuickJSRuntime,
  type QuickJSWASMModule,
} from "quickjs-emscripten";

export type SandboxLimits = { memoryBytes: number; timeoutMs: number; maxOutputBytes: number };

export type SandboxErrorKind = "threw" | "timeout" | "memory" | "output_too_large" | "invalid_component";

export class SandboxRenderError extends Error {
  readonly kind: SandboxErrorKind;
  constructor(kind: SandboxErrorKind, message: string) {
    super(message);
    this.name = "SandboxRenderError";
    this.kind = kind;
  }
}

export const DEFAULT_SANDBOX_LIMITS: Readonly<SandboxLimits> = Object.freeze({
  memoryBytes: 64 * 1024 * 1024,
  timeoutMs: 1000,
  maxOutputBytes: 5 * 1024 * 1024,
});

/** Number of warm contexts kept (one per cacheKey). */
const MAX_WARM_CONTEXTS = 32;
/**
 * QuickJS stack limit. Must stay well below what the WebAssembly shadow stack
 * and V8's native stack can take, so that QuickJS itself throws
 * "stack overflow" (a catchable, recoverable InternalError) first.
 */
const MAX_STACK_BYTES = 256 * 1024;
/** Deadline for evaluating the (trusted) runtime bundle in a fresh context. */
const RUNTIME_LOAD_TIMEOUT_MS = 10_000;
/** Upper bound on leftover macrotasks drained after a render settles. */
const MAX_DRAIN_TASKS = 64;

/* ------------------------------------------------------------------------ */
/* @react-email/render post-processing (node build, render() without        */
/* `pretty`/`plainText`): strip React's auto-injected image preload links,    */
/* then replace any doctype with the XHTML 1.0 Transitional one.             */
/* ------------------------------------------------------------------------ */

const XHTML_DOCTYPE =
  '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">';
const LINK_TAG_PATTERN = /<link\b[^>]*\/?>/gi;
const ATTRIBUTE_PATTERN = /([a-z][a-z0-9-]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/gi;

function parseAttributes(tag: string): Record<string, string> {
  const attributeSection = tag.replace(/^<[a-z][a-z0-9-]*/i, "");
  const attributes: Record<string, string> = {};
  for (const [, name, doubleQuoted, singleQuoted, unquoted] of attributeSection.matchAll(ATTRIBUTE_PATTERN)) {
    if (name === undefined) continue;
    attributes[name.toLowerCase()] = doubleQuoted ?? singleQuoted ?? unquoted ?? "";
  }
  return attributes;
}

function stripImagePreloadLinks(html: string): string {
  return html.replace(LINK_TAG_PATTERN, (tag) => {
    const attributes = parseAttributes(tag);
    return attributes.rel === "preload" && attributes.as === "image" ? "" : tag;
  });
}

/** Exactly what @react-email/render's render(element) does to React's stream output. */
export function finalizeEmailHtml(reactHtml: string): string {
  const html = stripImagePreloadLinks(reactHtml);
  return `${XHTML_DOCTYPE}${html.replace(/<!DOCTYPE.*?>/, "")}`;
}

/* ------------------------------------------------------------------------ */
/* Runtime bundle + WebAssembly module                                      */
/* ------------------------------------------------------------------------ */

const RUNTIME_FILE = "runtime.generated.js";
let runtimeSource: string | null = null;

function loadRuntimeSource(): string {
  if (runtimeSource !== null) return runtimeSource;
  const candidates: string[] = [];
  try {
    if (import.meta.url.startsWith("file:")) {
      candidates.push(path.join(path.dirname(fileURLToPath(import.meta.url)), RUNTIME_FILE));
    }
  } catch {
    // bundled without a file URL: fall back to the project root
  }
  candidates.push(path.join(process.cwd(), "lib", "render", "sandbox", RUNTIME_FILE));
  for (const candidate of candidates) {
    try {
      runtimeSource = readFileSync(candidate, "utf8");
      return runtimeSource;
    } catch {
      // try the next candidate
    }
  }
  throw new Error(
    `Sandbox runtime not found (looked in ${candidates.join(", ")}). Run \`npx tsx scripts/build-sandbox-runtime.ts\`.`,
  );
}

let wasmPromise: Promise<QuickJSWASMModule> | null = null;
let wasmCurrent: QuickJSWASMModule | null = null;
/** Modules that crashed or failed to tear down a runtime; never touched again. */
const abandonedModules = new WeakSet<QuickJSWASMModule>();

function getWasmModule(): Promise<QuickJSWASMModule> {
  // A module of our own (not the library-wide singleton) so that it can be
  // thrown away if it ever ends up in a bad state.
  wasmPromise ??= newQuickJSWASMModule().then(
    (wasm) => {
      wasmCurrent = wasm;
      return wasm;
    },
    (error: unknown) => {
      wasmPromise = null;
      throw error;
    },
  );
  return wasmPromise;
}

/* ------------------------------------------------------------------------ */
/* Sandboxes                                                                */
/* ------------------------------------------------------------------------ */

type ApiMethod = "load" | "render" | "tick" | "take" | "previewProps" | "drain";
const API_METHODS: readonly ApiMethod[] = ["load", "render", "tick", "take", "previewProps", "drain"];

type Sandbox = {
  key: string;
  code: string;
  wasm: QuickJSWASMModule;
  runtime: QuickJSRuntime;
  context: QuickJSContext;
  api: QuickJSHandle;
  methods: Record<ApiMethod, QuickJSHandle>;
  deadline: number;
  timedOut: boolean;
  /** Set when the context must not be reused. */
  poisoned: boolean;
};

const warm = new Map<string, Sandbox>();
const stats = { contextsCreated: 0, contextsDisposedAfterLimit: 0, rendersInWarmContext: 0 };

class Failure {
  constructor(
    readonly kind: SandboxErrorKind,
    readonly message: string,
  ) {}
}

function resolveLimits(limits?: Partial<SandboxLimits>): SandboxLimits {
  const merged = { ...DEFAULT_SANDBOX_LIMITS, ...limits };
  for (const [name, value] of Object.entries(merged)) {
    if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
      throw new TypeError(`Invalid sandbox limit ${name}: ${String(value)}`);
    }
  }
  return merged;
}

function disposeSandbox(sandbox: Sandbox): void {
  if (warm.get(sandbox.key) === sandbox) warm.delete(sandbox.key);
  if (abandonedModules.has(sandbox.wasm)) return;
  try {
    for (const handle of Object.values(sandbox.methods)) if (handle.alive) handle.dispose();
    if (sandbox.api?.alive) sandbox.api.dispose();
    if (sandbox.context?.alive) sandbox.context.dispose();
    if (sandbox.runtime.alive) sandbox.runtime.dispose();
  } catch {
    // QuickJS could not tear down cleanly. Do not trust this WebAssembly
    // instance any more.
    abandonWasmModule(sandbox.wasm);
  }
}

/** Forgets every sandbox living in `wasm`; the next call creates a fresh module. */
function abandonWasmModule(wasm: QuickJSWASMModule): void {
  abandonedModules.add(wasm);
  for (const sandbox of [...warm.values()]) if (sandbox.wasm === wasm) warm.delete(sandbox.key);
  if (wasmCurrent === wasm) {
    wasmCurrent = null;
    wasmPromise = null;
  }
}

/** Disposes every warm context (for tests, hot reload and shutdown). */
export function disposeSandboxes(): void {
  for (const sandbox of [...warm.values()]) disposeSandbox(sandbox);
}

export function getSandboxStats(): { warmContexts: number; contextsCreated: number; contextsDisposedAfterLimit: number; rendersInWarmContext: number } {
  return { warmContexts: warm.size, ...stats };
}

function classifyMessage(message: string): SandboxErrorKind | null {
  if (/^InternalError: out of memory/.test(message) || message === "out of memory") return "memory";
  if (/^InternalError: stack overflow/.test(message) || /^RangeError: Maximum call stack size exceeded/.test(message)) {
    return "memory";
  }
  if (/^InternalError: interrupted/.test(message)) return "timeout";
  return null;
}

/** Turns an exception handle (which is disposed) into a Failure. */
function failureFromHandle(sandbox: Sandbox, errorHandle: QuickJSHandle): Failure {
  let message = "unknown error";
  try {
    const dumped: unknown = sandbox.context.dump(errorHandle);
    if (dumped && typeof dumped === "object") {
      const { name, message: msg } = dumped as { name?: unknown; message?: unknown };
      message = msg !== undefined ? `${String(name ?? "Error")}: ${String(msg)}` : JSON.stringify(dumped);
    } else {
      message = String(dumped);
    }
  } catch {
    // keep the generic message
  } finally {
    errorHandle.dispose();
  }
  if (sandbox.timedOut) return new Failure("timeout", "Template exceeded the render deadline");
  const kind = classifyMessage(message);
  if (kind === "memory") return new Failure("memory", `Template exceeded the memory or stack limit (${message})`);
  if (kind === "timeout") return new Failure("timeout", "Template exceeded the render deadline");
  // Anything escaping the harness itself (it catches template errors) means
  // the realm is in an unknown state.
  return new Failure("memory", `Sandbox failure (${message})`);
}

function toFailure(sandbox: Sandbox, error: unknown): Failure {
  if (error instanceof Failure) return error;
  // A host-level exception from inside WebAssembly (trap, host stack
  // exhaustion): the whole module may be corrupt.
  abandonWasmModule(sandbox.wasm);
  sandbox.poisoned = true;
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  if (sandbox.timedOut) return new Failure("timeout", "Template exceeded the render deadline");
  return new Failure("memory", `Sandbox crashed (${message})`);
}

/** Calls an API method; string/number arguments only. Throws Failure on VM exceptions. */
function callApi(sandbox: Sandbox, method: ApiMethod, ...args: Array<string | number>): QuickJSHandle {
  const { context } = sandbox;
  const handles = args.map((arg) => (typeof arg === "string" ? context.newString(arg) : context.newNumber(arg)));
  try {
    const result = context.callFunction(sandbox.methods[method], sandbox.api, ...handles);
    if (result.error) throw failureFromHandle(sandbox, result.error);
    return result.value;
  } finally {
    for (const handle of handles) handle.dispose();
  }
}

function callApiString(sandbox: Sandbox, method: ApiMethod, ...args: Array<string | number>): string {
  const handle = callApi(sandbox, method, ...args);
  try {
    return sandbox.context.getString(handle);
  } finally {
    handle.dispose();
  }
}

function callApiBoolean(sandbox: Sandbox, method: ApiMethod): boolean {
  const handle = callApi(sandbox, method);
  try {
    return sandbox.context.dump(handle) === true;
  } finally {
    handle.dispose();
  }
}

function arm(sandbox: Sandbox, timeoutMs: number, memoryBytes: number): void {
  sandbox.timedOut = false;
  sandbox.deadline = Date.now() + timeoutMs;
  sandbox.runtime.setMemoryLimit(memoryBytes);
}

function disarm(sandbox: Sandbox): void {
  sandbox.deadline = Number.POSITIVE_INFINITY;
}

function checkDeadline(sandbox: Sandbox): void {
  if (sandbox.timedOut || Date.now() > sandbox.deadline) {
    sandbox.timedOut = true;
    throw new Failure("timeout", "Template exceeded the render deadline");
  }
}

/** Runs every pending promise job (microtasks). */
function runJobs(sandbox: Sandbox): void {
  const result = sandbox.runtime.executePendingJobs(-1);
  if (result.error) throw failureFromHandle(sandbox, result.error);
  result.dispose();
  checkDeadline(sandbox);
}

/** After a render/preview: let queued housekeeping finish; poison the context if work is left over. */
function settle(sandbox: Sandbox): void {
  runJobs(sandbox);
  for (let i = 0; i < MAX_DRAIN_TASKS; i++) {
    if (!callApiBoolean(sandbox, "drain")) break;
    runJobs(sandbox);
  }
  if (sandbox.runtime.hasPendingJob() || callApiBoolean(sandbox, "drain")) sandbox.poisoned = true;
}

function createSandbox(wasm: QuickJSWASMModule, key: string, code: string, limits: SandboxLimits): Sandbox {
  const runtime = wasm.newRuntime();
  const sandbox: Sandbox = {
    key,
    code,
    wasm,
    runtime,
    // filled in below
    context: null as unknown as QuickJSContext,
    api: null as unknown as QuickJSHandle,
    methods: {} as Record<ApiMethod, QuickJSHandle>,
    deadline: Number.POSITIVE_INFINITY,
    timedOut: false,
    poisoned: false,
  };
  try {
    runtime.setMaxStackSize(MAX_STACK_BYTES);
    runtime.setInterruptHandler(() => {
      if (Date.now() > sandbox.deadline) {
        sandbox.timedOut = true;
        return true;
      }
      return false;
    });
    arm(sandbox, RUNTIME_LOAD_TIMEOUT_MS, limits.memoryBytes);
    const context = runtime.newContext();
    sandbox.context = context;
    const loaded = context.evalCode(loadRuntimeSource(), "letterpress-sandbox-runtime.js");
    if (loaded.error) throw failureFromHandle(sandbox, loaded.error);
    loaded.value.dispose();
    const api = context.evalCode("__letterpressSandbox.init()", "letterpress-sandbox-init.js");
    if (api.error) throw failureFromHandle(sandbox, api.error);
    sandbox.api = api.value;
    for (const method of API_METHODS) sandbox.methods[method] = context.getProp(sandbox.api, method);
    runJobs(sandbox);
    // The compiled template is turned into a module factory once per context.
    const loadHandle = callApi(sandbox, "load", code);
    const loadError = context.typeof(loadHandle) === "string" ? context.getString(loadHandle) : null;
    loadHandle.dispose();
    if (loadError !== null) throw new Failure("invalid_component", `Template code could not be loaded: ${loadError}`);
    disarm(sandbox);
    stats.contextsCreated++;
    return sandbox;
  } catch (error) {
    const failure = toFailure(sandbox, error);
    disposeSandbox(sandbox);
    if (failure.kind === "timeout" || failure.kind === "memory") {
      throw new SandboxRenderError(failure.kind, `Could not start the template sandbox: ${failure.message}`);
    }
    throw new SandboxRenderError(failure.kind, failure.message);
  }
}

async function acquire(cacheKey: string, code: string, limits: SandboxLimits): Promise<Sandbox> {
  const wasm = await getWasmModule();
  // From here on everything is synchronous, so concurrent calls cannot
  // interleave on the same context.
  const existing = warm.get(cacheKey);
  if (existing && existing.code === code && existing.wasm === wasm && !existing.poisoned) {
    warm.delete(cacheKey);
    warm.set(cacheKey, existing); // most recently used
    stats.rendersInWarmContext++;
    return existing;
  }
  if (existing) disposeSandbox(existing);
  const sandbox = createSandbox(wasm, cacheKey, code, limits);
  warm.set(cacheKey, sandbox);
  while (warm.size > MAX_WARM_CONTEXTS) {
    const oldest = warm.values().next().value;
    if (!oldest) break;
    disposeSandbox(oldest);
  }
  return sandbox;
}

function release(sandbox: Sandbox, failure: Failure | null): void {
  disarm(sandbox);
  const limitHit = failure !== null && failure.kind !== "threw" && failure.kind !== "invalid_component";
  if (limitHit || sandbox.poisoned) {
    if (limitHit) stats.contextsDisposedAfterLimit++;
    disposeSandbox(sandbox);
  }
}

function assertString(name: string, value: unknown): asserts value is string {
  if (typeof value !== "string" || value.length === 0) throw new TypeError(`${name} must be a non-empty string`);
}

/**
 * Renders the compiled template (output of compileTemplate) with `props`.
 * Resolves with exactly the string @react-email/render's
 * `render(<Component {...props} />)` would produce; rejects with
 * SandboxRenderError.
 */
export async function renderInSandbox(opts: {
  cacheKey: string;
  compiledCode: string;
  props: Record<string, unknown>;
  limits?: Partial<SandboxLimits>;
}): Promise<string> {
  assertString("cacheKey", opts.cacheKey);
  assertString("compiledCode", opts.compiledCode);
  const limits = resolveLimits(opts.limits);
  const propsJson = JSON.stringify(opts.props ?? {});
  if (typeof propsJson !== "string" || !propsJson.startsWith("{")) {
    throw new TypeError("props must be a JSON-serializable object");
  }

  const sandbox = await acquire(opts.cacheKey, opts.compiledCode, limits);
  let failure: Failure | null = null;
  let html = "";
  try {
    arm(sandbox, limits.timeoutMs, limits.memoryBytes);
    callApi(sandbox, "render", propsJson, limits.maxOutputBytes).dispose();
    for (;;) {
      runJobs(sandbox);
      const status = callApiString(sandbox, "tick");
      if (status === "pending") continue;
      if (status === "stalled") {
        throw new Failure("timeout", "Template never finished rendering (it waits on a promise that never settles)");
      }
      break;
    }
    const result = callApi(sandbox, "take");
    try {
      const kindHandle = sandbox.context.getProp(result, "kind");
      const kind = sandbox.context.typeof(kindHandle) === "string" ? sandbox.context.getString(kindHandle) : null;
      kindHandle.dispose();
      if (kind !== null) {
        const messageHandle = sandbox.context.getProp(result, "message");
        const message = sandbox.context.getString(messageHandle);
        messageHandle.dispose();
        throw failureFromTemplate(kind, message, limits);
      }
      const bytes = sandbox.context.getArrayBuffer(result);
      try {
        if (bytes.value.byteLength > limits.maxOutputBytes) {
          throw new Failure("output_too_large", `Rendered output exceeds the limit of ${limits.maxOutputBytes} bytes`);
        }
        html = new TextDecoder("utf-8").decode(bytes.value);
      } finally {
        bytes.dispose();
      }
    } finally {
      result.dispose();
    }
    settle(sandbox);
  } catch (error) {
    failure = toFailure(sandbox, error);
  } finally {
    release(sandbox, failure);
  }
  if (failure) throw new SandboxRenderError(failure.kind, failure.message);

  const document = finalizeEmailHtml(html);
  if (Buffer.byteLength(document, "utf8") > limits.maxOutputBytes) {
    throw new SandboxRenderError("output_too_large", `Rendered output exceeds the limit of ${limits.maxOutputBytes} bytes`);
  }
  return document;
}

function failureFromTemplate(kind: string, message: string, limits: SandboxLimits): Failure {
  if (kind === "output_too_large") {
    return new Failure("output_too_large", `Rendered output exceeds the limit of ${limits.maxOutputBytes} bytes`);
  }
  if (kind === "invalid_component") return new Failure("invalid_component", message);
  const resourceKind = classifyMessage(message);
  if (resourceKind === "memory") return new Failure("memory", `Template exceeded the memory or stack limit (${message})`);
  if (resourceKind === "timeout") return new Failure("timeout", "Template exceeded the render deadline");
  return new Failure("threw", `Template threw: ${message}`);
}

/**
 * Returns the template component's static `PreviewProps` (JSON-cloned), or
 * null when it has none (or it is not a JSON object).
 */
export async function readPreviewProps(opts: {
  cacheKey: string;
  compiledCode: string;
  limits?: Partial<SandboxLimits>;
}): Promise<Record<string, unknown> | null> {
  assertString("cacheKey", opts.cacheKey);
  assertString("compiledCode", opts.compiledCode);
  const limits = resolveLimits(opts.limits);
  const sandbox = await acquire(opts.cacheKey, opts.compiledCode, limits);
  let failure: Failure | null = null;
  let json: string | null = null;
  try {
    arm(sandbox, limits.timeoutMs, limits.memoryBytes);
    const result = callApi(sandbox, "previewProps", limits.maxOutputBytes);
    try {
      const context = sandbox.context;
      const kindHandle = context.getProp(result, "kind");
      const kind = context.typeof(kindHandle) === "string" ? context.getString(kindHandle) : null;
      kindHandle.dispose();
      if (kind !== null) {
        const messageHandle = context.getProp(result, "message");
        const message = context.getString(messageHandle);
        messageHandle.dispose();
        throw failureFromTemplate(kind, message, limits);
      }
      const jsonHandle = context.getProp(result, "json");
      json = context.typeof(jsonHandle) === "string" ? context.getString(jsonHandle) : null;
      jsonHandle.dispose();
    } finally {
      result.dispose();
    }
    settle(sandbox);
  } catch (error) {
    failure = toFailure(sandbox, error);
  } finally {
    release(sandbox, failure);
  }
  if (failure) throw new SandboxRenderError(failure.kind, failure.message);
  if (json === null) return null;
  const parsed: unknown = JSON.parse(json);
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return null;
  return parsed as Record<string, unknown>;
}
