import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { resetConfig } from "@/lib/core/config";
import { startEmbeddedDatabase } from "@/lib/db/embedded";
import {
  findPostgresBinDir,
  startThrowawayPostgres,
  stopThrowawayPostgresSync,
  type ThrowawayPostgres,
} from "../pg-throwaway";
import { log } from "./report";

// What the bench measures against: the built app under `next start`, on a database of its own.

/** What to stop before the bench exits, last started first. */
export type Cleanups = (() => Promise<void> | void)[];

export async function ensureBuild(): Promise<void> {
  if (existsSync(path.join(".next", "BUILD_ID"))) return;
  log("No build found (.next/BUILD_ID): running npm run build first (with the standalone server, for cold_start)…");
  const code = await new Promise<number | null>((resolve) => {
    spawn("npm", ["run", "build"], { stdio: "inherit", env: { ...process.env, LETTERPRESS_STANDALONE: "1" } }).once(
      "exit",
      resolve,
    );
  });
  if (code !== 0) throw new Error(`npm run build failed (exit ${code})`);
}

/** Points process.env.DATABASE_URL at the bench's database and says which one it is. */
export async function startDatabase(cleanups: Cleanups, forceEmbedded: boolean): Promise<string> {
  if (process.env.DATABASE_URL && !forceEmbedded) return "DATABASE_URL (given)";
  if (!forceEmbedded && findPostgresBinDir()) {
    const pg: ThrowawayPostgres = await startThrowawayPostgres();
    cleanups.push(() => pg.stop());
    process.on("exit", () => stopThrowawayPostgresSync(pg));
    process.env.DATABASE_URL = pg.url;
    resetConfig();
    return `throwaway ${pg.version} cluster (${pg.url})`;
  }
  const child = spawn(process.execPath, [...process.execArgv, process.argv[1], "--serve-embedded"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  cleanups.push(() => stopChild(child));
  process.on("exit", () => child.kill("SIGKILL"));
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /^URL (\S+)$/m.exec(out);
      if (match) resolve(match[1]);
    });
    child.once("exit", (code) => reject(new Error(`the embedded database exited early (${code})`)));
  });
  process.env.DATABASE_URL = url;
  resetConfig();
  const why = forceEmbedded ? "--embedded" : "no PostgreSQL server binaries found; DATABASE_URL unset";
  return `embedded PGlite, in memory, in a child process (${why}) at ${url}`;
}

/** `next start`, and its output so far (the server's log, for the errors behind a 5xx). */
export async function startNext(
  port: number,
  cleanups: Cleanups,
  cpuProfileDir?: string,
): Promise<{ child: ChildProcess; output: () => string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production", PORT: String(port) };
  delete env.RESEND_API_KEY; // sends go to the embedded outbox, never to a real provider
  // The webhooks scenarios' receivers listen on 127.0.0.1, which a deployment refuses.
  env.WEBHOOKS_ALLOW_PRIVATE_URLS = "1";
  // One connection that pipelines every query is what the targets were measured with (docs/performance.md).
  env.DATABASE_POOL_SIZE ??= "1";
  const profiling = cpuProfileDir ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(cpuProfileDir)}`] : [];
  const child = spawn(
    process.execPath,
    [...profiling, path.join("node_modules", "next", "dist", "bin", "next"), "start", "-p", String(port)],
    {
      env,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => void (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => void (output += chunk.toString()));
  cleanups.push(() => stopChild(child));
  process.on("exit", () => child.kill("SIGKILL"));

  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`next start exited (${child.exitCode}):\n${output}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (response.ok) return { child, output: () => output };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`next start did not answer /api/health within 60 s:\n${output}`);
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
  await exited;
  clearTimeout(timer);
}

/**
 * The child startDatabase spawns: serves an in-memory embedded database until SIGTERM, so PGlite does not share a core
 * with autocannon.
 */
export async function serveEmbeddedDatabase(): Promise<void> {
  const db = await startEmbeddedDatabase({ dataDir: "memory://", maxConnections: 32, writeLock: false });
  console.log(`URL ${db.url}`);
  const stop = () => void db.stop().then(() => process.exit(0));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  setInterval(() => {}, 1 << 30);
}
