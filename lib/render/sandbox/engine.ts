/**
 * The sandbox engine: QuickJS (WebAssembly) contexts that run UNTRUSTED
 * template code. Runs inside the sandbox worker thread (worker.ts, bundled
 * into worker.generated.cjs); the main-thread API is index.ts.
 *
 * Limits enforced here:
 *  - memory: every sandbox is its own WebAssembly instance whose linear
 *    memory has `maximum` = limits.memoryBytes, a hard cap for the whole
 *    QuickJS heap (QuickJS's own setMemoryLimit is set too but, in this build,
 *    only catches single oversized allocations);
 *  - stack: QuickJS max stack size (MAX_STACK_BYTES): runaway recursion is a
 *    catchable "stack overflow" long before the host stack is at risk;
 *  - time: an interrupt handler checks the deadline; built-ins that do a lot
 *    of work in one call check it too, and BigInt / eval / Function are
 *    removed (runtime-harness.ts). QuickJS only polls the handler every few
 *    thousand operations, so the main thread additionally runs a watchdog that
 *    terminates this worker (index.ts);
 *  - output: limited while rendering and checked on the final document.
 * Nothing from Node (process, require, fetch, fs, env, timers) is reachable:
 * the only globals are ECMAScript built-ins plus a no-op `console`, and the
 * `require` handed to the template module resolves exactly three names.
 *
 * Warm contexts: one sandbox per cacheKey (templateId:version) in an LRU
 * whose WebAssembly memory together stays under this worker's share of
 * MAX_WARM_MEMORY_BYTES (setWarmMemoryCap). A warm
 * sandbox already holds React and the React Email components, so a repeat
 * render costs ~2-3 ms instead of ~40-60 ms. WebAssembly memory never
 * shrinks: a render that needed a large heap leaves its sandbox that large
 * after QuickJS has freed everything (when its own accounting,
 * computeMemoryUsage, sees only the live heap), so the size of the linear
 * memory is what is measured, after every render.
 *
 * Isolation guarantees:
 *  - across cacheKeys: nothing is shared (separate WebAssembly instances);
 *  - across renders of the same cacheKey: the template module is instantiated
 *    afresh for every render (module-level variables start over), its JSON
 *    files parsed once and deep-frozen (runtime-harness.ts jsonLoader); globalThis
 *    and every built-in / library object reachable from template code are
 *    deep-frozen (e.g. `globalThis.leak = 1` or `Array.prototype.x = 1`
 *    throws a TypeError in the template's strict-mode code, so nothing can be
 *    stashed for a later render); React's internal dispatcher slots are
 *    reset after each render;
 *  - a sandbox whose render hit a limit (timeout, memory/stack, output size)
 *    or left work behind is thrown away (the whole WebAssembly instance) and
 *    never reused.
 */
import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  RELEASE_SYNC,
  type QuickJSContext,
  type QuickJSHandle,
  type QuickJSRuntime,
  type QuickJSWASMModule,
} from "quickjs-emscripten";
import { finalizeEmailHtml } from "../react-email/document";
import { answerIntlRequest } from "./host-intl";
import {
  MAX_WARM_MEMORY_BYTES,
  type EngineResult,
  type EngineStats,
  type SandboxErrorKind,
  type SandboxLimits,
} from "./types";

/** Source of runtime.generated.js, inlined by scripts/build-sandbox-runtime.ts when bundling the worker. */
declare const __LETTERPRESS_SANDBOX_RUNTIME__: string;
/** Source of runtime-intl.generated.js (use-intl/core, IntlMessageFormat), inlined the same way. */
declare const __LETTERPRESS_SANDBOX_INTL_RUNTIME__: string;

/**
 * QuickJS stack limit. QuickJS frames also use the host's native stack (about
 * twice as much) and Emscripten's shadow stack (~5 MB in this build), so this
 * must stay well below both: the worker runs with a 16 MB native stack
 * (index.ts). 1 MB fits ~5,000 plain JS frames or a React tree ~300 host
 * elements deep.
 */
const MAX_STACK_BYTES = 1024 * 1024;
/** Deadline for evaluating the (trusted) runtime bundle in a fresh context. */
const RUNTIME_LOAD_TIMEOUT_MS = 10_000;
/**
 * Sandboxes whose WebAssembly memory grew beyond this during a render are recycled after it: the initial 16 MB
 * hold the runtime and an ordinary render, so a sandbox past this kept a large template's peak heap.
 */
const RECYCLE_ABOVE_BYTES = 24 * 1024 * 1024;
/** Upper bound on leftover macrotasks drained after a render settles. */
const MAX_DRAIN_TASKS = 64;

function runtimeSource(): string {
  if (typeof __LETTERPRESS_SANDBOX_RUNTIME__ !== "string") {
    throw new Error("Sandbox runtime missing: run `npx tsx scripts/build-sandbox-runtime.ts`");
  }
  return __LETTERPRESS_SANDBOX_RUNTIME__;
}

function intlRuntimeSource(): string {
  if (typeof __LETTERPRESS_SANDBOX_INTL_RUNTIME__ !== "string") {
    throw new Error("Sandbox Intl runtime missing: run `npx tsx scripts/build-sandbox-runtime.ts`");
  }
  return __LETTERPRESS_SANDBOX_INTL_RUNTIME__;
}

/**
 * Whether the compiled code requires next-intl, use-intl or use-intl/core (the compiler lets only string literals
 * name them): only then, or for a subject message, does its context load use-intl and IntlMessageFormat, so other
 * templates' contexts start as fast as they did without them.
 */
function usesIntlModules(code: string): boolean {
  return /\brequire\((['"])(?:next-intl|use-intl|use-intl\/core)\1\)/.test(code);
}

/* ------------------------------------------------------------------------ */
/* Sandboxes                                                                */
/*                                                                          */
/* Every sandbox owns a whole WebAssembly instance of QuickJS whose linear   */
/* memory is created here with `maximum` = the memory limit. That is the     */
/* hard memory cap: QuickJS's own setMemoryLimit() only rejects single       */
/* allocations larger than the limit in this build (it cannot measure        */
/* allocation sizes), so on its own it does not stop unbounded allocation.   */
/* Retiring a sandbox means dropping the instance: nothing is freed inside   */
/* it (a runtime that hit a limit may not tear down cleanly) and V8 reclaims */
/* the memory once it is unreachable.                                       */
/* ------------------------------------------------------------------------ */

const WASM_PAGE = 64 * 1024;
/** The QuickJS build requires exactly this much initial linear memory (16 MB). */
const INITIAL_MEMORY_PAGES = 256;

type ApiMethod = "load" | "render" | "tick" | "take" | "previewProps" | "drain" | "subject";
const API_METHODS: readonly ApiMethod[] = ["load", "render", "tick", "take", "previewProps", "drain", "subject"];

type Sandbox = {
  key: string;
  code: string;
  memoryBytes: number;
  wasm: QuickJSWASMModule;
  memory: WebAssembly.Memory;
  runtime: QuickJSRuntime;
  context: QuickJSContext;
  api: QuickJSHandle;
  methods: Record<ApiMethod, QuickJSHandle>;
  deadline: number;
  timedOut: boolean;
  /** Whether use-intl and IntlMessageFormat are loaded (intlRuntimeSource). */
  withIntl: boolean;
  /** Set when the context must not be reused. */
  poisoned: boolean;
  /** Set once removed from the cache; never used again. */
  retired: boolean;
};

const warm = new Map<string, Sandbox>();
const creating = new Map<string, Promise<Sandbox>>();
const stats = { contextsCreated: 0, contextsDisposedAfterLimit: 0, rendersInWarmContext: 0 };

/** Longest failure message passed on: a template's error text ends up in an API response. */
const MAX_FAILURE_MESSAGE_CHARS = 1000;

class Failure {
  readonly message: string;
  constructor(
    readonly kind: SandboxErrorKind,
    message: string,
  ) {
    this.message =
      message.length > MAX_FAILURE_MESSAGE_CHARS ? `${message.slice(0, MAX_FAILURE_MESSAGE_CHARS)}…` : message;
  }
}

function retire(sandbox: Sandbox): void {
  sandbox.retired = true;
  if (warm.get(sandbox.key) === sandbox) warm.delete(sandbox.key);
  // Deliberately no runtime.dispose(): see the section comment above.
}

export function engineStats(): EngineStats {
  return { warmContexts: warm.size, warmMemoryBytes: warmMemoryBytes(), ...stats };
}

/** The keys of the warm sandboxes. */
export function warmKeys(): string[] {
  return [...warm.keys()];
}

function warmMemoryBytes(): number {
  let total = 0;
  for (const sandbox of warm.values()) total += sandbox.memory.buffer.byteLength;
  return total;
}

function classifyMessage(message: string): SandboxErrorKind | null {
  // QuickJS throws `null` when it cannot even allocate the error object.
  if (/^InternalError: out of memory/.test(message) || message === "out of memory" || message === "null")
    return "memory";
  if (/^InternalError: stack overflow/.test(message) || /^RangeError: Maximum call stack size exceeded/.test(message)) {
    return "memory";
  }
  if (/^InternalError: interrupted/.test(message)) return "timeout";
  return null;
}

/** Turns an exception handle that escaped the harness (it is disposed) into a Failure. */
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
  // Whatever escaped, the realm is in an unknown state.
  sandbox.poisoned = true;
  if (sandbox.timedOut || Date.now() > sandbox.deadline) return timeoutFailure();
  const kind = classifyMessage(message);
  if (kind === "memory") {
    return new Failure(
      "memory",
      `Template exceeded the memory or stack limit (${message === "null" ? "out of memory" : message})`,
    );
  }
  if (kind === "timeout") return timeoutFailure();
  return new Failure("memory", `Sandbox failure (${message})`);
}

function timeoutFailure(): Failure {
  return new Failure("timeout", "Template exceeded the render deadline");
}

function toFailure(sandbox: Sandbox, error: unknown): Failure {
  if (error instanceof Failure) return error;
  // A host-level exception out of WebAssembly (trap, abort, host stack
  // exhaustion): the instance may be corrupt.
  sandbox.poisoned = true;
  if (sandbox.timedOut) return timeoutFailure();
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return new Failure("memory", `Sandbox crashed (${message})`);
}

/** Calls an API method with string/number arguments. Throws Failure on VM exceptions. */
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

function callApiString(sandbox: Sandbox, method: ApiMethod): string {
  const handle = callApi(sandbox, method);
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

/** Reads `{ kind, message }` failures reported by the harness; null when `result` is not one. */
function readHarnessFailure(sandbox: Sandbox, result: QuickJSHandle, limits: SandboxLimits): Failure | null {
  const { context } = sandbox;
  const kindHandle = context.getProp(result, "kind");
  const kind = context.typeof(kindHandle) === "string" ? context.getString(kindHandle) : null;
  kindHandle.dispose();
  if (kind === null) return null;
  const messageHandle = context.getProp(result, "message");
  const message = context.typeof(messageHandle) === "string" ? context.getString(messageHandle) : "";
  messageHandle.dispose();
  if (kind === "timeout") return timeoutFailure();
  if (kind === "output_too_large") {
    return new Failure("output_too_large", `Rendered output exceeds the limit of ${limits.maxOutputBytes} bytes`);
  }
  if (kind === "invalid_component") return new Failure("invalid_component", message);
  const resourceKind = classifyMessage(message);
  if (resourceKind === "memory")
    return new Failure("memory", `Template exceeded the memory or stack limit (${message})`);
  if (resourceKind === "timeout") return timeoutFailure();
  return new Failure("threw", `Template threw: ${message}`);
}

function arm(sandbox: Sandbox, timeoutMs: number): void {
  sandbox.timedOut = false;
  sandbox.deadline = Date.now() + timeoutMs;
}

function disarm(sandbox: Sandbox): void {
  sandbox.deadline = Number.POSITIVE_INFINITY;
}

function checkDeadline(sandbox: Sandbox): void {
  if (sandbox.timedOut || Date.now() > sandbox.deadline) {
    sandbox.timedOut = true;
    throw timeoutFailure();
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
  checkDeadline(sandbox);
}

async function createSandbox(key: string, code: string, limits: SandboxLimits, withIntl: boolean): Promise<Sandbox> {
  const memory = new WebAssembly.Memory({
    initial: INITIAL_MEMORY_PAGES,
    maximum: Math.max(INITIAL_MEMORY_PAGES, Math.floor(limits.memoryBytes / WASM_PAGE)),
  });
  const wasm = await newQuickJSWASMModuleFromVariant(newVariant(RELEASE_SYNC, { wasmMemory: memory }));
  const runtime = wasm.newRuntime();
  const sandbox: Sandbox = {
    key,
    code,
    memoryBytes: limits.memoryBytes,
    withIntl,
    wasm,
    memory,
    runtime,
    // set below, before any use
    context: undefined as unknown as QuickJSContext,
    api: undefined as unknown as QuickJSHandle,
    methods: {} as Record<ApiMethod, QuickJSHandle>,
    deadline: Number.POSITIVE_INFINITY,
    timedOut: false,
    poisoned: false,
    retired: false,
  };
  try {
    runtime.setMaxStackSize(MAX_STACK_BYTES);
    runtime.setMemoryLimit(limits.memoryBytes);
    runtime.setInterruptHandler(() => {
      if (Date.now() > sandbox.deadline) {
        sandbox.timedOut = true;
        return true;
      }
      return false;
    });
    arm(sandbox, RUNTIME_LOAD_TIMEOUT_MS);
    const context = runtime.newContext();
    sandbox.context = context;
    defineIntlHost(sandbox);
    const loaded = context.evalCode(runtimeSource(), "letterpress-sandbox-runtime.js");
    if (loaded.error) throw failureFromHandle(sandbox, loaded.error);
    loaded.value.dispose();
    if (withIntl) {
      const intl = context.evalCode(intlRuntimeSource(), "letterpress-sandbox-intl.js");
      if (intl.error) throw failureFromHandle(sandbox, intl.error);
      intl.value.dispose();
    }
    const api = context.evalCode("__letterpressSandbox.init()", "letterpress-sandbox-init.js");
    if (api.error) throw failureFromHandle(sandbox, api.error);
    sandbox.api = api.value;
    for (const method of API_METHODS) sandbox.methods[method] = context.getProp(sandbox.api, method);
    runJobs(sandbox);
    // The compiled template becomes a module factory once per context; it is
    // instantiated afresh for every render.
    const loadResult = callApi(sandbox, "load", code);
    const loadError = context.typeof(loadResult) === "string" ? context.getString(loadResult) : null;
    loadResult.dispose();
    if (loadError !== null) throw new Failure("invalid_component", `Template code could not be loaded: ${loadError}`);
    disarm(sandbox);
    stats.contextsCreated++;
    return sandbox;
  } catch (error) {
    const failure = toFailure(sandbox, error);
    sandbox.retired = true;
    const prefix = failure.kind === "invalid_component" ? "" : "Could not start the template sandbox: ";
    throw new Failure(failure.kind, `${prefix}${failure.message}`);
  }
}

/**
 * `globalThis.__letterpressIntl`, which the harness takes (and deletes) at init: the sandbox's Intl asks Node's through
 * it (./host-intl.ts), a JSON request's text in, an answer's out. Its work counts against the render's deadline: past
 * it, the call fails as the interrupt would.
 */
function defineIntlHost(sandbox: Sandbox): void {
  const { context } = sandbox;
  const host = context.newFunction("__letterpressIntl", (requestHandle) => {
    if (sandbox.timedOut || Date.now() > sandbox.deadline) {
      sandbox.timedOut = true;
      return { error: context.newError({ name: "InternalError", message: "interrupted" }) };
    }
    const request = context.typeof(requestHandle) === "string" ? context.getString(requestHandle) : "";
    return context.newString(answerIntlRequest(request));
  });
  context.setProp(context.global, "__letterpressIntl", host);
  host.dispose();
}

/** `subject`: the job formats a subject message too, which needs IntlMessageFormat whatever the code imports. */
function isReusable(sandbox: Sandbox, code: string, limits: SandboxLimits, subject = false): boolean {
  return (
    !sandbox.retired &&
    !sandbox.poisoned &&
    sandbox.code === code &&
    sandbox.memoryBytes === limits.memoryBytes &&
    (sandbox.withIntl || !subject)
  );
}

async function acquire(cacheKey: string, code: string, limits: SandboxLimits, subject: boolean): Promise<Sandbox> {
  for (;;) {
    const existing = warm.get(cacheKey);
    if (existing && isReusable(existing, code, limits, subject)) {
      warm.delete(cacheKey);
      warm.set(cacheKey, existing); // most recently used
      stats.rendersInWarmContext++;
      return existing;
    }
    if (existing) retire(existing);
    let pending = creating.get(cacheKey);
    if (!pending) {
      const withIntl = subject || usesIntlModules(code);
      pending = createSandbox(cacheKey, code, limits, withIntl).finally(() => creating.delete(cacheKey));
      creating.set(cacheKey, pending);
      const sandbox = await pending;
      warm.set(cacheKey, sandbox);
      evictOverMemoryCap();
      return sandbox;
    }
    // Another call is creating this sandbox: wait for it, then re-check
    // (it may have been created for different code/limits, or retired).
    await pending.catch(() => undefined);
  }
}

function release(sandbox: Sandbox, failure: Failure | null): void {
  disarm(sandbox);
  const limitHit = failure !== null && failure.kind !== "threw" && failure.kind !== "invalid_component";
  if (limitHit) stats.contextsDisposedAfterLimit++;
  // A sandbox whose linear memory grew well past its initial size keeps that
  // memory while warm: recycle it instead.
  const bloated = sandbox.memory.buffer.byteLength > RECYCLE_ABOVE_BYTES;
  if (limitHit || sandbox.poisoned || bloated) retire(sandbox);
  else evictOverMemoryCap();
}

let warmMemoryCap = MAX_WARM_MEMORY_BYTES;

/** This engine's share of MAX_WARM_MEMORY_BYTES, when there are several sandbox workers. */
export function setWarmMemoryCap(bytes: number): void {
  warmMemoryCap = Math.min(bytes, MAX_WARM_MEMORY_BYTES);
}

/** Retires the least recently used warm sandboxes until the rest fit in the warm memory cap. */
function evictOverMemoryCap(): void {
  let total = warmMemoryBytes();
  for (const sandbox of warm.values()) {
    if (total <= warmMemoryCap) break;
    total -= sandbox.memory.buffer.byteLength;
    retire(sandbox);
  }
}

type EngineFailure = EngineResult & { ok: false };

function fromError(error: unknown): EngineFailure {
  if (error instanceof Failure) return { ok: false, kind: error.kind, message: error.message };
  return {
    ok: false,
    kind: "memory",
    message: `Sandbox failure (${error instanceof Error ? error.message : String(error)})`,
  };
}

/** A sandbox that is still in service: another call may retire one between acquire() and its use. */
async function acquireLive(
  cacheKey: string,
  compiledCode: string,
  limits: SandboxLimits,
  subject = false,
): Promise<{ sandbox: Sandbox } | EngineFailure> {
  try {
    let sandbox: Sandbox;
    do {
      sandbox = await acquire(cacheKey, compiledCode, limits, subject);
    } while (sandbox.retired);
    return { sandbox };
  } catch (error) {
    return fromError(error);
  }
}

/**
 * Acquires the sandbox of `req`'s code, calls `onStart`, and runs `work` in it under the request's deadline and memory
 * limit, then lets the sandbox settle and releases it: the work's value, or the failure that stopped it. Everything
 * after the acquire is synchronous: no other call can use the sandbox meanwhile.
 */
async function runInSandbox<T>(
  req: { cacheKey: string; compiledCode: string; limits: SandboxLimits; subjectMessage?: string },
  onStart: () => void,
  work: (sandbox: Sandbox) => T,
): Promise<{ ok: true; value: T } | EngineFailure> {
  const { limits } = req;
  const acquired = await acquireLive(req.cacheKey, req.compiledCode, limits, req.subjectMessage !== undefined);
  if (!("sandbox" in acquired)) return acquired;
  const { sandbox } = acquired;
  onStart();
  let failure: Failure | null = null;
  let value: T | undefined;
  try {
    arm(sandbox, limits.timeoutMs);
    sandbox.runtime.setMemoryLimit(limits.memoryBytes);
    value = work(sandbox);
    settle(sandbox);
  } catch (error) {
    failure = toFailure(sandbox, error);
  } finally {
    release(sandbox, failure);
  }
  return failure ? { ok: false, kind: failure.kind, message: failure.message } : { ok: true, value: value as T };
}

/** What `read` makes of a harness call's `result` (disposed after), unless the harness reports a failure in it. */
function readHarnessResult<T>(sandbox: Sandbox, result: QuickJSHandle, limits: SandboxLimits, read: () => T): T {
  try {
    const harnessFailure = readHarnessFailure(sandbox, result, limits);
    if (harnessFailure) throw harnessFailure;
    return read();
  } finally {
    result.dispose();
  }
}

/**
 * Renders the compiled template with the props (a JSON object string).
 * `onStart` is called once the sandbox is ready, right before the
 * synchronous render starts.
 */
export async function engineRender(
  req: { cacheKey: string; compiledCode: string; propsJson: string; subjectMessage?: string; limits: SandboxLimits },
  onStart: () => void,
): Promise<EngineResult> {
  const { limits } = req;
  const rendered = await runInSandbox(req, onStart, (sandbox) => {
    callApi(sandbox, "render", req.propsJson, limits.maxOutputBytes, sandbox.deadline).dispose();
    for (;;) {
      runJobs(sandbox);
      const status = callApiString(sandbox, "tick");
      if (status === "pending") continue;
      if (status === "stalled") {
        throw new Failure("timeout", "Template never finished rendering (it waits on a promise that never settles)");
      }
      break;
    }
    checkDeadline(sandbox);
    const result = callApi(sandbox, "take");
    const html = readHarnessResult(sandbox, result, limits, () => readHtml(sandbox, result));
    if (req.subjectMessage === undefined) return { html };
    const subject = callApi(sandbox, "subject", req.subjectMessage, req.propsJson, sandbox.deadline);
    return { html, subject: readHarnessResult(sandbox, subject, limits, () => readSubject(sandbox, subject)) };
  });
  if (!rendered.ok) return rendered;

  const document = finalizeEmailHtml(rendered.value.html);
  if (Buffer.byteLength(document, "utf8") > limits.maxOutputBytes) {
    return {
      ok: false,
      kind: "output_too_large",
      message: `Rendered output exceeds the limit of ${limits.maxOutputBytes} bytes`,
    };
  }
  const { subject } = rendered.value;
  return subject === undefined ? { ok: true, value: document } : { ok: true, value: document, subject };
}

function readSubject(sandbox: Sandbox, result: QuickJSHandle): string {
  const subjectHandle = sandbox.context.getProp(result, "subject");
  try {
    return sandbox.context.getString(subjectHandle);
  } finally {
    subjectHandle.dispose();
  }
}

function readHtml(sandbox: Sandbox, result: QuickJSHandle): string {
  const htmlHandle = sandbox.context.getProp(result, "html");
  try {
    return sandbox.context.getString(htmlHandle);
  } finally {
    htmlHandle.dispose();
  }
}

/** Makes `req`'s sandbox warm (unless it is), running none of the template's code: value null. */
export async function engineWarm(req: {
  cacheKey: string;
  compiledCode: string;
  limits: SandboxLimits;
}): Promise<EngineResult> {
  const existing = warm.get(req.cacheKey);
  if (existing && isReusable(existing, req.compiledCode, req.limits)) return { ok: true, value: null };
  const acquired = await acquireLive(req.cacheKey, req.compiledCode, req.limits);
  if (!("sandbox" in acquired)) return acquired;
  release(acquired.sandbox, null);
  return { ok: true, value: null };
}

/** The template component's static `PreviewProps` as JSON (value null when absent). */
export async function enginePreview(
  req: { cacheKey: string; compiledCode: string; limits: SandboxLimits },
  onStart: () => void,
): Promise<EngineResult> {
  const { limits } = req;
  return runInSandbox(req, onStart, (sandbox) => {
    const result = callApi(sandbox, "previewProps", limits.maxOutputBytes, sandbox.deadline);
    return readHarnessResult(sandbox, result, limits, () => {
      const jsonHandle = sandbox.context.getProp(result, "json");
      const json = sandbox.context.typeof(jsonHandle) === "string" ? sandbox.context.getString(jsonHandle) : null;
      jsonHandle.dispose();
      return json;
    });
  });
}
