import { existsSync } from "node:fs";
import { defineConfig } from "@playwright/test";

// Browser tests: `npm run test:e2e`, or one file: `npx playwright test tests/e2e/emails.e2e.ts`. A file per page or
// area, each a story told in order in one page by an account it signs up for itself (the tour's parts are shared by
// both workers, each in an account of its own; docs/architecture.md, "Browser tests"). tests/e2e/serve.ts serves the built app on a fresh in-memory embedded database and prints its address and
// the file its output goes to; the tests read both from the environment (the sign-up links the app logs are in that
// file). E2E_SHOW_LOGS=1 shows the app's output too; a failed test leaves its trace, a screenshot and the page's
// accessibility tree under test-results/ (`npx playwright show-trace <file>`; `--trace on` records every test's DOM
// too).
export default defineConfig({
  testDir: "tests/e2e",
  testMatch: "*.e2e.ts",
  outputDir: "test-results",
  // One app and one database for the run, which two files at a time share (each in an account of its own): the app
  // and the browsers keep two cores busy.
  workers: 2,
  retries: 0,
  forbidOnly: !!process.env.CI,
  timeout: 60_000,
  reporter: [["list"], ["./tests/e2e/failure-causes.ts"]],
  use: {
    browserName: "chromium",
    // Debian's Chromium: Playwright's own browser download does not work here. Its headless shell, as Playwright's own
    // headless default, when installed: the full browser spent a fifth more of the run (63 s against 79 s).
    launchOptions: {
      executablePath:
        process.env.CHROMIUM_PATH ??
        ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"].find((path) => existsSync(path)) ??
        "/usr/bin/chromium",
      args: ["--disable-gpu"],
    },
    // Every test records a trace, kept when it fails: its actions, network and console. The DOM snapshots and the
    // screencast would double the browsers' work (a third longer run); `screenshot` keeps the failing page's look.
    trace: { mode: "retain-on-failure", snapshots: false, screenshots: false },
    screenshot: "only-on-failure",
  },
  webServer: {
    command: "node_modules/.bin/tsx --import ./bin/server-only-hook.mjs tests/e2e/serve.ts",
    wait: { stdout: /e2e app at (?<E2E_BASE_URL>\S+) logging to (?<E2E_APP_LOG>\S+)\n/ },
    // Builds first when there is no build yet.
    timeout: 180_000,
    gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
    stdout: process.env.E2E_SHOW_LOGS === "1" ? "pipe" : "ignore",
  },
});
