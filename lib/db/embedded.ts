import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { servePGlite } from "./pglite-server";

// The embedded default: PGlite (Postgres compiled to WASM) served over the Postgres wire protocol, so the app, the
// CLI and the tests all use the same postgres.js client as production. Only start scripts and tests import this.

export const DATA_DIR = path.join(process.cwd(), ".data");
const PGLITE_DIR = path.join(DATA_DIR, "pglite");
const LOCK_FILE = path.join(DATA_DIR, "embedded-db.json");

export type EmbeddedDatabase = {
  url: string;
  stop: () => Promise<void>;
  /** A copy of its files (PGlite's dumpDataDir), for another database to start from (`copyOf`). */
  copy: () => Promise<Blob>;
};
type Lock = { pid: number; port: number };

function urlFor(port: number): string {
  return `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
}

/**
 * Starts PGlite on `dataDir` (or in memory with "memory://") and serves it on 127.0.0.1.
 * `maxConnections` is how many client connections it accepts at once (see ./pglite-server.ts). `copyOf` starts it from
 * another's files instead of an empty cluster: the tests' throwaway databases skip initdb, most of PGlite's start.
 */
export async function startEmbeddedDatabase(
  opts: {
    dataDir?: string;
    port?: number;
    maxConnections?: number;
    writeLock?: boolean;
    copyOf?: Blob;
  } = {},
): Promise<EmbeddedDatabase> {
  const dataDir = opts.dataDir ?? PGLITE_DIR;
  const writeLock = opts.writeLock ?? dataDir === PGLITE_DIR;
  if (writeLock) {
    const holder = await findRunningEmbeddedDatabase();
    if (holder) {
      throw new Error(
        `The embedded database in .data/ is already open by process ${holder.pid}. Stop that process first, or set DATABASE_URL.`,
      );
    }
  }
  if (!dataDir.startsWith("memory://")) await mkdir(dataDir, { recursive: true });
  const db = await PGlite.create({ dataDir, loadDataDir: opts.copyOf });
  const server = await servePGlite(db, {
    host: "127.0.0.1",
    port: opts.port ?? 0,
    maxConnections: opts.maxConnections ?? 16,
  });
  if (writeLock) await writeFile(LOCK_FILE, JSON.stringify({ pid: process.pid, port: server.port } satisfies Lock));

  let stopped = false;
  return {
    url: urlFor(server.port),
    copy: () => db.dumpDataDir("none"),
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await server.close();
      // Closing PGlite flushes its files: skipping this is what corrupts a data directory.
      await db.close();
      if (writeLock) await rm(LOCK_FILE, { force: true });
    },
  };
}

/** The embedded database another process (say `npm run dev`) is serving right now, if any. */
export async function findRunningEmbeddedDatabase(): Promise<{ pid: number; url: string } | null> {
  let lock: Lock;
  try {
    lock = JSON.parse(await readFile(LOCK_FILE, "utf8")) as Lock;
  } catch {
    return null;
  }
  if (!isAlive(lock.pid) || !(await canConnect(lock.port))) {
    await rm(LOCK_FILE, { force: true });
    return null;
  }
  return { pid: lock.pid, url: urlFor(lock.port) };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    socket.setTimeout(1000);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
    socket.once("timeout", () => {
      socket.destroy();
      resolve(false);
    });
  });
}
