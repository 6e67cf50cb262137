import { readdirSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

// Files that must have the machine and the database to themselves: one asserts how long another account waits behind
// a slow compile, the others that a due scheduled email is left for after() or the outbox's schedule (any file's send
// would dispatch it).
const SERIAL = [
  "tests/render/user-code-off-thread.test.ts",
  "tests/send/background-work.test.ts",
  "tests/send/scheduled-outbox.test.ts",
];

// A file that replaces modules or touches the environment gets modules of its own; the others share their worker's
// (Vitest's isolate: false), which spares re-importing the app for each file and keeps the render workers warm between
// files: a fifth of a pass's CPU. Told apart by what they call, so a new file that mocks is isolated without a list.
// (Files that only read process.env stay isolated too: sharing put the sandbox's timing tests beside other files'
// warm workers, and they failed under load.)
const CHANGES_MODULES_OR_ENV = ["vi.mock(", "vi.doMock(", "vi.stubEnv(", "vi.stubGlobal(", "vi.spyOn(", "process.env"];
const testFiles = readdirSync("tests", { recursive: true, encoding: "utf8" })
  .map((file) => path.join("tests", file).split(path.sep).join("/"))
  .filter((file) => /\.test\.tsx?$/.test(file) && !SERIAL.includes(file));
const SHARING = testFiles.filter((file) => {
  const source = readFileSync(file, "utf8");
  return !CHANGES_MODULES_OR_ENV.some((call) => source.includes(call));
});

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
        test: { name: "isolated", include: testFiles.filter((file) => !SHARING.includes(file)) },
      },
      { extends: true, test: { name: "sharing", include: SHARING, isolate: false } },
      // After the others, one file at a time, on a database of their own (each project runs the global setup).
      { extends: true, test: { name: "serial", include: SERIAL, maxWorkers: 1, sequence: { groupOrder: 1 } } },
    ],
  },
});
