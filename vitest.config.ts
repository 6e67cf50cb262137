import { readdirSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

// Files that must have the machine to themselves: they assert how long another account waits behind slow compiles,
// renders and the largest JSON bodies.
const SERIAL = [
  "tests/render/user-code-off-thread.test.ts",
  "tests/render/noisy-neighbour.test.ts",
  "tests/api/json-body-isolation.test.ts",
];
// Files that must have a database to themselves: they assert that a due scheduled email is left for after() or the
// outbox's schedule (any other file's send would dispatch it), or claim every due webhook delivery at a clock of
// their own.
const OWN_DATABASE = [
  "tests/sending/background-work.test.ts",
  "tests/sending/scheduled-outbox.test.ts",
  "tests/webhooks/delivery.test.ts",
];

// A file that replaces modules or changes the environment gets modules of its own; the others share their worker's
// (Vitest's isolate: false), which spares re-importing the app for each file and keeps the render workers warm between
// files: a fifth of a pass's CPU. Told apart by what they call, so a new file that mocks is isolated without a list.
const CHANGES_MODULES = ["vi.mock(", "vi.doMock(", "vi.stubEnv(", "vi.stubGlobal(", "vi.spyOn("];
// The names are tests/support/env.ts's, which change it for a file, a describe block or a test.
const CHANGES_ENV =
  /delete process\.env|process\.env(\.\w+|\[[^\]]+\])\s*=[^=]|\b(setEnv|setTestEnv|envForSuite|envForEachTest|withEnv)\(/;
// Files that time the sandbox's renders: sharing put them beside other files' warm workers, and they failed under load.
const TIMES_THE_SANDBOX = ["tests/render/sandbox.test.ts", "tests/render/render-user.test.ts"];
const testFiles = readdirSync("tests", { recursive: true, encoding: "utf8" })
  .map((file) => path.join("tests", file).split(path.sep).join("/"))
  .filter((file) => /\.test\.tsx?$/.test(file) && !SERIAL.includes(file) && !OWN_DATABASE.includes(file));
const SHARING = testFiles.filter((file) => {
  const source = readFileSync(file, "utf8");
  return (
    !TIMES_THE_SANDBOX.includes(file) &&
    !CHANGES_MODULES.some((call) => source.includes(call)) &&
    !CHANGES_ENV.test(source)
  );
});

const globalSetup = ["tests/support/global-setup.ts"];

export default defineConfig({
  resolve: {
    alias: {
      "@": path.resolve(import.meta.dirname),
      // As tsconfig.json's paths: the typed client's source.
      letterpress: path.resolve(import.meta.dirname, "packages/letterpress/src/index.ts"),
      // Outside React's server environment `server-only` throws on import by design.
      "server-only": path.resolve(import.meta.dirname, "tests/support/empty-module.ts"),
    },
  },
  test: {
    environment: "node",
    setupFiles: ["tests/support/setup.ts"],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // A file per core (Vitest's default leaves one core idle): a pass is CPU-bound, and more files at once only make
    // the timing-sensitive tests slower.
    maxWorkers: availableParallelism(),
    // Each project has a database of its own, from its global setup (given to the projects, not the root, which would
    // make one more that no test uses).
    projects: [
      {
        extends: true,
        test: { name: "isolated", globalSetup, include: testFiles.filter((file) => !SHARING.includes(file)) },
      },
      { extends: true, test: { name: "sharing", globalSetup, include: SHARING, isolate: false } },
      // A project, so a database, for each (as the isolated files, with which they run).
      ...OWN_DATABASE.map((file) => ({
        extends: true as const,
        test: { name: `own database: ${path.basename(file, ".test.ts")}`, globalSetup, include: [file] },
      })),
      // After the others, one file at a time, on a database of their own.
      {
        extends: true,
        test: { name: "serial", globalSetup, include: SERIAL, maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
