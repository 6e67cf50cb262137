// Manual use: `npx tsx --import ./scripts/server-only-hook.mjs tests/e2e/serve.ts` serves the built app on a fresh
// in-memory database (the e2e tests' setup), printing its URL, until Ctrl-C.
import { startTestApp } from "./app-server";

const app = await startTestApp();
console.log(`e2e app at ${app.baseUrl}`);
const stop = async () => {
  await app.stop();
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
