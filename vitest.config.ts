import { availableParallelism } from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

// Files that must have the machine and the database to themselves: one asserts how long another account waits behind
// a slow compile, the other that a due scheduled email is left for after() (any file's send would dispatch it).
const SERIAL = ["tests/render/user-code-off-thread.test.ts", "tests/send/background-work.test.ts"];

export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      // Outside React's server environment `server-only` throws on import by design.
      "server-only": path.resolve(import.meta.dirname, "tests/support/empty-module.ts"),
    },
  },
  test: {
    environment: "node",
    globalSetup: ["tests/support/global-setup.ts"],
    setupFiles: ["tests/support/setup.ts"],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // A file per core (Vitest's default leaves one core idle): a pass is CPU-bound, and more files at once only make
    // the timing-sensitive tests slower.
    maxWorkers: availableParallelism(),
    projects: [
      {
        extends: true,
        test: { name: "parallel", include: ["tests/*/**/*.test.{ts,tsx}"], exclude: ["tests/e2e/**", ...SERIAL] },
      },
      // After the others, one file at a time, on a database of their own (each project runs the global setup).
      { extends: true, test: { name: "serial", include: SERIAL, maxWorkers: 1, sequence: { groupOrder: 1 } } },
    ],
  },
});
