/**
 * Trusted harness that runs INSIDE the QuickJS sandbox. Bundled into
 * `runtime.generated.js` (see `scripts/build-sandbox-runtime.ts`); never
 * imported by server code.
 *
 * Lifecycle of a sandbox context (driven by `lib/render/sandbox/index.ts`):
 *   1. the bundle is evaluated: it defines `globalThis.__modules` (react,
 *      react/jsx-runtime, @react-email/components, react-dom/server; use-intl/core and
 *      intl-messageformat when the host evaluated runtime-intl.generated.js after it) and
 *      `globalThis.__letterpressSandbox`; the host has
 *      defined `globalThis.__letterpressIntl` (engine.ts, ./host-intl.ts);
 *   2. the host calls `__letterpressSandbox.init()`, which takes the three and
 *      deletes them from globalThis, installs `Intl` (./runtime-intl.ts) and a no-op `console`, removes code
 *      generation, makes costly built-ins check the deadline, then hardens
 *      (deep-freezes) every object reachable from globalThis and from the
 *      modules exposed to templates, and returns the API object. The host
 *      keeps a handle to that object; template code cannot reach it;
 *   3. `load(code)` turns the compiled CommonJS template into a module factory;
 *   4. each `render()` / `previewProps()` instantiates the template module
 *      afresh (module-level state never survives a render) and renders it.
 */

import { MAX_MERGED_MESSAGES_CHARS, MAX_TEMPLATE_SOURCE_CHARS } from "../../core/limits";
import { outputState, readAll, resetOutputState, type ReadableStream as ReactStream } from "../react-email/stream";
import { installIntl, type IntlHost } from "./runtime-intl";
import { clearMacrotasks, runMacrotask } from "./runtime-shims";
import { SANDBOX_INTL_MODULES } from "./modules";
import { readTailwindStyles, tailwindWithStyles, type TailwindStyles } from "./tailwind-runtime";

/* eslint-disable @typescript-eslint/no-explicit-any */

type AnyObject = Record<PropertyKey, any>;

export type SandboxModules = {
  react: AnyObject;
  "react/jsx-runtime": AnyObject;
  "@react-email/components": AnyObject;
  "react-dom/server": {
    renderToReadableStream: (children: unknown, options?: AnyObject) => Promise<ReactStream>;
  };
  /**
   * What `next-intl`, `use-intl` and `use-intl/core` give templates; with IntlMessageFormat, for the subject message
   * (harnessApi's `subject`). Only in contexts that evaluated runtime-intl.generated.js (engine.ts).
   */
  "use-intl/core"?: AnyObject;
  /** The sandbox's formatMessage (format-message.ts), which use-intl's t() calls, and its IntlMessageFormat lookup. */
  "use-intl/format-message"?: MessageFormatting;
  "intl-messageformat"?: {
    IntlMessageFormat: {
      new (message: string, locales?: string): { format(values?: AnyObject): unknown };
      defaultLocale: string;
      __parse: (message: string, options?: AnyObject) => unknown;
    };
  };
};

type MessageFormatting = {
  formatMessage(key: string, message: string, values: AnyObject | null | undefined, options: AnyObject): unknown;
  messageFormatFor(message: string, options: AnyObject): { format(values?: AnyObject): unknown };
};

type FailureKind = "threw" | "invalid_component" | "output_too_large" | "timeout";

type Outcome =
  | { status: "idle" }
  | { status: "pending" }
  | { status: "ok"; html: string }
  | { status: "error"; kind: FailureKind; message: string };

export type HarnessApi = {
  load(code: string): string | null;
  render(propsJson: string, maxOutputBytes: number, deadline: number): void;
  tick(): string;
  take(): { html: string } | { kind: FailureKind; message: string };
  previewProps(
    maxOutputBytes: number,
    deadline: number,
  ): { json: string | null } | { kind: FailureKind; message: string };
  drain(): boolean;
  subject(
    message: string,
    propsJson: string,
    deadline: number,
  ): { subject: string } | { kind: FailureKind; message: string };
};

// Captured before guardBuiltins() wraps them, for the harness's own use.
const objectKeys = Object.keys;
const objectAssign = Object.assign;
const jsonParse = JSON.parse;
const jsonStringify = JSON.stringify;
const isArray = Array.isArray;
const defineProperty = Object.defineProperty;
const stringSplit = String.prototype.split as (this: string, separator: string) => string[];
const getPrototypeOf = Object.getPrototypeOf;
const AsyncFunctionPrototype: unknown = getPrototypeOf(async function () {});

const REACT_INTERNALS_KEY = "__CLIENT_INTERNALS_DO_NOT_USE_OR_WARN_USERS_THEY_CANNOT_UPGRADE";

class InvalidComponentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InvalidComponentError";
  }
}

/** Cut here, inside the sandbox, so a huge error text is never copied out of it (the engine cuts it shorter). */
const MAX_ERROR_CHARS = 2000;

function describeError(error: unknown): string {
  try {
    let description: string;
    if (error instanceof Error) {
      const name = String(error.name);
      const message = String(error.message);
      description = message ? `${name}: ${message}` : name;
    } else if (error === null) description = "null";
    else if (typeof error === "object" || typeof error === "function")
      description = Object.prototype.toString.call(error);
    else description = String(error);
    return description.slice(0, MAX_ERROR_CHARS);
  } catch {
    return "an unprintable value";
  }
}

/* ------------------------------------------------------------------------ */
/* Hardening                                                                 */
/* ------------------------------------------------------------------------ */

const hardened = new WeakSet<object>();

/** Deep-freezes `root` and everything reachable through properties and prototypes. */
function harden(root: unknown, skip: ReadonlySet<object> = new Set()): void {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if ((typeof value !== "object" && typeof value !== "function") || value === null) continue;
    const obj = value as object;
    if (hardened.has(obj) || skip.has(obj)) continue;
    hardened.add(obj);
    // Typed arrays with elements cannot be frozen; none should be reachable.
    Object.freeze(obj);
    stack.push(Object.getPrototypeOf(obj));
    for (const key of Reflect.ownKeys(obj)) {
      const desc = Object.getOwnPropertyDescriptor(obj, key);
      if (!desc) continue;
      if ("value" in desc) stack.push(desc.value);
      else stack.push(desc.get, desc.set);
    }
  }
}

/**
 * Freezing a prototype turns ordinary assignments such as
 * `err.message = "x"` or `obj.toString = f` into TypeErrors (the JS
 * "override mistake"). For the handful of properties where that is common,
 * replace the data property with an accessor whose setter defines an own
 * property on the receiver instead (the approach SES uses).
 */
function enableOverride(proto: AnyObject, key: PropertyKey): void {
  const desc = Object.getOwnPropertyDescriptor(proto, key);
  if (!desc || !("value" in desc) || !desc.configurable) return;
  const original = desc.value;
  Object.defineProperty(proto, key, {
    configurable: false,
    enumerable: desc.enumerable,
    get() {
      return original;
    },
    set(this: unknown, next: unknown) {
      if (this === proto) throw new TypeError(`Cannot assign to read only property '${String(key)}'`);
      if ((typeof this !== "object" && typeof this !== "function") || this === null) return;
      Object.defineProperty(this, key, { value: next, writable: true, enumerable: true, configurable: true });
    },
  });
}

function tameOverrides(g: AnyObject): void {
  const objectKeys = [
    "constructor",
    "toString",
    "toLocaleString",
    "valueOf",
    "hasOwnProperty",
    "isPrototypeOf",
    "propertyIsEnumerable",
  ];
  for (const key of objectKeys) enableOverride(Object.prototype, key);
  for (const key of ["constructor", "toString", "apply", "call", "bind"]) enableOverride(Function.prototype, key);
  const errors = [
    "Error",
    "EvalError",
    "RangeError",
    "ReferenceError",
    "SyntaxError",
    "TypeError",
    "URIError",
    "AggregateError",
    "InternalError",
  ];
  for (const name of errors) {
    const ctor = g[name];
    if (typeof ctor !== "function") continue;
    for (const key of ["constructor", "name", "message", "toString"]) enableOverride(ctor.prototype, key);
  }
  for (const name of ["Array", "Promise", "RegExp", "Date", "Map", "Set"]) {
    const ctor = g[name];
    if (typeof ctor === "function") {
      enableOverride(ctor.prototype, "constructor");
      enableOverride(ctor.prototype, "toString");
    }
  }
}

/**
 * What a template's `require(specifier)` returns. It says it is an ES module whose default export is itself, so the
 * compiled template's import helpers (`import * as React`, `import React`) take it as it is: they would otherwise copy
 * every export into a new object on each render, since the template module is instantiated afresh per render. A
 * default import still gets the whole module, as it did when the helpers wrapped it.
 */
function makeModuleView(source: AnyObject, omit: readonly string[] = []): AnyObject {
  const view: AnyObject = {};
  for (const key of Object.keys(source)) {
    if (key === "__esModule" || key === "default" || omit.includes(key)) continue;
    view[key] = source[key];
  }
  Object.defineProperty(view, "__esModule", { value: true });
  Object.defineProperty(view, "default", { value: view });
  return view;
}

/* ------------------------------------------------------------------------ */
/* Deadline guards                                                           */
/* ------------------------------------------------------------------------ */

/**
 * QuickJS polls the host's interrupt handler only every few thousand
 * back-edges/calls, so a loop whose body is one expensive built-in call
 * (`while (true) "x".repeat(1e7)`) would overrun the deadline by minutes.
 * These built-ins (linear in their input, no callbacks into JS) therefore
 * check the deadline themselves on every call. The thrown error is catchable,
 * but a loop that keeps catching it is cheap per iteration and is then
 * stopped by the real, uncatchable interrupt; the host reports a timeout
 * either way. Operators cannot be guarded (array spread, comparing or
 * concatenating huge strings): for those the main thread's watchdog
 * terminates the sandbox worker (lib/render/workers/worker-pool.ts).
 */
const deadlineState = { deadline: Number.POSITIVE_INFINITY, expired: false };

class DeadlineError extends Error {
  constructor() {
    super("Template exceeded the render deadline");
    this.name = "DeadlineError";
  }
}

const GUARDED_BUILTINS: ReadonlyArray<[path: string, methods: readonly string[]]> = [
  [
    "String.prototype",
    [
      "repeat",
      "padStart",
      "padEnd",
      "split",
      "replace",
      "replaceAll",
      "concat",
      "normalize",
      "localeCompare",
      "indexOf",
      "lastIndexOf",
      "includes",
      "startsWith",
      "endsWith",
      "search",
      "match",
      "matchAll",
      "toUpperCase",
      "toLowerCase",
      "toLocaleUpperCase",
      "toLocaleLowerCase",
      "trim",
      "trimStart",
      "trimEnd",
      "slice",
      "substring",
      "substr",
      "toWellFormed",
      "isWellFormed",
    ],
  ],
  [
    "Array.prototype",
    [
      "join",
      "sort",
      "fill",
      "indexOf",
      "lastIndexOf",
      "includes",
      "reverse",
      "slice",
      "splice",
      "concat",
      "copyWithin",
      "flat",
      "toSorted",
      "toReversed",
      "toSpliced",
      "with",
      "toString",
      "toLocaleString",
    ],
  ],
  ["Array", ["from", "of"]],
  [
    "TypedArray.prototype",
    [
      "fill",
      "set",
      "sort",
      "indexOf",
      "lastIndexOf",
      "includes",
      "join",
      "reverse",
      "slice",
      "copyWithin",
      "toSorted",
      "toReversed",
      "with",
      "toString",
      "toLocaleString",
    ],
  ],
  ["TypedArray", ["from", "of"]],
  ["JSON", ["parse", "stringify"]],
  [
    "Object",
    [
      "keys",
      "values",
      "entries",
      "assign",
      "getOwnPropertyNames",
      "getOwnPropertySymbols",
      "fromEntries",
      "getOwnPropertyDescriptors",
    ],
  ],
  ["String", ["fromCharCode", "fromCodePoint", "raw"]],
  ["Reflect", ["ownKeys", "apply", "construct"]],
];

/**
 * The guarded methods that take any number of arguments, or whose meaning changes when an optional one is given as
 * undefined (`[].lastIndexOf(x, undefined)` searches index 0 only, `splice(0, undefined)` removes nothing): these
 * pass their `arguments` on as they are.
 */
const ARGUMENT_COUNT_MATTERS = new Set([
  "String.prototype.concat",
  "Array.prototype.lastIndexOf",
  "Array.prototype.splice",
  "Array.prototype.concat",
  "Array.prototype.toSpliced",
  "Array.of",
  "TypedArray.prototype.lastIndexOf",
  "TypedArray.of",
  "Object.assign",
  "String.fromCharCode",
  "String.fromCodePoint",
  "String.raw",
  "Reflect.construct",
]);

function guardBuiltins(g: AnyObject): void {
  const TypedArray = Object.getPrototypeOf(Uint8Array) as AnyObject;
  const roots: Record<string, AnyObject> = {
    "String.prototype": String.prototype,
    "Array.prototype": Array.prototype,
    Array: Array as unknown as AnyObject,
    "TypedArray.prototype": TypedArray.prototype as AnyObject,
    TypedArray,
    JSON: g.JSON,
    Object: Object as unknown as AnyObject,
    String: String as unknown as AnyObject,
    Reflect: g.Reflect,
  };
  const now = Date.now;
  const apply = Reflect.apply;
  for (const [path, methods] of GUARDED_BUILTINS) {
    const target = roots[path];
    if (!target) continue;
    for (const method of methods) {
      const desc = Object.getOwnPropertyDescriptor(target, method);
      if (!desc || typeof desc.value !== "function") continue;
      const original = desc.value as (...args: unknown[]) => unknown;
      const guarded = ARGUMENT_COUNT_MATTERS.has(`${path}.${method}`)
        ? {
            [method](this: unknown): unknown {
              if (now() > deadlineState.deadline) {
                deadlineState.expired = true;
                throw new DeadlineError();
              }
              // eslint-disable-next-line prefer-rest-params
              return apply(original, this, arguments as unknown as unknown[]);
            },
          }[method]!
        : {
            // No `arguments` object to make: these take at most three, and an optional one given as undefined is
            // the same as one left out.
            [method](this: unknown, a: unknown, b: unknown, c: unknown): unknown {
              if (now() > deadlineState.deadline) {
                deadlineState.expired = true;
                throw new DeadlineError();
              }
              return original.call(this, a, b, c);
            },
          }[method]!;
      Object.defineProperty(guarded, "length", { value: original.length });
      Object.defineProperty(target, method, { ...desc, value: guarded });
    }
  }
}

/**
 * Removes run-time code generation and BigInt (whose operators cannot be
 * guarded and take ~0.5 s each on huge values), plus GC observation hooks.
 * Returns the original Function constructor for the harness's own use.
 */
function lockdown(g: AnyObject): FunctionConstructor {
  const OriginalFunction = Function;
  const disabled = function Function(): never {
    throw new TypeError("Code generation (Function/eval) is not available in templates");
  };
  Object.defineProperty(disabled, "prototype", { value: OriginalFunction.prototype });
  const constructorProtos = [
    OriginalFunction.prototype,
    Object.getPrototypeOf(async function () {}),
    Object.getPrototypeOf(function* () {}),
    Object.getPrototypeOf(async function* () {}),
  ] as AnyObject[];
  for (const proto of constructorProtos) {
    Object.defineProperty(proto, "constructor", {
      value: disabled,
      writable: true,
      enumerable: false,
      configurable: true,
    });
  }
  g.Function = disabled;
  for (const name of ["eval", "BigInt", "BigInt64Array", "BigUint64Array", "WeakRef", "FinalizationRegistry"]) {
    delete g[name];
  }
  const dataView = g.DataView?.prototype as AnyObject | undefined;
  if (dataView)
    for (const name of ["getBigInt64", "getBigUint64", "setBigInt64", "setBigUint64"]) delete dataView[name];
  return OriginalFunction;
}

/* ------------------------------------------------------------------------ */
/* init: the steps, in order, that make a context ready for templates        */
/* ------------------------------------------------------------------------ */

type TemplateRequire = (specifier: string) => AnyObject;

/** The compiled template: a CommonJS module body, and the require it gets. */
type LoadedTemplate = {
  factory: (
    this: unknown,
    exports: AnyObject,
    require: TemplateRequire,
    module: AnyObject,
    loadJson: (text: string) => unknown,
  ) => void;
  require: TemplateRequire;
  loadJson: (text: string) => unknown;
};

/** What the harness keeps of the modules install() left, and what templates may import of them. */
type Realm = {
  modules: SandboxModules;
  /** React's internals object (mutable dispatcher slots), which templates never reach, and its slots before any render. */
  internals: AnyObject;
  initialInternals: AnyObject;
  /** What a template's require() returns, by specifier. */
  views: Record<string, AnyObject>;
  templateRequire: TemplateRequire;
  /** What the template's JSON files call (JSON_LOADER_NAME). */
  loadJson: (text: string) => unknown;
  ErrorBoundary: unknown;
};

function init(): HarnessApi {
  const g = globalThis as AnyObject;
  const intlHost = g.__letterpressIntl as IntlHost;
  delete g.__letterpressIntl;
  const realm = takeModules(g);
  installIntl(g, intlHost, deadlineState, () => new DeadlineError());
  installSilentConsole(g);
  const OriginalFunction = lockdown(g);
  guardBuiltins(g);
  tameOverrides(g);
  hardenReachable(g, realm);
  const api = harnessApi(realm, OriginalFunction);
  harden(api);
  return api;
}

/** Takes the modules install() left on globalThis (both globals go) and makes what templates may import of them. */
function takeModules(g: AnyObject): Realm {
  const modules = g.__modules as SandboxModules;
  delete g.__modules;
  delete g.__letterpressSandbox;
  const internals = modules.react[REACT_INTERNALS_KEY] as AnyObject;
  const initialInternals = { ...internals };
  // Shallow copies, so that React's internals object is not reachable from user code; deep-frozen by hardenReachable.
  const views: Record<string, AnyObject> = {
    react: makeModuleView(modules.react, [REACT_INTERNALS_KEY]),
    "react/jsx-runtime": makeModuleView(modules["react/jsx-runtime"]),
    "@react-email/components": makeModuleView(modules["@react-email/components"]),
  };
  // next-intl's and use-intl's main entries re-export use-intl/core's functions beside React hooks and providers,
  // which a template rendered once has no use for: all three names give use-intl/core.
  const intlModule = modules["use-intl/core"];
  if (intlModule) {
    const formatting = modules["use-intl/format-message"];
    const intl = makeModuleView({ ...intlModule, createTranslator: sharedCacheTranslator(intlModule, formatting) });
    for (const name of SANDBOX_INTL_MODULES) views[name] = intl;
  }
  const templateRequire = function require(specifier: string): AnyObject {
    const mod = Object.prototype.hasOwnProperty.call(views, specifier) ? views[specifier] : undefined;
    if (!mod) throw new Error(`Cannot find module '${String(specifier)}' (available: ${objectKeys(views).join(", ")})`);
    return mod;
  };
  return {
    modules,
    internals,
    initialInternals,
    views,
    templateRequire,
    loadJson: jsonLoader(),
    ErrorBoundary: errorBoundary(modules.react),
  };
}

/** The name by which a template's JSON files reach the loader (compile.ts `jsonModule` writes the calls). */
const JSON_LOADER_NAME = "__lpJson";
/** JSON files a context keeps parsed: a template has at most 50 messages files and 20 others. */
const MAX_KEPT_JSON_FILES = 128;
/**
 * Characters of JSON text a context keeps parsed: a template's messages, merged with their fallbacks, and its other
 * files at most. `__lpJson` is in the scope of the template's code, which may call it with any text.
 */
const MAX_KEPT_JSON_CHARS = MAX_MERGED_MESSAGES_CHARS + MAX_TEMPLATE_SOURCE_CHARS;
/** The modules jsonLoader made and the values they hold: the messages a translator can be kept for. */
const jsonValues = new WeakSet<object>();

/**
 * A template's JSON files: each parsed once per context and deep-frozen, so that every render shares it and none can
 * change it for the next; a render used to parse each afresh, which cost a localized render a tenth of its time. A
 * file's module is the namespace the compiled imports' helpers made of its value on each render, made once: its keys,
 * `default` (the value) and a non-enumerable `__esModule`, which those helpers take as it is. So `import x from`,
 * `import * as x` and `await import()` give the same objects in every render, and the translators made from them can
 * be kept (sharedCacheTranslator). Keyed by the file's text: a function of its key alone.
 */
function jsonLoader(): (text: string) => unknown {
  const kept = new Map<string, AnyObject>();
  let keptChars = 0;
  const hasOwn = Object.prototype.hasOwnProperty;
  return function loadJson(text: string): unknown {
    const key = String(text);
    const known = kept.get(key);
    if (known !== undefined) return known;
    const value: unknown = jsonParse(key);
    const namespace: AnyObject = {};
    if (value !== null)
      for (const name in value as AnyObject) if (hasOwn.call(value, name)) namespace[name] = (value as AnyObject)[name];
    namespace.default = value;
    Object.defineProperty(namespace, "__esModule", { value: true });
    harden(namespace);
    if (kept.size < MAX_KEPT_JSON_FILES && keptChars + key.length <= MAX_KEPT_JSON_CHARS) {
      kept.set(key, namespace);
      keptChars += key.length;
      jsonValues.add(namespace);
      if (typeof value === "object" && value !== null) jsonValues.add(value);
    }
    return namespace;
  };
}

/** Entries of each kind a translators' shared cache holds before it starts over. */
const MAX_SHARED_INTL_ENTRIES = 1000;
/** Translators made between two counts of their shared cache's entries. */
const SIZE_CHECK_CALLS = 32;
/** Translators kept for one deep-frozen messages object, by locale, namespace and time zone. */
const MAX_KEPT_TRANSLATORS = 64;

/**
 * use-intl/core's createTranslator, whose translators share one cache of IntlMessageFormat and Intl objects across
 * this context's renders unless the template passes its own (`_cache`, `_formatters`): use-intl would make them
 * afresh for every render, which in QuickJS costs more than the rest of a localized render. Its entries are keyed by
 * their arguments' JSON (message, locale, formats with their time zone, options) and made only by use-intl's own
 * formatters over the sandbox's Intl, so they are a function of their key; the template never reaches them. The cache
 * starts over past MAX_SHARED_INTL_ENTRIES entries of a kind.
 *
 * A translator over a JSON file of the template kept by jsonLoader (deep-frozen) with no settings but its locale,
 * namespace and time zone is a function of those alone, so it is kept, frozen, and given to the next render that asks
 * for the same: making one cost a localized render as much as one `t()`. It is made from the values read for its
 * key, so a getter cannot make it differ from its key.
 */
function sharedCacheTranslator(
  core: AnyObject,
  formatting: MessageFormatting | undefined,
): (config: AnyObject) => unknown {
  const { createTranslator, _createCache, _createIntlFormatters } = core;
  let cache: AnyObject | null = null;
  let formatters: AnyObject | null = null;
  let kept = new WeakMap<object, Map<string, unknown>>();
  let callsSinceSizeCheck = 0;
  return function translator(config: AnyObject): unknown {
    if (
      config === null ||
      typeof config !== "object" ||
      config._cache !== undefined ||
      config._formatters !== undefined
    )
      return createTranslator(config);
    // Counting the entries costs a render as much as making a translator: once every SIZE_CHECK_CALLS calls is enough,
    // since a cache grows by the messages and formats a template has, not by its renders.
    if (++callsSinceSizeCheck >= SIZE_CHECK_CALLS) callsSinceSizeCheck = 0;
    if (
      !cache ||
      (callsSinceSizeCheck === 0 &&
        objectKeys(cache).some((kind) => objectKeys(cache![kind]).length > MAX_SHARED_INTL_ENTRIES))
    ) {
      cache = _createCache();
      formatters = _createIntlFormatters(cache);
      kept = new WeakMap(); // kept translators write to the cache they were made with
    }
    const settings = keptTranslatorSettings(config);
    if (!settings) return createTranslator({ ...config, _cache: cache, _formatters: formatters });
    const { messages, key, values } = settings;
    let byKey = kept.get(messages);
    if (!byKey) kept.set(messages, (byKey = new Map()));
    const known = byKey.get(key);
    if (known) return known;
    const translate = createTranslator({ ...values, messages, _cache: cache, _formatters: formatters });
    const made = formatting ? quickTranslator(translate, messages, values, formatting, cache!, formatters!) : translate;
    harden(made);
    if (byKey.size < MAX_KEPT_TRANSLATORS) byKey.set(key, made);
    return made;
  };
}

/** Messages a kept translator remembers finding, by key (past them it looks the others up each time). */
const MAX_FOUND_MESSAGES = 1000;

/**
 * A kept translator whose `t(key, values)` does what use-intl's t() does (its production build, 4.15.0) without
 * walking the key's path, wrapping the values and finding the message's IntlMessageFormat on every call: a fifth of a
 * localized render in QuickJS. The message a key finds in the deep-frozen messages is remembered, with its format.
 * As use-intl's does for a translator with no `onError` or `getMessageFallback` of its own (a kept one has neither),
 * it answers the formatted text, or else the key's fallback (`namespace.key`): for a key that finds no text, values
 * that throw as they are read, a message that fails to format or gives anything but text. The values are read once,
 * as use-intl copies them. A call with formats or a fallback of its own, or values that are not an object or hold a
 * function (which use-intl wraps), is use-intl's own t(), given the values as read; `rich`, `markup`, `raw` and `has`
 * are use-intl's.
 */
function quickTranslator(
  translate: ((...args: unknown[]) => unknown) & AnyObject,
  messages: object,
  settings: Record<string, string>,
  { formatMessage, messageFormatFor }: MessageFormatting,
  cache: AnyObject,
  formatters: AnyObject,
): AnyObject {
  const { locale, namespace, timeZone } = settings;
  const options = { cache, formatters, globalFormats: undefined, formats: undefined, locale, timeZone };
  type Found = { message: string; format?: { format(values?: AnyObject): unknown } };
  const found = new Map<string, Found>();
  // use-intl's resolvePath: the namespace's, then the key's; a part that is null or undefined finds nothing, and so
  // does a namespace whose value is falsy.
  const walk = (from: unknown, path: string): unknown => {
    let value = from;
    for (const part of stringSplit.call(path, ".")) {
      value = (value as AnyObject)[part];
      if (value === null || value === undefined) return undefined;
    }
    return value;
  };
  const find = (key: string): Found | null => {
    const known = found.get(key);
    if (known) return known;
    const scope = namespace ? walk(messages, namespace) : messages;
    const value = scope ? walk(scope, key) : undefined;
    if (typeof value !== "string") return null;
    const entry = { message: value };
    if (found.size < MAX_FOUND_MESSAGES) found.set(key, entry);
    return entry;
  };
  // use-intl's getMessageFallback: the namespace and the key, either left out when empty.
  const fallbackOf = (key: string): string => (namespace ? (key ? `${namespace}.${key}` : namespace) : key);
  const format = (entry: Found, values: AnyObject | null | undefined): unknown => {
    // formatMessage answers a message without values as its own text when it has no escapes.
    if (values === undefined || values === null) return formatMessage("", entry.message, values, options);
    entry.format ??= messageFormatFor(entry.message, options);
    return entry.format.format(values);
  };
  const t = function t(key: unknown, values?: unknown, formats?: unknown, fallback?: unknown): unknown {
    if (typeof key !== "string" || formats !== undefined || fallback !== undefined)
      return translate(key, values, formats, fallback);
    let entry: Found | null;
    try {
      entry = find(key);
    } catch {
      return fallbackOf(key);
    }
    if (entry === null) return fallbackOf(key);
    let read: ReadValues;
    try {
      read = readValues(values);
    } catch {
      return fallbackOf(key);
    }
    if ("handOver" in read) return translate(key, read.handOver);
    try {
      const formatted = format(entry, read.copy);
      return typeof formatted === "string" ? formatted : fallbackOf(key);
    } catch {
      return fallbackOf(key);
    }
  };
  t.rich = translate.rich;
  t.markup = translate.markup;
  t.raw = translate.raw;
  t.has = translate.has;
  return t;
}

/**
 * A `t()` call's values, each read once: `copy` as use-intl's t() copies them for formatMessage (its own enumerable
 * keys, assigned to a plain object), or, for values use-intl would wrap or that are no object, what to hand its own
 * t() instead: the values as read, each an own property as it was.
 */
type ReadValues = { copy: AnyObject | null | undefined } | { handOver: unknown };

function readValues(values: unknown): ReadValues {
  if (values === undefined || values === null) return { copy: values };
  if (typeof values !== "object") return { handOver: values };
  const names = objectKeys(values);
  const read: unknown[] = [];
  const copy: AnyObject = {};
  let wrapped = false;
  for (const name of names) {
    const value = (values as AnyObject)[name];
    if (typeof value === "function") wrapped = true;
    read.push(value);
    copy[name] = value;
  }
  if (!wrapped) return { copy };
  const handOver: AnyObject = {};
  for (let i = 0; i < names.length; i++)
    defineProperty(handOver, names[i], { value: read[i], writable: true, enumerable: true, configurable: true });
  return { handOver };
}

/** A translator config's messages, key and settings, each read once, when its translator can be kept; else null. */
function keptTranslatorSettings(
  config: AnyObject,
): { messages: object; key: string; values: Record<string, string> } | null {
  const values: Record<string, string> = {};
  let messages: unknown;
  for (const name of objectKeys(config)) {
    const value: unknown = config[name];
    if (name === "messages") messages = value;
    else if ((name === "locale" || name === "namespace" || name === "timeZone") && typeof value === "string")
      values[name] = value;
    else if (value !== undefined) return null;
  }
  if (typeof messages !== "object" || messages === null || !jsonValues.has(messages)) return null;
  return {
    messages,
    key: jsonStringify([values.locale ?? null, values.namespace ?? null, values.timeZone ?? null]),
    values,
  };
}

/**
 * Same wrapper as @react-email/render's node render(): an error boundary around a Suspense boundary around the
 * element. This is its error boundary.
 */
function errorBoundary(React: AnyObject): unknown {
  return class ErrorBoundary extends React.Component {
    constructor(props: unknown, context: unknown) {
      super(props, context);
      // Fizz hands every class component the same module-level objects;
      // freeze them before any template component can see them.
      harden(context);
      harden((this as AnyObject).refs);
    }
    render(): unknown {
      harden((this as AnyObject).updater);
      return (this as AnyObject).props.children;
    }
  };
}

const CONSOLE_METHODS = [
  "log",
  "info",
  "warn",
  "error",
  "debug",
  "trace",
  "dir",
  "table",
  "group",
  "groupEnd",
  "time",
  "timeEnd",
  "assert",
  "count",
];

/** A `console` whose methods do nothing: templates may log, and nothing leaves the sandbox. */
function installSilentConsole(g: AnyObject): void {
  const consoleShim: AnyObject = {};
  for (const method of CONSOLE_METHODS) consoleShim[method] = function () {};
  g.console = consoleShim;
}

/** Deep-freezes everything template code can reach, and the modules behind it, all but React's internals object. */
function hardenReachable(g: AnyObject, realm: Realm): void {
  const { modules, views } = realm;
  // The refs and updater objects Fizz hands every class component (see errorBoundary).
  const probe = new modules.react.Component({});
  harden(probe.refs);
  harden(probe.updater);
  harden(g);
  // Intrinsics that no global leads to but syntax reaches: left writable, they would carry values from one render
  // (one recipient) to the next.
  harden([
    Object.getPrototypeOf(function* () {}),
    Object.getPrototypeOf(async function () {}),
    Object.getPrototypeOf(async function* () {}),
    Object.getPrototypeOf([][Symbol.iterator]()),
    Object.getPrototypeOf(""[Symbol.iterator]()),
    Object.getPrototypeOf(new Map()[Symbol.iterator]()),
    Object.getPrototypeOf(new Set()[Symbol.iterator]()),
    Object.getPrototypeOf(/a/[Symbol.matchAll]("")),
  ]);
  for (const view of Object.values(views)) harden(view);
  harden(realm.templateRequire);
  harden(views);
  harden(realm.initialInternals);
  // React's own export objects stay unfrozen only where React needs them to be.
  harden(modules.react, new Set([realm.internals]));
  harden(modules["react/jsx-runtime"]);
  harden(modules["@react-email/components"]);
  const messageFormat = modules["intl-messageformat"];
  if (messageFormat) {
    const { IntlMessageFormat } = messageFormat;
    // Its default locale is memoized on the class on first use: made now, before the class is frozen.
    void IntlMessageFormat.defaultLocale;
    IntlMessageFormat.__parse = memoizedParse(IntlMessageFormat.__parse);
    harden(messageFormat);
    harden(modules["use-intl/core"]);
  }
}

/** Messages whose syntax trees a sandbox keeps, and the longest message kept. */
const MAX_PARSED_MESSAGES = 1000;
const MAX_PARSED_MESSAGE_CHARS = 10_000;

type ParseOptions = AnyObject & { locale?: { toString(): string } };

/**
 * IntlMessageFormat's parser, remembering the syntax trees of the messages it parsed (deep-frozen): use-intl makes a
 * new IntlMessageFormat per message per render, and parsing in QuickJS costs more than the rest of a localized
 * render. The cache is this template's context's own (its key is per template version) and a tree is a function of
 * the message, the locale and the options alone.
 */
function memoizedParse(parse: (message: string, options?: ParseOptions) => unknown) {
  const trees = new Map<string, unknown>();
  return function parseMessage(message: string, options?: ParseOptions): unknown {
    if (typeof message !== "string" || message.length > MAX_PARSED_MESSAGE_CHARS) return parse(message, options);
    const { locale, ...rest } = options ?? {};
    const key = jsonStringify([message, locale === undefined ? null : String(locale), rest]);
    const cached = trees.get(key);
    if (cached !== undefined) return cached;
    const tree = parse(message, options);
    harden(tree);
    trees.set(key, tree);
    if (trees.size > MAX_PARSED_MESSAGES) trees.delete(trees.keys().next().value!);
    return tree;
  };
}

/* ------------------------------------------------------------------------ */
/* The API the host calls                                                    */
/* ------------------------------------------------------------------------ */

/** `OriginalFunction`: the Function constructor lockdown() took from templates, which load() uses. */
function harnessApi(realm: Realm, OriginalFunction: FunctionConstructor): HarnessApi {
  const React = realm.modules.react;
  const { renderToReadableStream } = realm.modules["react-dom/server"];
  let template: LoadedTemplate | null = null;
  let outcome: Outcome = { status: "idle" };

  return {
    load(code: string): string | null {
      try {
        // Function() is fine here: this is QuickJS, not the host.
        const factory = new OriginalFunction(
          "exports",
          "require",
          "module",
          JSON_LOADER_NAME,
          String(code),
        ) as LoadedTemplate["factory"];
        const styles = readTailwindStyles(String(code));
        const require = styles ? requireWithTailwind(realm, styles) : realm.templateRequire;
        template = { factory, require, loadJson: realm.loadJson };
        return null;
      } catch (error) {
        template = null;
        return describeError(error);
      }
    },

    render(propsJson: string, maxOutputBytes: number, deadline: number): void {
      startRun(realm, maxOutputBytes, deadline);
      outcome = { status: "pending" };
      let Component: unknown;
      let element: AnyObject;
      try {
        Component = instantiate(template);
        element = React.createElement(Component, jsonParse(propsJson) as AnyObject);
      } catch (error) {
        outcome = failure(error);
        return;
      }
      const settleOk = (html: string): void => {
        if (outcome.status === "pending") outcome = { status: "ok", html };
      };
      const settleError = (error: unknown): void => {
        if (outcome.status === "pending") outcome = failure(error);
      };
      const renderTree = (node: unknown, finish: (html: string) => string = (html) => html): void => {
        try {
          renderToReadableStream(
            React.createElement(realm.ErrorBoundary, null, React.createElement(React.Suspense, null, node)),
            {
              progressiveChunkSize: Number.POSITIVE_INFINITY,
              onError(error: unknown) {
                settleError(error);
              },
            },
          )
            .then((stream) => (stream.allReady as Promise<void>).then(() => readAll(stream, maxOutputBytes)))
            .then((html) => settleOk(finish(html)), settleError);
        } catch (error) {
          settleError(error);
        }
      };
      if (typeof Component !== "function" || getPrototypeOf(Component) !== AsyncFunctionPrototype) {
        renderTree(element);
        return;
      }
      // An async top-level component (React Email's next-intl guide awaits its messages) is awaited here, called as
      // React calls a function component, and React renders what it resolved to: suspending on it in QuickJS cost a
      // localized render a seventh of its time. The one trace a suspension leaves is restored (asIfSuspended). Should
      // it reject (say, a hook before its first await), React renders it as it would have, so the answer is React's.
      (Component as (props: unknown, secondArg: undefined) => Promise<unknown>)(element.props, undefined).then(
        (node) => renderTree(node, asIfSuspended),
        () => renderTree(element),
      );
    },

    /**
     * Called by the host whenever QuickJS has no pending promise job: runs
     * one macrotask if the render is still pending and returns the status
     * ("stalled" = pending with nothing left to run, i.e. a promise that
     * will never settle).
     */
    tick(): string {
      if (outcome.status === "pending" && !runMacrotask()) return "stalled";
      return outcome.status;
    },

    take(): { html: string } | { kind: FailureKind; message: string } {
      const current = outcome;
      outcome = { status: "idle" };
      resetSharedState(realm);
      if (current.status === "ok") return { html: current.html };
      if (current.status === "error") return { kind: current.kind, message: current.message };
      return { kind: "threw", message: "Render did not complete" };
    },

    previewProps(
      maxOutputBytes: number,
      deadline: number,
    ): { json: string | null } | { kind: FailureKind; message: string } {
      startRun(realm, maxOutputBytes, deadline);
      try {
        const Component = instantiate(template) as AnyObject;
        const preview = Component.PreviewProps;
        if (preview === undefined || preview === null) return { json: null };
        const json = jsonStringify(preview);
        if (typeof json !== "string") return { json: null };
        if (json.length > maxOutputBytes) {
          outputState.exceeded = true;
          throw new Error(`PreviewProps exceed the limit of ${maxOutputBytes} bytes`);
        }
        return { json };
      } catch (error) {
        const failed = failure(error);
        return failed.status === "error"
          ? { kind: failed.kind, message: failed.message }
          : { kind: "threw", message: describeError(error) };
      } finally {
        resetSharedState(realm);
      }
    },

    /**
     * The subject: `message` (ICU) formatted by IntlMessageFormat, as use-intl's `t()` formats, in the props' `locale`
     * with the props as values.
     */
    subject(
      message: string,
      propsJson: string,
      deadline: number,
    ): { subject: string } | { kind: FailureKind; message: string } {
      startRun(realm, Number.POSITIVE_INFINITY, deadline);
      try {
        const props = jsonParse(propsJson) as AnyObject;
        const locale = typeof props.locale === "string" ? props.locale : undefined;
        const messageFormat = realm.modules["intl-messageformat"];
        if (!messageFormat) throw new Error("IntlMessageFormat is not loaded in this context");
        const formatted = new messageFormat.IntlMessageFormat(String(message), locale).format(props);
        return { subject: isArray(formatted) ? formatted.join("") : String(formatted) };
      } catch (error) {
        const failed = failure(error);
        return failed.status === "error"
          ? { kind: failed.kind, message: `The subject message could not be formatted: ${failed.message}` }
          : { kind: "threw", message: describeError(error) };
      } finally {
        resetSharedState(realm);
      }
    },

    /** Runs one leftover macrotask (e.g. React's post-render housekeeping); false when there was none. */
    drain(): boolean {
      return runMacrotask();
    },
  };
}

const SUSPENSE_END = "<!--/$-->";

/**
 * The HTML of a render whose async top-level component was awaited before React rendered it, as React writes it when
 * the component suspends: React renders a suspended component into a segment of its own, which it closes with a text
 * separator when the last thing written into it was text. Escaped text never ends with ">", and everything else React
 * writes does, so the character before the Suspense boundary's end tells.
 */
function asIfSuspended(html: string): string {
  if (!html.endsWith(SUSPENSE_END)) return html;
  const end = html.length - SUSPENSE_END.length;
  return html[end - 1] === ">" ? html : `${html.slice(0, end)}<!-- -->${SUSPENSE_END}`;
}

/** A require like the realm's whose @react-email/components has a `Tailwind` made once for these styles. */
function requireWithTailwind(realm: Realm, styles: TailwindStyles): TemplateRequire {
  const { templateRequire } = realm;
  const components = makeModuleView({
    ...realm.views["@react-email/components"],
    Tailwind: tailwindWithStyles(styles),
  });
  harden(components);
  const withTailwind = function require(specifier: string): AnyObject {
    return specifier === "@react-email/components" ? components : templateRequire(specifier);
  };
  harden(withTailwind);
  return withTailwind;
}

/** Before a render or a PreviewProps read: this run's deadline and output limit, and nothing left of the last run. */
function startRun(realm: Realm, maxOutputBytes: number, deadline: number): void {
  deadlineState.deadline = deadline;
  deadlineState.expired = false;
  resetSharedState(realm);
  clearMacrotasks();
  resetOutputState(maxOutputBytes);
}

function resetSharedState({ internals, initialInternals }: Realm): void {
  for (const key of objectKeys(internals)) {
    if (!(key in initialInternals)) delete internals[key];
  }
  objectAssign(internals, initialInternals);
  resetOutputState(Number.POSITIVE_INFINITY);
}

/** A fresh instance of the template's module (module-level state never survives a run); its component. */
function instantiate(template: LoadedTemplate | null): unknown {
  if (!template) throw new InvalidComponentError("No template loaded");
  const commonJsModule: AnyObject = { exports: {} };
  template.factory.call(
    commonJsModule.exports,
    commonJsModule.exports,
    template.require,
    commonJsModule,
    template.loadJson,
  );
  const exported = commonJsModule.exports as AnyObject;
  const candidate = exported && typeof exported === "object" && "default" in exported ? exported.default : exported;
  const isComponent =
    typeof candidate === "function" ||
    (typeof candidate === "object" && candidate !== null && typeof (candidate as AnyObject).$$typeof === "symbol");
  if (!isComponent) {
    throw new InvalidComponentError(
      "The template's default export is not a React component (expected `export default function Email(props) { ... }`)",
    );
  }
  return candidate;
}

function failure(error: unknown): Outcome {
  if (deadlineState.expired)
    return { status: "error", kind: "timeout", message: "Template exceeded the render deadline" };
  if (outputState.exceeded) return { status: "error", kind: "output_too_large", message: describeError(error) };
  if (error instanceof InvalidComponentError)
    return { status: "error", kind: "invalid_component", message: error.message };
  return { status: "error", kind: "threw", message: describeError(error) };
}

export function install(modules: SandboxModules): void {
  const g = globalThis as AnyObject;
  g.__modules = modules;
  g.__letterpressSandbox = { init };
}
