import { spawn } from "node:child_process";
import path from "node:path";
import { databaseUrlVariable } from "@/lib/core/config";
import { deliverScheduledOutboxEmails } from "@/lib/mail-transport/outbox";
import { connectDatabase, ensureLocalSessionSecret, prepareDatabase } from "./database";

// npm run dev / npm start: brings up the database (the embedded one when neither DATABASE_URL nor POSTGRES_URL is set),
// applies pending migrations, then runs Next as a child process and stops everything together on Ctrl-C. Meanwhile it
// sends the embedded outbox's scheduled emails when their time comes, which on Vercel the cron route and sends'
// after-response work do. Under `npm run dev` the catalogue render worker's bundle is rebuilt whenever emails/ change, and the render
// workers load it for the next render: development renders through the same workers and bundle as production.
//
// Nothing production needs may live only here: a deployment (`node server.js`, Vercel's functions) never runs this
// file. What it does, and where a deployment gets the same:
//   - migrations, and the catalogue into an empty database: `npm run db:migrate` and `npm run db:seed` (README,
//     "Deploying to Vercel with Supabase")
//   - the outbox's due scheduled emails, every second (deliverScheduledOutboxEmails → dispatchDueScheduledEmails): the
//     cron route /api/cron/dispatch-scheduled (dispatchScheduled), and the dispatch each send starts after answering
//   - a session secret generated into .data/, and the catalogue worker rebuilt on edits: local development only
// The other background duties (interrupted hand-offs, expired idempotency keys, held provider events, Stripe reports)
// run after requests and in the cron routes alike (README, "Background work"; tests/platform/cron.test.ts).
const mode = process.argv[2] === "start" ? "start" : "dev";
// Development's webhook endpoints are the developer's own servers (http://localhost:4000/hooks): there they may be.
if (mode === "dev") process.env.WEBHOOKS_ALLOW_PRIVATE_URLS ??= "1";
const port = process.env.PORT ?? "3000";
const log = (line: string) => console.log(`[letterpress] ${line}`);

const embedded = databaseUrlVariable(process.env) === null;
await ensureLocalSessionSecret();
const connection = await connectDatabase({ log });
if (connection.source === "embedded (shared with a running app)") {
  console.error("Another Letterpress app is already serving the embedded database in .data/. Stop it first.");
  process.exit(1);
}
try {
  await prepareDatabase({ alwaysSeed: embedded, log });
} catch (error) {
  console.error(`Could not prepare the database: ${(error as Error).message}`);
  await connection.close();
  process.exit(1);
}

// Imported only under dev: the build runs esbuild, a development dependency.
const stopWatching =
  mode === "dev" ? await (await import("../scripts/build-sandbox-runtime")).watchCatalogueWorker(log) : async () => {};
const stopOutboxSchedule = deliverScheduledOutboxEmails();

const next = spawn(process.execPath, [path.join("node_modules", "next", "dist", "bin", "next"), mode, "-p", port], {
  stdio: ["inherit", "pipe", "inherit"],
  env: { ...process.env, PORT: port },
});
let announced = false;
next.stdout.on("data", (chunk: Buffer) => {
  process.stdout.write(chunk);
  if (!announced && /Ready|started server|Local:/i.test(chunk.toString())) {
    announced = true;
    log(
      `Letterpress is running at http://localhost:${port} on the ${connection.source.startsWith("embedded") ? "embedded" : connection.source} database.`,
    );
    log("Get an API key (in another terminal):");
    log("  npm run -s admin -- user:create --email you@example.com --password 'choose-a-password'");
    log("  npm run -s admin -- key:create --email you@example.com");
    log(`Or sign up at http://localhost:${port}/signup and use Settings → API Keys.`);
    if (!process.env.RESEND_API_KEY?.trim())
      log("  (with no email provider, the link that finishes signing up is printed here)");
  }
});

let stopping = false;
async function stop(code: number) {
  if (stopping) return;
  stopping = true;
  if (next.exitCode === null) {
    next.kill("SIGTERM");
    await new Promise((resolve) => next.once("exit", resolve));
  }
  await stopWatching();
  await stopOutboxSchedule();
  await connection.close();
  process.exit(code);
}
process.on("SIGINT", () => void stop(0));
process.on("SIGTERM", () => void stop(0));
next.on("exit", (code) => void stop(code ?? 0));
