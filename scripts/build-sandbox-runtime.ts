/**
 * Builds the generated files of the renderers:
 *  - lib/render/sandbox/runtime.generated.js: the JavaScript evaluated in
 *    every QuickJS sandbox context before a user template runs;
 *  - lib/render/sandbox/worker.generated.cjs: the sandbox worker thread
 *    (lib/render/sandbox/worker.ts + engine.ts) with that runtime inlined;
 *  - lib/render/workers/catalogue-worker.generated.cjs: the catalogue render worker
 *    thread (lib/render/workers/catalogue-worker.ts) with emails/ and its libraries;
 *  - lib/render/sandbox/compile-worker.generated.cjs: the worker thread that
 *    compiles users' TSX (lib/render/sandbox/compile-worker.ts) with sucrase.
 *
 * The bundle is an IIFE that defines on globalThis:
 *   - `__modules`: { react, "react/jsx-runtime", "@react-email/components",
 *     "react-dom/server" } (production builds; react-dom/server is the browser
 *     build, of which only renderToReadableStream is used: it produces the
 *     exact markup @react-email/render's render() produces);
 *   - `__letterpressSandbox.init()`: see lib/render/sandbox/runtime-harness.ts,
 *     which removes both globals again and hardens the realm.
 * Host shims (queueMicrotask, MessageChannel, setTimeout; ReadableStream)
 * are injected as bundle-local bindings from
 * lib/render/sandbox/runtime-shims.ts and lib/render/react-email/stream.ts;
 * nothing touches real timers, network or the file system.
 *
 * react-dom/server and html-to-text's selector plugin are patched as they are
 * bundled (scripts/lib/dependency-patches.ts); a patch that does not apply
 * fails the build.
 *
 * Usage: tsx scripts/build-sandbox-runtime.ts   (deterministic, < 2 s; files
 * are only rewritten when their content changes, whole, by renaming). Nothing
 * is built when the files every bundle read last time, this script and the
 * lockfile are as they were, and the outputs as it wrote them (BUILD_STAMP):
 * postinstall builds them, then the sandbox tests and `npm run build` find
 * them up to date.
 * `npm run dev` (bin/serve.ts) keeps the catalogue worker up to date with
 * watchCatalogueWorker.
 */
import { build, context, version as esbuildVersion, type BuildOptions, type Metafile, type Plugin } from "esbuild";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  SANDBOX_COMPONENT_EXPORTS,
  SANDBOX_COMPONENT_PACKAGES,
  SANDBOX_INTL_EXPORTS,
} from "../lib/render/sandbox/modules";
import { reactDomServerPlugin, selectorMergePlugin } from "./lib/dependency-patches";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const sandboxDir = path.join(root, "lib/render/sandbox");
/** React's ReadableStream and the string-chunk patch's helpers, injected into both bundles that render React. */
const reactStreamFile = path.join(root, "lib/render/react-email/stream.ts");
const outFile = path.join(sandboxDir, "runtime.generated.js");
const intlOutFile = path.join(sandboxDir, "runtime-intl.generated.js");
const workerOutFile = path.join(sandboxDir, "worker.generated.cjs");
const catalogueWorkerOutFile = path.join(root, "lib/render/workers/catalogue-worker.generated.cjs");
const compileWorkerOutFile = path.join(sandboxDir, "compile-worker.generated.cjs");
const tailwindStylesOutFile = path.join(sandboxDir, "tailwind-styles.generated.cjs");
const OUT_FILES = [
  outFile,
  intlOutFile,
  workerOutFile,
  catalogueWorkerOutFile,
  compileWorkerOutFile,
  tailwindStylesOutFile,
];
/** What the last build read and wrote (see the top of the file); under node_modules, so a reinstall clears it. */
const BUILD_STAMP = path.join(root, "node_modules/.cache/letterpress/sandbox-runtime-build.json");
/** Read by this script itself rather than by a bundle: they shape every bundle. */
const BUILD_SCRIPT_FILES = [
  "scripts/build-sandbox-runtime.ts",
  "scripts/lib/dependency-patches.ts",
  "lib/render/sandbox/modules.ts",
  "package-lock.json",
];

function entrySource(): string {
  const lines: string[] = [
    `import React from "react";`,
    `import jsxRuntime from "react/jsx-runtime";`,
    `import { renderToReadableStream } from "react-dom/server";`,
    `import { install } from "./lib/render/sandbox/runtime-harness";`,
    `import { Tailwind, pixelBasedPreset } from "./lib/render/sandbox/tailwind-runtime";`,
  ];
  SANDBOX_COMPONENT_PACKAGES.forEach((pkg, i) => lines.push(`import * as c${i} from ${JSON.stringify(pkg)};`));
  lines.push(
    `const components = {};`,
    `for (const ns of [${SANDBOX_COMPONENT_PACKAGES.map((_, i) => `c${i}`).join(", ")}]) {`,
    `  for (const key of Object.keys(ns)) if (key !== "default") components[key] = ns[key];`,
    `}`,
    `components.Tailwind = Tailwind;`,
    `components.pixelBasedPreset = pixelBasedPreset;`,
    `install({`,
    `  react: React,`,
    `  "react/jsx-runtime": jsxRuntime,`,
    `  "@react-email/components": components,`,
    `  "react-dom/server": { renderToReadableStream },`,
    `});`,
  );
  return lines.join("\n");
}

/**
 * use-intl/core and IntlMessageFormat, evaluated after the runtime only in the contexts of templates that import
 * next-intl, use-intl or use-intl/core, or render a subject (engine.ts): the others start as fast as before. They join
 * `__modules` (runtime-harness.ts takes them from there), and use-intl's `react` is the runtime's.
 */
const INTL_ENTRY = [
  `import * as useIntlCore from "use-intl/core";`,
  `import { IntlMessageFormat } from "intl-messageformat";`,
  `import formatMessage, { messageFormatFor } from "use-intl/format-message";`,
  `globalThis.__modules["use-intl/core"] = useIntlCore;`,
  `globalThis.__modules["use-intl/format-message"] = { formatMessage, messageFormatFor };`,
  `globalThis.__modules["intl-messageformat"] = { IntlMessageFormat };`,
].join("\n");

/** `react` inside the Intl bundle: the runtime's own, which the runtime left on `__modules`. */
const runtimeReact: Plugin = {
  name: "runtime-react",
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^react$/ }, () => ({ path: "react", namespace: "runtime-react" }));
    pluginBuild.onLoad({ filter: /.*/, namespace: "runtime-react" }, () => ({
      contents: "module.exports = globalThis.__modules.react;",
      loader: "js",
    }));
  },
};

/**
 * use-intl's formatMessage module, which use-intl imports by its public name so that a bundler may swap it (next-intl's
 * plugin does, for precompiled messages): ours (lib/render/sandbox/format-message.ts) gives the same results without
 * the work use-intl repeats on every call.
 */
const sandboxFormatMessage: Plugin = {
  name: "sandbox-format-message",
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^use-intl\/format-message$/ }, () => ({
      path: path.join(sandboxDir, "format-message.ts"),
    }));
  },
};

/** Warn (do not fail: this runs from postinstall) when modules.ts drifts from the installed packages. */
async function checkExportList(): Promise<void> {
  const actual = new Set<string>();
  for (const pkg of SANDBOX_COMPONENT_PACKAGES) {
    const ns = (await import(pkg)) as Record<string, unknown>;
    for (const key of Object.keys(ns)) if (key !== "default" && key !== "module.exports") actual.add(key);
  }
  warnOnDrift("SANDBOX_COMPONENT_EXPORTS", actual, SANDBOX_COMPONENT_EXPORTS);
  const intl = Object.keys((await import("use-intl/core")) as Record<string, unknown>);
  warnOnDrift("SANDBOX_INTL_EXPORTS", new Set(intl.filter((key) => key !== "default")), SANDBOX_INTL_EXPORTS);
}

function warnOnDrift(list: string, actual: Set<string>, listed: readonly string[]): void {
  const expected = new Set<string>(listed);
  const missing = [...actual].filter((k) => !expected.has(k));
  const extra = [...expected].filter((k) => !actual.has(k));
  if (missing.length || extra.length) {
    console.warn(
      `[build-sandbox-runtime] ${list} in lib/render/sandbox/modules.ts is out of date.` +
        (missing.length ? ` Not listed: ${missing.join(", ")}.` : "") +
        (extra.length ? ` Listed but not exported: ${extra.join(", ")}.` : ""),
    );
  }
}

type BuildStamp = { inputs: string[]; digest: string };

/** The digest of `files` (paths from the root), with esbuild's version: a file gone reads as empty. */
function digestOf(files: string[]): string {
  const hash = createHash("sha256").update(esbuildVersion);
  for (const file of files) {
    const full = path.join(root, file);
    hash.update(`\0${file}\0`).update(existsSync(full) ? readFileSync(full) : "");
  }
  return hash.digest("hex");
}

/** True when the last build's inputs and outputs are as it left them. */
function upToDate(): boolean {
  let stamp: BuildStamp;
  try {
    stamp = JSON.parse(readFileSync(BUILD_STAMP, "utf8")) as BuildStamp;
  } catch {
    return false;
  }
  return OUT_FILES.every((file) => existsSync(file)) && digestOf(stamp.inputs) === stamp.digest;
}

/** Files the bundles read (esbuild's metafiles; not the generated entry or plugins' virtual modules), and ours. */
function writeStamp(metafiles: Metafile[]): void {
  const read = new Set(BUILD_SCRIPT_FILES);
  for (const metafile of metafiles)
    for (const input of Object.keys(metafile.inputs)) if (existsSync(path.join(root, input))) read.add(input);
  const inputs = [...read, ...OUT_FILES.map((file) => path.relative(root, file))].sort();
  mkdirSync(path.dirname(BUILD_STAMP), { recursive: true });
  writeFileSync(BUILD_STAMP, JSON.stringify({ inputs, digest: digestOf(inputs) } satisfies BuildStamp));
}

async function main(): Promise<void> {
  const started = performance.now();
  if (upToDate()) {
    console.log("[build-sandbox-runtime] up to date: nothing the bundles read has changed");
    return;
  }
  const metafiles: Metafile[] = [];
  const result = await build({
    absWorkingDir: root,
    stdin: { contents: entrySource(), resolveDir: root, sourcefile: "sandbox-runtime-entry.js", loader: "js" },
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    target: "es2020",
    minify: true,
    legalComments: "none",
    charset: "utf8",
    treeShaking: true,
    define: {
      "process.env.NODE_ENV": '"production"',
      // The preset's data, from the package itself: the sandbox does not hold Tailwind's compiler.
      __PIXEL_BASED_PRESET__: JSON.stringify((await import("@react-email/components")).pixelBasedPreset),
    },
    inject: [path.join(sandboxDir, "runtime-shims.ts"), reactStreamFile],
    plugins: [reactDomServerPlugin()],
    banner: {
      js: "/* GENERATED by scripts/build-sandbox-runtime.ts. Do not edit; do not commit. Contains React (MIT) and React Email components (MIT). */",
    },
    logLevel: "warning",
    metafile: true,
  });
  metafiles.push(result.metafile);
  const code = result.outputFiles[0]?.text;
  if (!code) throw new Error("esbuild produced no output");
  const runtimeChanged = writeIfChanged(outFile, code);
  const intlResult = await build({
    absWorkingDir: root,
    stdin: { contents: INTL_ENTRY, resolveDir: root, sourcefile: "sandbox-intl-entry.js", loader: "js" },
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    target: "es2020",
    minify: true,
    legalComments: "none",
    charset: "utf8",
    define: { "process.env.NODE_ENV": '"production"' },
    plugins: [runtimeReact, sandboxFormatMessage],
    banner: {
      js: "/* GENERATED by scripts/build-sandbox-runtime.ts. Do not edit; do not commit. Contains use-intl (MIT) and intl-messageformat (BSD-3-Clause). */",
    },
    logLevel: "warning",
    metafile: true,
  });
  metafiles.push(intlResult.metafile);
  const intlCode = intlResult.outputFiles[0]?.text;
  if (!intlCode) throw new Error("esbuild produced no Intl output");
  const intlChanged = writeIfChanged(intlOutFile, intlCode);

  // The sandbox worker (lib/render/sandbox/worker.ts + engine) with the
  // runtime above inlined, so the two can never be out of sync.
  // quickjs-emscripten stays external: it loads its .wasm from its own folder.
  // Its html-to-text (plain text of user templates) gets the same speed-up as the catalogue worker's, below.
  const workerCode = await bundleWorker(
    "sandbox worker",
    path.join(sandboxDir, "worker.ts"),
    {
      external: ["quickjs-emscripten", "quickjs-emscripten-core", "@jitl/*"],
      define: {
        __LETTERPRESS_SANDBOX_RUNTIME__: JSON.stringify(code),
        __LETTERPRESS_SANDBOX_INTL_RUNTIME__: JSON.stringify(intlCode),
      },
      plugins: [selectorMergePlugin(), caniemailDataInBundle],
    },
    metafiles,
  );
  const workerChanged = writeIfChanged(workerOutFile, workerCode);

  // The catalogue render worker (lib/render/workers/catalogue-worker.ts): see catalogueWorkerOptions.
  const catalogueCode = await bundleWorker(
    "catalogue render worker",
    catalogueWorkerEntry,
    catalogueWorkerOptions(),
    metafiles,
  );
  const catalogueChanged = writeIfChanged(catalogueWorkerOutFile, catalogueCode);

  // The compile worker (lib/render/sandbox/compile-worker.ts) with sucrase and TypeScript, and beside it the Tailwind
  // styles it loads only for a template that uses <Tailwind> (@react-email/tailwind and its compiler).
  const compileCode = await bundleWorker(
    "compile worker",
    path.join(sandboxDir, "compile-worker.ts"),
    {
      minify: true,
      define: { "process.env.NODE_ENV": '"production"' },
    },
    metafiles,
  );
  const compileChanged = writeIfChanged(compileWorkerOutFile, compileCode);
  const tailwindCode = await bundleWorker(
    "Tailwind styles",
    path.join(sandboxDir, "tailwind-styles.ts"),
    {
      minify: true,
      define: { "process.env.NODE_ENV": '"production"' },
    },
    metafiles,
  );
  const tailwindChanged = writeIfChanged(tailwindStylesOutFile, tailwindCode);

  await checkExportList();
  writeStamp(metafiles);
  const ms = Math.round(performance.now() - started);
  const kb = (text: string): string => `${(Buffer.byteLength(text) / 1024).toFixed(1)} KB`;
  console.log(
    `[build-sandbox-runtime] ${path.relative(root, outFile)} (${kb(code)}${runtimeChanged ? "" : ", unchanged"}), ` +
      `${path.relative(root, intlOutFile)} (${kb(intlCode)}${intlChanged ? "" : ", unchanged"}), ` +
      `${path.relative(root, workerOutFile)} (${kb(workerCode)}${workerChanged ? "" : ", unchanged"}), ` +
      `${path.relative(root, catalogueWorkerOutFile)} (${kb(catalogueCode)}${catalogueChanged ? "" : ", unchanged"}), ` +
      `${path.relative(root, compileWorkerOutFile)} (${kb(compileCode)}${compileChanged ? "" : ", unchanged"}), ` +
      `${path.relative(root, tailwindStylesOutFile)} (${kb(tailwindCode)}${tailwindChanged ? "" : ", unchanged"}) in ${ms} ms`,
  );
}

/** A worker thread's entry (or a module it loads) bundled into one CommonJS file for Node 20. */
async function bundleWorker(
  name: string,
  entry: string,
  options: BuildOptions,
  metafiles: Metafile[],
): Promise<string> {
  const result = await build({ ...workerBuildOptions(name, entry, options), metafile: true });
  metafiles.push(result.metafile);
  const text = result.outputFiles?.[0]?.text;
  if (!text) throw new Error(`esbuild produced no ${name} output`);
  return text;
}

function workerBuildOptions(name: string, entry: string, options: BuildOptions): BuildOptions {
  return {
    absWorkingDir: root,
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: "cjs",
    platform: "node",
    target: "node20",
    legalComments: "none",
    charset: "utf8",
    banner: { js: `/* GENERATED by scripts/build-sandbox-runtime.ts (${name}). Do not edit; do not commit. */` },
    logLevel: "warning",
    ...options,
  };
}

const catalogueWorkerEntry = path.join(root, "lib/render/workers/catalogue-worker.ts");

/**
 * The catalogue render worker (lib/render/workers/catalogue-worker.ts): trusted templates from emails/ with React,
 * React Email and html-to-text, production builds, all in one file so deployments need nothing else traced for it; its
 * react-dom/server is the string-chunk build the sandbox uses.
 */
function catalogueWorkerOptions(): BuildOptions {
  return {
    minify: true,
    define: { "process.env.NODE_ENV": '"production"' },
    inject: [reactStreamFile],
    plugins: [serverOnlyIsEmpty, reactDomServerPlugin(), selectorMergePlugin(), caniemailDataInBundle],
  };
}

/**
 * Builds the catalogue worker now, and again whenever a file it bundles changes (emails/, lib/catalogue/catalogue.ts,
 * ...): the catalogue pool, under `npm run dev`, then renders with the new bundle (lib/render/workers/worker-pool.ts
 * `reloadOnChange`). Resolves once the first build is written; the returned function stops watching.
 */
export async function watchCatalogueWorker(log: (line: string) => void): Promise<() => Promise<void>> {
  const writeBundle: Plugin = {
    name: "write-catalogue-worker",
    setup(pluginBuild) {
      pluginBuild.onEnd((result) => {
        const bundle = result.outputFiles?.[0]?.text;
        if (!bundle) return; // esbuild has reported the errors; the last good bundle keeps serving
        if (writeIfChanged(catalogueWorkerOutFile, bundle)) {
          log(`rebuilt ${path.relative(root, catalogueWorkerOutFile)}`);
        }
      });
    },
  };
  const options = catalogueWorkerOptions();
  const watcher = await context(
    workerBuildOptions("catalogue render worker", catalogueWorkerEntry, {
      ...options,
      plugins: [...options.plugins!, writeBundle],
    }),
  );
  // A failing build is reported by esbuild; the last bundle written serves until the error is fixed.
  await watcher.rebuild().catch(() => undefined);
  await watcher.watch();
  return () => watcher.dispose();
}

/** `server-only` throws outside React's server environment; the worker is server code by construction. */
const serverOnlyIsEmpty: Plugin = {
  name: "server-only-is-empty",
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^server-only$/ }, () => ({ path: "server-only", namespace: "empty" }));
    pluginBuild.onLoad({ filter: /.*/, namespace: "empty" }, () => ({ contents: "", loader: "js" }));
  },
};

/**
 * caniemail loads its data set with a require() made at run time (createRequire), which a bundle cannot follow: its
 * data module is read as a plain import of the JSON instead, so the data is in the bundle
 * (lib/render/analysis/compatibility.ts).
 */
const caniemailDataInBundle: Plugin = {
  name: "caniemail-data-in-bundle",
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: /[\\/]caniemail[\\/]dist[\\/]json\.js$/ }, () => ({
      contents: 'import data from "caniemail/caniemail.json";\nexport const caniEmailJson = data;\n',
      loader: "js",
      resolveDir: root,
    }));
  },
};

/**
 * Writes only when the content differs (keeps mtimes stable for watchers), and whole: a worker starting meanwhile
 * loads the old file or the new one, never part of one.
 */
function writeIfChanged(file: string, content: string): boolean {
  let previous: string | null = null;
  try {
    previous = readFileSync(file, "utf8");
  } catch {
    previous = null;
  }
  if (previous === content) return false;
  mkdirSync(path.dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, content);
  renameSync(partial, file);
  return true;
}

// Run as a script (npm run build:sandbox, postinstall); bin/serve.ts imports watchCatalogueWorker only.
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main().catch((error: unknown) => {
    console.error("[build-sandbox-runtime] failed:", error);
    process.exitCode = 1;
  });
}
