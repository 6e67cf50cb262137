import net from "node:net";
import type { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketHandler, type PGLiteSocketHandlerOptions } from "@electric-sql/pglite-socket";

// Serves one PGlite to several client connections over the Postgres wire protocol. PGlite is one backend session, so
// the connections take turns: a connection keeps PGlite from its first message until its request is complete (the
// Sync after the extended protocol's Parse/Bind/Describe/Execute, or a simple Query), and for as long as it has a
// transaction open. pglite-socket's public PGLiteSocketHandler reads each connection's messages; the turns are ours,
// because pglite-socket's own server takes the connections' messages one by one, so two connections' requests mix
// (tests/db/embedded-db.test.ts shows it still does).

export type PGliteServer = { port: number; close: () => Promise<void> };

/** Listens on `host`:`port` (0: a free port) and refuses connections beyond `maxConnections` with a Postgres error. */
export async function servePGlite(
  db: PGlite,
  opts: { host: string; port: number; maxConnections: number },
): Promise<PGliteServer> {
  const turns = new ConnectionTurns(db);
  const handlers = new Set<PGLiteSocketHandler>();
  const refused = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    if (handlers.size >= opts.maxConnections) {
      refused.add(socket);
      socket.on("close", () => refused.delete(socket));
      socket.on("error", () => socket.destroy());
      socket.end(tooManyConnections(opts.maxConnections));
      socket.resume(); // reads (and drops) what the client sends until it closes its end, which closes the socket
      return;
    }
    // The option is typed as pglite-socket's own queue class, whose private members let TypeScript accept no other
    // implementation; the handler calls only its public methods, which ConnectionTurns implements.
    const handler = new PGLiteSocketHandler({
      queryQueue: turns as unknown as PGLiteSocketHandlerOptions["queryQueue"],
      closeOnDetach: true,
    });
    handlers.add(handler);
    const forget = () => handlers.delete(handler);
    handler.addEventListener("close", forget);
    handler.addEventListener("error", forget);
    void handler.attach(socket);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  return {
    port: (server.address() as net.AddressInfo).port,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Each connection's unfinished work is rolled back before the caller closes PGlite.
      await Promise.all([...handlers].map((handler) => handler.detach(true)));
      handlers.clear();
      for (const socket of refused) socket.destroy();
      await closed;
    },
  };
}

/** A FATAL ErrorResponse with PostgreSQL's own code for it (53300), so clients report it as a database error. */
function tooManyConnections(max: number): Buffer {
  const fields = Buffer.from(
    `SFATAL\0VFATAL\0C53300\0Mtoo many connections to the embedded database (it accepts ${max} at once)\0\0`,
  );
  const header = Buffer.alloc(5);
  header.write("E");
  header.writeInt32BE(4 + fields.length, 1);
  return Buffer.concat([header, fields]);
}

type HandlerQueue = PGLiteSocketHandlerOptions["queryQueue"];

type Entry =
  | {
      kind: "message";
      connection: number;
      message: Uint8Array;
      onData: (data: Uint8Array) => void;
      resolve: (bytes: number) => void;
      reject: (error: unknown) => void;
    }
  | { kind: "leave"; connection: number; done: () => void };

/** First bytes of the messages after which the backend is ready for another request (0: the startup message). */
const ENDS_REQUEST = new Set([0x53 /* Sync */, 0x51 /* Query */, 0x46 /* FunctionCall */, 0x58 /* Terminate */, 0]);
const SYNC = new Uint8Array([0x53, 0, 0, 0, 4]);

/** PGlite's messages from every connection, in the order of the turns described at the top of this file. */
class ConnectionTurns implements Pick<HandlerQueue, keyof HandlerQueue> {
  private waiting: Entry[] = [];
  private draining = false;
  /** The connection whose turn it is, until its request ends and it has no transaction open. */
  private holder: number | null = null;
  private requestOpen = false;

  constructor(private readonly db: PGlite) {}

  enqueue(connection: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ kind: "message", connection, message, onData, resolve, reject });
      void this.drain();
    });
  }

  getQueueLength(): number {
    return this.waiting.length;
  }

  clearQueueForHandler(connection: number): void {
    this.waiting = this.waiting.filter((entry) => {
      if (entry.connection !== connection || entry.kind !== "message") return true;
      entry.reject(new Error("The connection closed"));
      return false;
    });
  }

  /** Called when a connection goes away: whatever it left unfinished is rolled back in its turn. */
  clearTransactionIfNeeded(connection: number): Promise<void> {
    return new Promise((done) => {
      this.waiting.push({ kind: "leave", connection, done });
      void this.drain();
    });
  }

  private async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    try {
      for (;;) {
        const index = this.holder === null ? 0 : this.waiting.findIndex((entry) => entry.connection === this.holder);
        // Nothing waiting, or the holder's next message has not arrived yet.
        if (index < 0 || index >= this.waiting.length) break;
        const [entry] = this.waiting.splice(index, 1);
        if (entry!.kind === "leave") await this.leave(entry!);
        else await this.serve(entry!);
      }
    } finally {
      this.draining = false;
    }
  }

  private async serve(entry: Extract<Entry, { kind: "message" }>): Promise<void> {
    this.holder = entry.connection;
    let bytes = 0;
    try {
      await this.execute(entry.message, (data) => {
        bytes += data.length;
        entry.onData(data);
      });
    } catch (error) {
      // PGlite failed on the message itself (an SQL error is an answer, not a failure): the handler closes the
      // connection, whose leave rolls back whatever state the message left, so the connection keeps its turn till then.
      this.requestOpen = true;
      entry.reject(error);
      return;
    }
    this.requestOpen = !ENDS_REQUEST.has(entry.message[0]!);
    if (!this.requestOpen && !this.db.isInTransaction()) this.holder = null;
    entry.resolve(bytes);
  }

  private async leave(entry: Extract<Entry, { kind: "leave" }>): Promise<void> {
    if (this.holder === entry.connection) {
      try {
        await this.rollBackUnfinished();
      } catch (error) {
        // Only PGlite itself failing gets here, and the connection it was for is gone: say so, and go on.
        console.error("The embedded database could not roll back a closed connection's work:", error);
      } finally {
        this.holder = null;
        this.requestOpen = false;
      }
    }
    entry.done();
  }

  /** As PostgreSQL does for a client that goes away: its request and transaction are rolled back, not committed. */
  private async rollBackUnfinished(): Promise<void> {
    if (this.requestOpen) {
      // Ends the request's implicit transaction; after an error in the request the backend ignores it until Sync.
      await this.db.exec("ROLLBACK");
      await this.execute(SYNC, () => {});
    }
    if (this.db.isInTransaction()) await this.db.exec("ROLLBACK");
  }

  private execute(message: Uint8Array, onRawData: (data: Uint8Array) => void): Promise<void> {
    return this.db.runExclusive(() => this.db.execProtocolRawStream(message, { onRawData }));
  }
}
