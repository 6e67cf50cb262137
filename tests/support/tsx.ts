import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ComponentType } from "react";
import { transform } from "sucrase";

let moduleCounter = 0;

/**
 * Compiles a TSX module the way a user's own build would and imports it — tests only, to compare against what the
 * API returns; the app never imports user code. Written under node_modules so its imports resolve.
 */
export async function importTsx(source: string): Promise<ComponentType<any>> {
  const { code } = transform(source, {
    transforms: ["typescript", "jsx", "imports"],
    jsxRuntime: "automatic",
    production: true,
  });
  const dir = path.join(process.cwd(), "node_modules", ".cache", "letterpress-tests");
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `module-${process.pid}-${moduleCounter++}.cjs`);
  await writeFile(file, code);
  const imported = await import(pathToFileURL(file).href);
  return (imported.default?.default ?? imported.default) as ComponentType<any>;
}

/** importTsx for a template of several files importing each other by relative path; `entry` is its default export. */
export async function importTsxFiles(files: Record<string, string>, entry: string): Promise<ComponentType<any>> {
  const dir = path.join(
    process.cwd(),
    "node_modules",
    ".cache",
    "letterpress-tests",
    `files-${process.pid}-${moduleCounter++}`,
  );
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, "package.json"), '{ "type": "commonjs" }');
  for (const [file, source] of Object.entries(files)) {
    const { code } = transform(source, {
      transforms: ["typescript", "jsx", "imports"],
      jsxRuntime: "automatic",
      production: true,
    });
    const target = path.join(dir, file.replace(/\.(tsx|ts|jsx)$/, ".js"));
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, code);
  }
  const imported = await import(pathToFileURL(path.join(dir, entry.replace(/\.(tsx|ts|jsx)$/, ".js"))).href);
  return (imported.default?.default ?? imported.default) as ComponentType<any>;
}
