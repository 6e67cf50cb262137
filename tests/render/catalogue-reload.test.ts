/**
 * `npm run dev` renders catalogue templates on the same workers and bundle as production: bin/serve.ts rebuilds the
 * bundle whenever emails/ change, and the catalogue pool, in development, replaces its workers when the file changes.
 * Here the pool is pointed at a copy of the bundle, which the test changes as the build does (whole, by renaming).
 */
import { copyFileSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it, vi } from "vitest";
import { getCatalogueEntry } from "@/lib/catalogue/catalogue";

const dir = mkdtempSync(path.join(os.tmpdir(), "catalogue-reload-"));
const bundle = vi.hoisted(() => ({ file: "" }));
vi.mock("@/lib/render/workers/generated-file", () => ({ generatedFilePath: () => bundle.file }));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("in development, renders with the catalogue worker's bundle as it is now, without a restart", async () => {
  bundle.file = path.join(dir, "catalogue-worker.generated.cjs");
  copyFileSync(path.join(import.meta.dirname, "../../lib/render/workers/catalogue-worker.generated.cjs"), bundle.file);
  vi.stubEnv("NODE_ENV", "development");
  const { renderCatalogueOffThread, stopCatalogueWorkers } = await import("@/lib/render/workers/catalogue-pool");
  const welcome = () =>
    renderCatalogueOffThread("dev", "welcome", getCatalogueEntry("welcome")!.variables.parse({}), false);
  try {
    expect((await welcome()).html).toContain("Complete your profile");
    const edited = readFileSync(bundle.file, "utf8").replace("Complete your profile", "Finish your profile");
    writeFileSync(`${bundle.file}.partial`, edited);
    renameSync(`${bundle.file}.partial`, bundle.file);
    await vi.waitFor(async () => expect((await welcome()).html).toContain("Finish your profile"), {
      timeout: 5_000,
      interval: 100,
    });
  } finally {
    vi.unstubAllEnvs();
    await stopCatalogueWorkers();
  }
});
