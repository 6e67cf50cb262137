// The browser tests' app (playwright.config.ts starts it), or by hand:
// `npx tsx --import ./bin/server-only-hook.mjs tests/e2e/serve.ts` serves the built app on a fresh in-memory
// database, printing its URL, until Ctrl-C.
import { startTestApp } from "./app-server";

const app = await startTestApp();
console.log(`e2e app at ${app.baseUrl} logging to ${app.logFile}`);
// Once: the signal reaches this process both directly and through tsx's parent process.
let stopping: Promise<void> | undefined;
const stop = () => {
  stopping ??= app.stop().then(() => process.exit(0));
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
