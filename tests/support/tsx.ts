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
  const dir = path.join(TESTS_DIR, `module-${process.pid}-${moduleCounter++}`);
  return importTsxFiles({ "email.tsx": source }, "email.tsx", dir);
}

/**
 * importTsx of a template of several files: each compiled on its own and written into one folder as `<path>.js`
 * (CommonJS), so the files' relative imports resolve to each other as in a user's build; the entry is imported.
 */
export async function importTsxFiles(
  files: Record<string, string>,
  entry: string,
  dir = path.join(TESTS_DIR, `files-${process.pid}-${moduleCounter++}`),
): Promise<ComponentType<any>> {
  for (const [file, source] of Object.entries(files)) {
    const { code } = transform(source, {
      // A .ts file is not JSX: `<string>x` there is a cast.
      transforms: file.endsWith("x") ? ["typescript", "jsx", "imports"] : ["typescript", "imports"],
      jsxRuntime: "automatic",
      production: true,
    });
    const target = path.join(dir, file.replace(/\.[jt]sx?$/, ".js"));
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, code);
  }
  await writeFile(path.join(dir, "package.json"), '{ "type": "commonjs" }');
  const imported = await import(pathToFileURL(path.join(dir, entry.replace(/\.[jt]sx?$/, ".js"))).href);
  return (imported.default?.default ?? imported.default) as ComponentType<any>;
}

const TESTS_DIR = path.join(process.cwd(), "node_modules", ".cache", "letterpress-tests");
