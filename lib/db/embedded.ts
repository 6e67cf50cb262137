import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";

// The embedded default: PGlite (Postgres compiled to WASM) served over the Postgres wire protocol, so the app, the
// CLI and the tests all use the same postgres.js client as production. Only start scripts and tests import this.

export const DATA_DIR = path.join(process.cwd(), ".data");
const PGLITE_DIR = path.join(DATA_DIR, "pglite");
const LOCK_FILE = path.join(DATA_DIR, "embedded-db.json");

export type EmbeddedDatabase = { url: string; stop: () => Promise<void> };
type Lock = { pid: number; port: number };

function urlFor(port: number): string {
  return `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
}

/**
 * Starts PGlite on `dataDir` (or in memory with "memory://") and serves it on 127.0.0.1.
 * `maxConnections` is how many client connections the multiplexer accepts at once.
 */
export async function startEmbeddedDatabase(
  opts: {
    dataDir?: string;
    port?: number;
    maxConnections?: number;
    writeLock?: boolean;
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
  const db = await PGlite.create(dataDir);
  const server = new PGLiteSocketServer({
    db,
    host: "127.0.0.1",
    port: opts.port ?? 0,
    maxConnections: opts.maxConnections ?? 16,
  });
  keepProtocolSequencesTogether(server);
  await server.start();
  // The server records the port the OS assigned when asked for port 0.
  const port = (server as unknown as { port: number }).port;
  if (writeLock) await writeFile(LOCK_FILE, JSON.stringify({ pid: process.pid, port } satisfies Lock));

  let stopped = false;
  return {
    url: urlFor(port),
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await server.stop();
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

type QueuedMessage = {
  handlerId: number;
  message: Uint8Array;
  resolve: (bytes: number) => void;
  reject: (error: unknown) => void;
  onData: (data: Uint8Array) => void;
};
type QueryQueue = {
  queue: QueuedMessage[];
  processing: boolean;
  lastHandlerId: number | null;
  db: PGlite;
  processQueue: () => Promise<void>;
  clearTransactionIfNeeded: (handlerId: number) => Promise<void>;
};

const SYNC = 0x53; // 'S'
const SIMPLE_QUERY = 0x51; // 'Q'
const TERMINATE = 0x58; // 'X'

/**
 * pglite-socket 0.2 multiplexes connections message by message, pinning a connection only while a transaction is
 * open. postgres.js sends every parameterised query as Parse/Bind/Describe/Execute/Sync, so two connections'
 * messages interleave and Bind meets the other connection's Parse ("bind message supplies 2 parameters, but prepared
 * statement requires 0"). This keeps one connection's extended-protocol sequence together until its Sync, and also
 * fixes the upstream queue stalling for good after a failed message.
 */
function keepProtocolSequencesTogether(server: PGLiteSocketServer): void {
  const queue = (server as unknown as { queryQueue: QueryQueue }).queryQueue;
  let sequenceOpen = false;

  queue.processQueue = async function processQueue(this: QueryQueue) {
    if (this.processing || this.queue.length === 0) return;
    this.processing = true;
    try {
      while (this.queue.length > 0) {
        const pinned = this.lastHandlerId !== null && (sequenceOpen || this.db.isInTransaction());
        const index = pinned ? this.queue.findIndex((item) => item.handlerId === this.lastHandlerId) : 0;
        if (index === -1) break; // wait for the pinned connection's next message
        const [item] = this.queue.splice(index, 1);
        let bytes = 0;
        try {
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(item.message, {
              onRawData: (data: Uint8Array) => {
                bytes += data.length;
                item.onData(data);
              },
            }),
          );
        } catch (error) {
          sequenceOpen = false;
          item.reject(error);
          continue;
        }
        const type = item.message[0];
        sequenceOpen = !(type === SYNC || type === SIMPLE_QUERY || type === TERMINATE || type === 0);
        this.lastHandlerId = item.handlerId;
        item.resolve(bytes);
      }
    } finally {
      this.processing = false;
    }
  }.bind(queue);

  const clearTransaction = queue.clearTransactionIfNeeded.bind(queue);
  queue.clearTransactionIfNeeded = async (handlerId: number) => {
    if (queue.lastHandlerId === handlerId) sequenceOpen = false;
    await clearTransaction(handlerId);
    await queue.processQueue();
  };
}
