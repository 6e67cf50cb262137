/**
 * Builds the generated files of the renderers:
 *  - lib/render/sandbox/runtime.generated.js: the JavaScript evaluated in
 *    every QuickJS sandbox context before a user template runs;
 *  - lib/render/sandbox/worker.generated.cjs: the sandbox worker thread
 *    (lib/render/sandbox/worker.ts + engine.ts) with that runtime inlined;
 *  - lib/render/catalogue-worker.generated.cjs: the catalogue render worker
 *    thread (lib/render/catalogue-worker.ts) with emails/ and its libraries;
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
 * Host shims (TextEncoder, queueMicrotask, MessageChannel, setTimeout,
 * ReadableStream) are injected as bundle-local bindings from
 * lib/render/sandbox/runtime-shims.ts; nothing touches real timers, network
 * or the file system.
 *
 * Usage: tsx scripts/build-sandbox-runtime.ts   (deterministic, < 1 s; files
 * are only rewritten when their content changes)
 */
import { build, type BuildOptions, type Plugin } from "esbuild";
import { createRequire } from "node:module";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { SANDBOX_COMPONENT_EXPORTS, SANDBOX_COMPONENT_PACKAGES } from "../lib/render/sandbox/modules";
import { prefixLeadingObjectSpreads } from "./lib/object-spread";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const sandboxDir = path.join(root, "lib/render/sandbox");
const outFile = path.join(sandboxDir, "runtime.generated.js");
const workerOutFile = path.join(sandboxDir, "worker.generated.cjs");
const catalogueWorkerOutFile = path.join(root, "lib/render/catalogue-worker.generated.cjs");
const compileWorkerOutFile = path.join(sandboxDir, "compile-worker.generated.cjs");
const tailwindStylesOutFile = path.join(sandboxDir, "tailwind-styles.generated.cjs");
const requireFromRoot = createRequire(path.join(root, "package.json"));

/*
 * String-chunk patch for react-dom/server (browser, production).
 *
 * Fizz's web-streams config encodes every piece of markup with TextEncoder
 * and copies bytes into 2 KB views. QuickJS has no native TextEncoder, and a
 * JavaScript UTF-8 encoder running inside WebAssembly QuickJS costs ~0.4 s
 * per MB, so large emails would blow the deadline. The patch swaps the
 * config's chunk primitives for string ones (the same shape React's own
 * string-based configs use); the Fizz algorithm itself is untouched, so the
 * markup is identical. It also replaces escapeTextForBrowser with an
 * equivalent regex-based version (the original loops over every character in
 * JS) that first checks the text against the output limit.
 *
 * byteSize bookkeeping: Fizz only compares a boundary's byteSize with 500
 * (outlining eligibility) and with progressiveChunkSize, which the harness
 * always sets to Infinity (as @react-email/render does). Exact UTF-8 sizes
 * are therefore only computed until a boundary passes 500 bytes.
 *
 * Every original snippet must match exactly; otherwise NO patch is applied
 * and the bundle falls back to the (correct but slow) byte path with a
 * warning.
 */
const STRING_CHUNK_PATCHES: ReadonlyArray<{ original: string; replacement: string }> = [
  {
    original: `function writeChunk(destination, chunk) {
  if (0 === chunk.byteLength) {
    if (supportsArrayBufferDetached && chunk.buffer.detached)
      throw Error(formatProdErrorMessage(612));
  } else if (2048 < chunk.byteLength)
    0 < writtenBytes &&
      (destination.enqueue(new Uint8Array(currentView.buffer, 0, writtenBytes)),
      (currentView = new Uint8Array(2048)),
      (writtenBytes = 0)),
      destination.enqueue(chunk);
  else {
    var allowableBytes = currentView.length - writtenBytes;
    allowableBytes < chunk.byteLength &&
      (0 === allowableBytes
        ? destination.enqueue(currentView)
        : (currentView.set(chunk.subarray(0, allowableBytes), writtenBytes),
          destination.enqueue(currentView),
          (chunk = chunk.subarray(allowableBytes))),
      (currentView = new Uint8Array(2048)),
      (writtenBytes = 0));
    currentView.set(chunk, writtenBytes);
    writtenBytes += chunk.byteLength;
  }
}
function writeChunkAndReturn(destination, chunk) {
  writeChunk(destination, chunk);
  return !0;
}
function completeWriting(destination) {
  currentView &&
    0 < writtenBytes &&
    (destination.enqueue(new Uint8Array(currentView.buffer, 0, writtenBytes)),
    (currentView = null),
    (writtenBytes = 0));
}
var textEncoder = new TextEncoder();
function stringToChunk(content) {
  return textEncoder.encode(content);
}
function stringToPrecomputedChunk(content) {
  return textEncoder.encode(content);
}
function byteLengthOfChunk(chunk) {
  return chunk.byteLength;
}`,
    replacement: `function writeChunk(destination, chunk) {
  0 !== chunk.length && destination.enqueue(chunk);
}
function writeChunkAndReturn(destination, chunk) {
  writeChunk(destination, chunk);
  return !0;
}
function completeWriting(destination) {}
function stringToChunk(content) {
  return content;
}
function stringToPrecomputedChunk(content) {
  return content;
}
function byteLengthOfChunk(chunk) {
  return __sbxUtf8Length(chunk);
}`,
  },
  {
    original: `function finishedSegment(request, boundary, segment) {
  if (null !== byteLengthOfChunk) {
    segment = segment.chunks;
    for (var segmentByteSize = 0, i = 0; i < segment.length; i++)
      segmentByteSize += segment[i].byteLength;
    null === boundary
      ? (request.byteSize += segmentByteSize)
      : (boundary.byteSize += segmentByteSize);
  }
}`,
    replacement: `function finishedSegment(request, boundary, segment) {
  if (null !== byteLengthOfChunk) {
    var target = null === boundary ? request : boundary;
    segment = segment.chunks;
    for (var i = 0; i < segment.length && 500 >= target.byteSize; i++)
      target.byteSize += byteLengthOfChunk(segment[i]);
  }
}`,
  },
  {
    original: `function escapeTextForBrowser(text) {
  if (
    "boolean" === typeof text ||
    "number" === typeof text ||
    "bigint" === typeof text
  )
    return "" + text;
  text = "" + text;
  var match = matchHtmlRegExp.exec(text);
  if (match) {
    var html = "",
      index,
      lastIndex = 0;
    for (index = match.index; index < text.length; index++) {
      switch (text.charCodeAt(index)) {
        case 34:
          match = "&quot;";
          break;
        case 38:
          match = "&amp;";
          break;
        case 39:
          match = "&#x27;";
          break;
        case 60:
          match = "&lt;";
          break;
        case 62:
          match = "&gt;";
          break;
        default:
          continue;
      }
      lastIndex !== index && (html += text.slice(lastIndex, index));
      lastIndex = index + 1;
      html += match;
    }
    text = lastIndex !== index ? html + text.slice(lastIndex, index) : html;
  }
  return text;
}`,
    replacement: `var sbxEscapeAll = /["'&<>]/g,
  sbxEscapes = { '"': "&quot;", "&": "&amp;", "'": "&#x27;", "<": "&lt;", ">": "&gt;" };
function sbxEscapeChar(c) {
  return sbxEscapes[c];
}
function escapeTextForBrowser(text) {
  if (
    "boolean" === typeof text ||
    "number" === typeof text ||
    "bigint" === typeof text
  )
    return "" + text;
  text = "" + text;
  __sbxGuardText(text);
  return matchHtmlRegExp.test(text) ? text.replace(sbxEscapeAll, sbxEscapeChar) : text;
}`,
  },
];

/** `source` with every patch applied, or null when any original snippet is not there exactly once. */
function applySnippetPatches(
  source: string,
  patches: ReadonlyArray<{ original: string; replacement: string }>,
): string | null {
  let patched = source;
  for (const { original, replacement } of patches) {
    const at = patched.indexOf(original);
    if (at < 0 || patched.indexOf(original, at + 1) >= 0) return null;
    patched = patched.slice(0, at) + replacement + patched.slice(at + original.length);
  }
  return patched;
}

/** Points `react-dom/server` at the production browser streaming build (not the legacy renderer) and patches it. */
function reactDomServerPlugin(report: { patched: boolean }): Plugin {
  return {
    name: "react-dom-server-browser",
    setup(b) {
      // The cjs/ files are not in react-dom's "exports" map: locate them from package.json.
      const reactDomDir = path.dirname(requireFromRoot.resolve("react-dom/package.json"));
      const target = path.join(reactDomDir, "cjs/react-dom-server.browser.production.js");
      b.onResolve({ filter: /^react-dom\/server(\.browser)?$/ }, () => ({ path: target }));
      b.onLoad({ filter: /react-dom-server\.browser\.production\.js$/ }, (args) => {
        const original = readFileSync(args.path, "utf8");
        const patched = applySnippetPatches(original, STRING_CHUNK_PATCHES);
        if (patched === null) {
          console.warn(
            "[build-sandbox-runtime] WARNING: react-dom/server changed; string-chunk patch NOT applied. " +
              "Sandbox output stays correct but large emails render much more slowly. Update STRING_CHUNK_PATCHES.",
          );
          return { contents: original, loader: "js" };
        }
        report.patched = true;
        return { contents: patched, loader: "js" };
      });
    },
  };
}

/*
 * html-to-text picks each element's formatter with selderee, whose htmlparser2 plugin merges the matches of a
 * selector tree's branches with `(el, ...tail) => matchers.flatMap(m => m(el, ...tail))`: a rest array, a closure
 * and a flattened copy for every element and branch, a fifth of each conversion. The replacement collects the same
 * matches, in the same order, into one fresh array (matchers always return arrays of match objects, so flattening
 * one level is pushing their items). The welcome template's plain text: 209–218 µs → 158–163 µs a conversion.
 */
const SELECTOR_MERGE_PATCH = {
  original: `    return (el, ...tail) => matchers.flatMap(m => m(el, ...tail));`,
  replacement: `    const count = matchers.length;
    return function () {
        const matches = [];
        for (let i = 0; i < count; i++) {
            const branch = matchers[i].apply(null, arguments);
            for (let j = 0; j < branch.length; j++) matches.push(branch[j]);
        }
        return matches;
    };`,
};

/** Applies SELECTOR_MERGE_PATCH to @selderee/plugin-htmlparser2; if its code changed, bundles it unpatched. */
function selectorMergePlugin(report: { patched: boolean }): Plugin {
  return {
    name: "selderee-selector-merge",
    setup(b) {
      b.onLoad({ filter: /[\\/]@selderee[\\/]plugin-htmlparser2[\\/]lib[\\/]hp2-builder\.[cm]?js$/ }, (args) => {
        const original = readFileSync(args.path, "utf8");
        const patched = applySnippetPatches(original, [SELECTOR_MERGE_PATCH]);
        if (patched === null) {
          console.warn(
            "[build-sandbox-runtime] WARNING: @selderee/plugin-htmlparser2 changed; selector merge patch NOT applied (plain text stays correct, only slower).",
          );
          return { contents: original, loader: "js" };
        }
        report.patched = true;
        return { contents: patched, loader: "js" };
      });
    },
  };
}

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

/** Warn (do not fail: this runs from postinstall) when modules.ts drifts from the installed packages. */
async function checkExportList(): Promise<void> {
  const actual = new Set<string>();
  for (const pkg of SANDBOX_COMPONENT_PACKAGES) {
    const ns = (await import(pkg)) as Record<string, unknown>;
    for (const key of Object.keys(ns)) if (key !== "default" && key !== "module.exports") actual.add(key);
  }
  const expected = new Set<string>(SANDBOX_COMPONENT_EXPORTS);
  const missing = [...actual].filter((k) => !expected.has(k));
  const extra = [...expected].filter((k) => !actual.has(k));
  if (missing.length || extra.length) {
    console.warn(
      `[build-sandbox-runtime] SANDBOX_COMPONENT_EXPORTS in lib/render/sandbox/modules.ts is out of date.` +
        (missing.length ? ` Not listed: ${missing.join(", ")}.` : "") +
        (extra.length ? ` Listed but not exported: ${extra.join(", ")}.` : ""),
    );
  }
}

async function main(): Promise<void> {
  const started = performance.now();
  const report = { patched: false };
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
    inject: [path.join(sandboxDir, "runtime-shims.ts")],
    plugins: [reactDomServerPlugin(report)],
    banner: {
      js: "/* GENERATED by scripts/build-sandbox-runtime.ts. Do not edit; do not commit. Contains React (MIT) and React Email components (MIT). */",
    },
    logLevel: "warning",
  });
  const code = result.outputFiles[0]?.text;
  if (!code) throw new Error("esbuild produced no output");
  const runtimeChanged = writeIfChanged(outFile, code);

  // The sandbox worker (lib/render/sandbox/worker.ts + engine) with the
  // runtime above inlined, so the two can never be out of sync.
  // quickjs-emscripten stays external: it loads its .wasm from its own folder.
  // Its html-to-text (plain text of user templates) gets the same speed-ups as the catalogue worker's, below.
  const sandboxSelectorReport = { patched: false };
  const workerCode = prefixLeadingObjectSpreads(
    await bundleWorker("sandbox worker", path.join(sandboxDir, "worker.ts"), {
      external: ["quickjs-emscripten", "quickjs-emscripten-core", "@jitl/*"],
      define: { __LETTERPRESS_SANDBOX_RUNTIME__: JSON.stringify(code) },
      plugins: [selectorMergePlugin(sandboxSelectorReport)],
    }),
  );
  const workerChanged = writeIfChanged(workerOutFile, workerCode);

  // The catalogue render worker (lib/render/catalogue-worker.ts): trusted templates from emails/ with React, React
  // Email and html-to-text, production builds, all in one file so deployments need nothing else traced for it; its
  // react-dom/server is the string-chunk build the sandbox uses, and its object literals that start with a spread take
  // V8's fast path (scripts/lib/object-spread.ts).
  const catalogueReport = { patched: false };
  const catalogueSelectorReport = { patched: false };
  const catalogueBundle = await bundleWorker(
    "catalogue render worker",
    path.join(root, "lib/render/catalogue-worker.ts"),
    {
      minify: true,
      define: { "process.env.NODE_ENV": '"production"' },
      inject: [path.join(root, "lib/render/string-chunk-stream.ts")],
      plugins: [serverOnlyIsEmpty, reactDomServerPlugin(catalogueReport), selectorMergePlugin(catalogueSelectorReport)],
    },
  );
  const catalogueCode = prefixLeadingObjectSpreads(catalogueBundle);
  const catalogueChanged = writeIfChanged(catalogueWorkerOutFile, catalogueCode);

  // The compile worker (lib/render/sandbox/compile-worker.ts) with sucrase and TypeScript, and beside it the Tailwind
  // styles it loads only for a template that uses <Tailwind> (@react-email/tailwind and its compiler).
  const compileCode = await bundleWorker("compile worker", path.join(sandboxDir, "compile-worker.ts"), {
    minify: true,
    define: { "process.env.NODE_ENV": '"production"' },
  });
  const compileChanged = writeIfChanged(compileWorkerOutFile, compileCode);
  const tailwindCode = await bundleWorker("Tailwind styles", path.join(sandboxDir, "tailwind-styles.ts"), {
    minify: true,
    define: { "process.env.NODE_ENV": '"production"' },
  });
  const tailwindChanged = writeIfChanged(tailwindStylesOutFile, tailwindCode);

  await checkExportList();
  const ms = Math.round(performance.now() - started);
  const kb = (text: string): string => `${(Buffer.byteLength(text) / 1024).toFixed(1)} KB`;
  console.log(
    `[build-sandbox-runtime] ${path.relative(root, outFile)} (${kb(code)}${runtimeChanged ? "" : ", unchanged"}), ` +
      `${path.relative(root, workerOutFile)} (${kb(workerCode)}${workerChanged ? "" : ", unchanged"}), ` +
      `${path.relative(root, catalogueWorkerOutFile)} (${kb(catalogueCode)}${catalogueChanged ? "" : ", unchanged"}), ` +
      `${path.relative(root, compileWorkerOutFile)} (${kb(compileCode)}${compileChanged ? "" : ", unchanged"}), ` +
      `${path.relative(root, tailwindStylesOutFile)} (${kb(tailwindCode)}${tailwindChanged ? "" : ", unchanged"}) in ${ms} ms` +
      (report.patched && catalogueReport.patched ? "" : " [UNPATCHED react-dom/server]") +
      (catalogueSelectorReport.patched && sandboxSelectorReport.patched ? "" : " [UNPATCHED selderee]"),
  );
}

/** A worker thread's entry (or a module it loads) bundled into one CommonJS file for Node 20. */
async function bundleWorker(name: string, entry: string, options: BuildOptions): Promise<string> {
  const result = await build({
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
  });
  const text = result.outputFiles?.[0]?.text;
  if (!text) throw new Error(`esbuild produced no ${name} output`);
  return text;
}

/** `server-only` throws outside React's server environment; the worker is server code by construction. */
const serverOnlyIsEmpty: Plugin = {
  name: "server-only-is-empty",
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^server-only$/ }, () => ({ path: "server-only", namespace: "empty" }));
    pluginBuild.onLoad({ filter: /.*/, namespace: "empty" }, () => ({ contents: "", loader: "js" }));
  },
};

/** Writes only when the content differs (keeps mtimes stable for watchers). */
function writeIfChanged(file: string, content: string): boolean {
  let previous: string | null = null;
  try {
    previous = readFileSync(file, "utf8");
  } catch {
    previous = null;
  }
  if (previous === content) return false;
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
  return true;
}

main().catch((error: unknown) => {
  console.error("[build-sandbox-runtime] failed:", error);
  process.exitCode = 1;
});
