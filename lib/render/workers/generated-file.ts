import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Where a file made by scripts/build-sandbox-runtime.ts is: beside the module asking (`moduleUrl`, its
 * import.meta.url) or, when that module was bundled elsewhere (Next's .next/server chunks), at `projectPath` (the
 * file's path in the project, one string so a move rewrites it) under the working directory, where deployments trace
 * it (next.config.ts).
 */
export function generatedFilePath(projectPath: string, moduleUrl: string): string {
  const fileName = path.basename(projectPath);
  const candidates: string[] = [];
  if (moduleUrl.startsWith("file:")) candidates.push(path.join(path.dirname(fileURLToPath(moduleUrl)), fileName));
  // Not for the build's file tracer to follow (it would trace the whole project): next.config.ts lists these files.
  candidates.push(path.join(/* turbopackIgnore: true */ process.cwd(), projectPath));
  const found = candidates.find((candidate) => existsSync(/* turbopackIgnore: true */ candidate));
  if (!found) {
    throw new Error(
      `${fileName} not found (looked in ${candidates.join(", ")}). Run \`npx tsx scripts/build-sandbox-runtime.ts\`.`,
    );
  }
  return found;
}
