import path from "node:path";
import { defineConfig } from "vitest/config";

const root = path.resolve(import.meta.dirname, "..", "..");

// Browser tests: `npm run test:e2e`. The built app on an in-memory embedded database, driven by playwright-core and
// Debian's Chromium (/usr/bin/chromium, or CHROMIUM_PATH).
export default defineConfig({
  resolve: {
    alias: {
      "@": root,
      "server-only": path.join(root, "tests/support/empty-module.ts"),
    },
  },
  test: {
    root,
    include: ["tests/e2e/**/*.e2e.ts"],
    environment: "node",
    globalSetup: ["tests/e2e/global-setup.ts"],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
});
