import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { build, type BuildFailure, type Plugin } from "esbuild";
import { describe, expect, it } from "vitest";
import {
  applyDependencyPatch,
  pinnedVersion,
  REACT_DOM_DIR,
  reactDomServerPlugin,
  SELECTOR_MERGE_PATCH,
  SELECTOR_PLUGIN_DIR,
  selectorMergePlugin,
  STRING_CHUNK_PATCH,
} from "@/scripts/lib/dependency-patches";

const REACT_DOM_FILE = path.join(REACT_DOM_DIR, "cjs/react-dom-server.browser.production.js");
const SELECTOR_PLUGIN_FILE = path.join(SELECTOR_PLUGIN_DIR, "lib/hp2-builder.mjs");

const WHAT_TO_DO =
  "Run `npm install` to install the pinned version; to move to another version, rewrite the patch for it in " +
  'scripts/lib/dependency-patches.ts and measure it again (docs/architecture.md, "Dependency patches").';

function thrown(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  return "nothing thrown";
}

/** The errors of an esbuild build of `entry` (a file) with `plugin`, or [] when it succeeds. */
async function buildErrors(plugin: Plugin, entry: { file: string } | { code: string }): Promise<string[]> {
  const input =
    "file" in entry ? { entryPoints: [entry.file] } : { stdin: { contents: entry.code, loader: "js" as const } };
  try {
    await build({ ...input, bundle: true, write: false, logLevel: "silent", plugins: [plugin] });
    return [];
  } catch (error) {
    return (error as BuildFailure).errors.map((e) => e.text);
  }
}

/** A stand-in for an installed package: its package.json and one file. */
function fakePackage(name: string, version: string, file: string, contents: string): string {
  const dir = path.join(mkdtempSync(path.join(os.tmpdir(), "letterpress-patch-")), "node_modules", name);
  mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name, version }));
  writeFileSync(path.join(dir, file), contents);
  return dir;
}

describe("dependency patches (scripts/lib/dependency-patches.ts)", () => {
  it("are written for the exact versions package.json pins, as are the packages whose behaviour the renderers copy", () => {
    const installed = (dir: string) =>
      JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as {
        version: string;
        dependencies: Record<string, string>;
      };
    const components = installed("node_modules/@react-email/components");
    expect({
      "react-dom": pinnedVersion("react-dom"),
      react: pinnedVersion("react"),
      "@selderee/plugin-htmlparser2": pinnedVersion("@selderee/plugin-htmlparser2"),
      "@react-email/components": pinnedVersion("@react-email/components"),
      "@react-email/render": pinnedVersion("@react-email/render"),
      // Brought by @react-email/components, which pins it.
      "@react-email/tailwind": components.dependencies["@react-email/tailwind"],
    }).toEqual({
      "react-dom": installed(REACT_DOM_DIR).version,
      react: installed(REACT_DOM_DIR).version,
      "@selderee/plugin-htmlparser2": installed(SELECTOR_PLUGIN_DIR).version,
      "@react-email/components": components.version,
      "@react-email/render": installed("node_modules/@react-email/render").version,
      "@react-email/tailwind": installed("node_modules/@react-email/tailwind").version,
    });
  });

  it("apply to the pinned packages: every snippet is replaced", () => {
    for (const [patch, dir, file] of [
      [STRING_CHUNK_PATCH, REACT_DOM_DIR, REACT_DOM_FILE],
      [SELECTOR_MERGE_PATCH, SELECTOR_PLUGIN_DIR, SELECTOR_PLUGIN_FILE],
    ] as const) {
      const patched = applyDependencyPatch(patch, readFileSync(file, "utf8"), dir, file);
      for (const { original, replacement } of patch.snippets) {
        expect(patched.includes(original), patch.name).toBe(false);
        expect(patched.includes(replacement), patch.name).toBe(true);
      }
    }
  });

  it("fail, naming the package, its pinned version and what to do, when a snippet is missing or there twice", () => {
    const source = readFileSync(REACT_DOM_FILE, "utf8");
    const second = STRING_CHUNK_PATCH.snippets[1]!.original;
    const version = pinnedVersion("react-dom");
    const failure = (found: string) =>
      `The string-chunk patch of react-dom does not apply: its snippet 2 of 3 is ${found} in ` +
      `cjs/react-dom-server.browser.production.js. It is written for react-dom ${version}, the version package.json ` +
      `pins; react-dom ${version} is installed. ${WHAT_TO_DO}`;
    expect({
      missing: thrown(() =>
        applyDependencyPatch(STRING_CHUNK_PATCH, source.replace(second, ""), REACT_DOM_DIR, REACT_DOM_FILE),
      ),
      twice: thrown(() =>
        applyDependencyPatch(STRING_CHUNK_PATCH, `${source}\n${second}`, REACT_DOM_DIR, REACT_DOM_FILE),
      ),
    }).toEqual({ missing: failure("0 times, not once,"), twice: failure("2 times, not once,") });
  });

  it("fail the build when react-dom's server build has changed", async () => {
    const file = "cjs/react-dom-server.browser.production.js";
    const dir = fakePackage("react-dom", "19.4.0", file, "module.exports = {};\n");
    expect(await buildErrors(reactDomServerPlugin(dir), { code: `import "react-dom/server";` })).toEqual([
      `The string-chunk patch of react-dom does not apply: its snippet 1 of 3 is 0 times, not once, in ${file}. ` +
        `It is written for react-dom ${pinnedVersion("react-dom")}, the version package.json pins; react-dom 19.4.0 ` +
        `is installed. ${WHAT_TO_DO}`,
    ]);
  });

  it("fail the build when the selector plugin has changed, or when the build never loads it", async () => {
    const file = "lib/hp2-builder.mjs";
    const dir = fakePackage("@selderee/plugin-htmlparser2", "0.13.0", file, "export const hp2Builder = 1;\n");
    const pinned = pinnedVersion("@selderee/plugin-htmlparser2");
    expect({
      changed: await buildErrors(selectorMergePlugin(dir), { file: path.join(dir, file) }),
      neverLoaded: await buildErrors(selectorMergePlugin(dir), { code: "export default 1;" }),
    }).toEqual({
      changed: [
        `The selector-merge patch of @selderee/plugin-htmlparser2 does not apply: its snippet 1 of 1 is 0 times, ` +
          `not once, in ${file}. It is written for @selderee/plugin-htmlparser2 ${pinned}, the version package.json ` +
          `pins; @selderee/plugin-htmlparser2 0.13.0 is installed. ${WHAT_TO_DO}`,
      ],
      neverLoaded: [
        `The selector-merge patch of @selderee/plugin-htmlparser2 does not apply: the build loaded no file of ` +
          `${dir}. It is written for @selderee/plugin-htmlparser2 ${pinned}, the version package.json pins; ` +
          `@selderee/plugin-htmlparser2 0.13.0 is installed. ${WHAT_TO_DO}`,
      ],
    });
  });
});
