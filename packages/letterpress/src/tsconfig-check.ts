import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

/** A tsconfig.json under which tsc reads the declaration file, in a `"type": "module"` package (the client is ESM). */
export const MINIMAL_TSCONFIG = `{ "compilerOptions": { "module": "nodenext", "types": ["node"], "strict": true, "noEmit": true, "skipLibCheck": true } }`;

/**
 * The line to tell someone who ran `letterpress types` in `folder` when tsc would not read the file it wrote
 * (`written`, relative to `folder`): no tsconfig.json there, or one that leaves the file out. Undefined when tsc reads
 * it, or when that cannot be told: a project without TypeScript, or a tsconfig.json tsc itself refuses.
 */
export function tsconfigAdvice(folder: string, written: string): string | undefined {
  const tsconfig = path.join(folder, "tsconfig.json");
  if (!existsSync(tsconfig)) {
    return `No tsconfig.json here: for tsc to check send() and render() against ${written}, write one such as ${MINIMAL_TSCONFIG}`;
  }
  const config = resolvedConfig(tsconfig);
  if (!config) return undefined;
  const target = path.resolve(folder, written);
  if ((config.files ?? []).some((file) => path.resolve(folder, file) === target)) return undefined;
  const file = path.relative(folder, target).split(path.sep).join("/");
  const include = [...(config.include ?? []), file].map((entry) => JSON.stringify(entry)).join(", ");
  return `tsc does not read ${file}: in tsconfig.json, set "include": [${include}]`;
}

/**
 * The project's tsc's own reading of its tsconfig.json (`tsc --showConfig`, which TypeScript 5 and 7 both answer):
 * every file it reads, and its `include`. The project's TypeScript, not one of the client's: it has none.
 */
function resolvedConfig(tsconfig: string): { files?: string[]; include?: string[] } | undefined {
  let tsc: string;
  try {
    const manifestPath = createRequire(tsconfig).resolve("typescript/package.json");
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { bin: { tsc: string } };
    tsc = path.join(path.dirname(manifestPath), manifest.bin.tsc);
  } catch {
    return undefined; // no TypeScript installed: nothing to ask
  }
  const shown = spawnSync(process.execPath, [tsc, "--showConfig", "-p", tsconfig], { encoding: "utf8" });
  if (shown.status !== 0) return undefined; // tsc will say what is wrong with it itself
  try {
    return JSON.parse(shown.stdout);
  } catch {
    return undefined;
  }
}
