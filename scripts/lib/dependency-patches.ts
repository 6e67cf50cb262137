/**
 * The patches scripts/build-sandbox-runtime.ts applies to dependencies as it bundles them (why each, what it gains and
 * what upstream change would remove it: docs/architecture.md, "Dependency patches"). Each is written for the exact
 * version package.json pins, and one that does not apply fails the build: the bundles would still be correct without
 * it, only slower, and nothing else would notice.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Plugin, PluginBuild } from "esbuild";

export type DependencyPatch = {
  /** The package patched, as package.json names it. */
  packageName: string;
  /** The patch's name in a failure. */
  name: string;
  /** Each original must be in the file exactly once; it is replaced in place. */
  snippets: ReadonlyArray<{ original: string; replacement: string }>;
};

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const requireFromRoot = createRequire(path.join(root, "package.json"));

/** The react-dom the bundles use. */
export const REACT_DOM_DIR = path.dirname(requireFromRoot.resolve("react-dom/package.json"));
/**
 * The selector plugin of the html-to-text lib/render/react-email/plain-text.ts uses (10, which brings 0.12).
 * @react-email/components brings html-to-text 9 with its own 0.11 for its render(), which the bundles do not use
 * (tree-shaken): not patched.
 */
export const SELECTOR_PLUGIN_DIR = path.dirname(
  createRequire(requireFromRoot.resolve("html-to-text")).resolve("@selderee/plugin-htmlparser2/package.json"),
);

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
 */
const STRING_CHUNK_SNIPPETS: DependencyPatch["snippets"] = [
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

export const STRING_CHUNK_PATCH: DependencyPatch = {
  packageName: "react-dom",
  name: "string-chunk",
  snippets: STRING_CHUNK_SNIPPETS,
};

/*
 * html-to-text picks each element's formatter with selderee, whose htmlparser2 plugin merges the matches of a
 * selector tree's branches with `(el, ...tail) => matchers.flatMap(m => m(el, ...tail))`: a rest array, a closure
 * and a flattened copy for every element and branch, a fifth of each conversion. The replacement collects the same
 * matches, in the same order, into one fresh array (matchers always return arrays of match objects, so flattening
 * one level is pushing their items). The welcome template's plain text: 209–218 µs → 158–163 µs a conversion.
 */
export const SELECTOR_MERGE_PATCH: DependencyPatch = {
  packageName: "@selderee/plugin-htmlparser2",
  name: "selector-merge",
  snippets: [
    {
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
    },
  ],
};

/** `source`, the text of `file` in the package at `packageDir`, with every snippet of `patch` replaced. */
export function applyDependencyPatch(patch: DependencyPatch, source: string, packageDir: string, file: string): string {
  let patched = source;
  patch.snippets.forEach(({ original, replacement }, i) => {
    const count = patched.split(original).length - 1;
    if (count !== 1) {
      const snippet = `its snippet ${i + 1} of ${patch.snippets.length}`;
      const where = `${count} times, not once, in ${path.relative(packageDir, file)}`;
      throw new Error(notApplied(patch, packageDir, `${snippet} is ${where}`));
    }
    patched = patched.replace(original, () => replacement);
  });
  return patched;
}

/** Points `react-dom/server` at the production browser streaming build (not the legacy renderer) and patches it. */
export function reactDomServerPlugin(reactDomDir = REACT_DOM_DIR): Plugin {
  const target = path.join(reactDomDir, "cjs/react-dom-server.browser.production.js");
  return patchingPlugin(
    "react-dom-server-browser",
    STRING_CHUNK_PATCH,
    reactDomDir,
    /react-dom-server\.browser\.production\.js$/,
    (b) => b.onResolve({ filter: /^react-dom\/server(\.browser)?$/ }, () => ({ path: target })),
  );
}

/** Applies SELECTOR_MERGE_PATCH to the selector plugin html-to-text uses. */
export function selectorMergePlugin(pluginDir = SELECTOR_PLUGIN_DIR): Plugin {
  return patchingPlugin("selderee-selector-merge", SELECTOR_MERGE_PATCH, pluginDir, /[\\/]hp2-builder\.[cm]?js$/);
}

/** Patches the files of the package at `packageDir` that match `files`; the build fails if it loads none of them. */
function patchingPlugin(
  name: string,
  patch: DependencyPatch,
  packageDir: string,
  files: RegExp,
  setup?: (b: PluginBuild) => void,
): Plugin {
  return {
    name,
    setup(b) {
      setup?.(b);
      let applied = false;
      b.onLoad({ filter: files }, (args) => {
        if (!args.path.startsWith(packageDir + path.sep)) return undefined;
        try {
          const contents = applyDependencyPatch(patch, readFileSync(args.path, "utf8"), packageDir, args.path);
          applied = true;
          return { contents, loader: "js" };
        } catch (error) {
          // As a build error, not a thrown one: esbuild's trace of this callback would bury what to do.
          return { errors: [{ text: (error as Error).message }] };
        }
      });
      b.onEnd((result) =>
        applied || result.errors.length > 0
          ? undefined
          : { errors: [{ text: notApplied(patch, packageDir, `the build loaded no file of ${packageDir}`) }] },
      );
    },
  };
}

function notApplied(patch: DependencyPatch, packageDir: string, reason: string): string {
  const { packageName } = patch;
  const installed = readJson<{ version: string }>(path.join(packageDir, "package.json")).version;
  return (
    `The ${patch.name} patch of ${packageName} does not apply: ${reason}. It is written for ${packageName} ` +
    `${pinnedVersion(packageName)}, the version package.json pins; ${packageName} ${installed} is installed. Run ` +
    "`npm install` to install the pinned version; to move to another version, rewrite the patch for it in " +
    'scripts/lib/dependency-patches.ts and measure it again (docs/architecture.md, "Dependency patches").'
  );
}

type Pins = { [name: string]: string | Pins };

/** The version package.json pins `name` to: a dependency's, or an override's (under another package's, say). */
export function pinnedVersion(name: string): string | undefined {
  const manifest = readJson<{ dependencies: Pins; devDependencies: Pins; overrides?: Pins }>(
    path.join(root, "package.json"),
  );
  return (
    findPin(manifest.dependencies, name) ?? findPin(manifest.devDependencies, name) ?? findPin(manifest.overrides, name)
  );
}

function findPin(pins: Pins | undefined, name: string): string | undefined {
  for (const [key, value] of Object.entries(pins ?? {})) {
    const found = typeof value === "string" ? (key === name ? value : undefined) : findPin(value, name);
    if (found) return found;
  }
  return undefined;
}

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(file, "utf8")) as T;
}
