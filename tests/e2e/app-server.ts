import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { appendFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { resetConfig } from "@/lib/core/config";
import { closeDb } from "@/lib/db/client";
import { startEmbeddedDatabase } from "@/lib/db/embedded";
import { migrate } from "@/lib/db/migrate";
import { seedCatalogue } from "@/lib/catalogue/data/seed";

// The built app (`next start`) on a fresh in-memory embedded database, for the browser tests.

export type TestApp = {
  baseUrl: string;
  stop: () => Promise<void>;
  /** The server's output, kept in a file the tests read (e.g. the sign-up links it logs). */
  logFile: string;
};

const ROOT = path.resolve(import.meta.dirname, "..", "..");

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Builds the app when there is no build yet (or E2E_BUILD=1); `npm test` builds before it runs the e2e tests. */
export function ensureBuilt(): void {
  if (existsSync(path.join(ROOT, ".next", "BUILD_ID")) && process.env.E2E_BUILD !== "1") return;
  const result = spawnSync(
    process.execPath,
    [path.join(ROOT, "node_modules", "next", "dist", "bin", "next"), "build"],
    {
      cwd: ROOT,
      stdio: "inherit",
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
    },
  );
  if (result.status !== 0) throw new Error("next build failed");
}

/** Migrates the database at `url` and writes the catalogue into it. */
async function prepareDatabase(url: string): Promise<void> {
  const admin = postgres(url, { prepare: false, max: 1, onnotice: () => {} });
  await migrate(admin);
  await admin.end();
  const previousUrl = process.env.DATABASE_URL;
  process.env.DATABASE_URL = url;
  resetConfig();
  await seedCatalogue();
  await closeDb();
  if (previousUrl === undefined) delete process.env.DATABASE_URL;
  else process.env.DATABASE_URL = previousUrl;
  resetConfig();
}

export async function startTestApp(): Promise<TestApp> {
  ensureBuilt();
  const database = await startEmbeddedDatabase({ dataDir: "memory://", maxConnections: 32 });

  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    PORT: String(port),
    DATABASE_URL: database.url,
    SESSION_SECRET: randomBytes(32).toString("base64url"),
    SITE_URL: baseUrl,
    // A production server takes payments only through Stripe or when test mode is asked for; the tests buy in test mode.
    PAYMENTS_TEST_MODE: "1",
    // The webhook stories' endpoints are a receiver on 127.0.0.1, over http://.
    WEBHOOKS_ALLOW_PRIVATE_URLS: "1",
  };
  for (const name of [
    "NEXT_PUBLIC_SUPABASE_URL",
    "NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY",
    "NEXT_PUBLIC_SUPABASE_ANON_KEY",
    "RESEND_API_KEY",
    "SHARED_SENDING_DOMAIN",
    "VERCEL",
    "NEXT_PUBLIC_SITE_URL",
  ]) {
    delete env[name];
  }
  let output = "";
  const logDir = mkdtempSync(path.join(os.tmpdir(), "letterpress-e2e-"));
  const logFile = path.join(logDir, "app.log");
  const record = (chunk: Buffer) => {
    output += chunk.toString();
    appendFileSync(logFile, chunk);
    if (process.env.E2E_SHOW_LOGS === "1") process.stdout.write(chunk);
  };
  const child: ChildProcess = spawn(
    process.execPath,
    [
      path.join(ROOT, "node_modules", "next", "dist", "bin", "next"),
      "start",
      "-p",
      String(port),
      "-H",
      "127.0.0.1",
      // The tests' API clients keep connections open between calls. Node closes one idle for 5 s by default, and a
      // call sent on it as it closes fails with ECONNRESET (a busy machine widens that moment).
      "--keepAliveTimeout",
      "60000",
    ],
    {
      cwd: ROOT,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  child.stdout?.on("data", record);
  child.stderr?.on("data", record);

  const stop = async () => {
    if (child.exitCode === null) {
      child.kill("SIGTERM");
      await new Promise((resolve) => {
        const timer = setTimeout(() => {
          child.kill("SIGKILL");
          resolve(undefined);
        }, 5000);
        child.once("exit", () => {
          clearTimeout(timer);
          resolve(undefined);
        });
      });
    }
    await database.stop();
    rmSync(logDir, { recursive: true, force: true });
  };

  // The app boots while the database is migrated and seeded: nothing asks it anything before both are done.
  try {
    await prepareDatabase(database.url);
  } catch (error) {
    await stop();
    throw error;
  }
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) {
      await database.stop();
      rmSync(logDir, { recursive: true, force: true });
      throw new Error(`next start exited with ${child.exitCode}:\n${output}`);
    }
    try {
      const response = await fetch(`${baseUrl}/api/health`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`next start did not answer within 60 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { baseUrl, stop, logFile };
}
