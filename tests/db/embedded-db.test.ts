import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmbeddedDatabase, type EmbeddedDatabase } from "@/lib/db/embedded";
import { servePGlite } from "@/lib/db/pglite-server";

// The embedded default serves PGlite over the wire protocol to several connections at once. These prove that
// parameterised queries and transactions from concurrent connections do not interleave, that a connection leaving or
// failing mid-request leaves nothing behind, and that a stopped database reopens intact.

const urlOf = (port: number) => `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;

/**
 * Two connections sending parameterised queries of two shapes (one and two parameters) and transactions at once:
 * the answers that are not the query's own (an error, someone else's row, or none within 5 s).
 */
async function wrongAnswersOfTwoConnections(url: string): Promise<string[]> {
  const sql = postgres(url, { prepare: false, max: 2, onnotice: () => {} });
  const ask = async (i: number): Promise<unknown> => {
    if (i % 10 === 0) return sql.begin(async (tx) => (await tx`select ${i}::int as n`)[0]);
    if (i % 2) return (await sql`select ${i}::int as n`)[0];
    return (await sql`select ${i}::int as n, ${`v${i}`}::text as s`)[0];
  };
  const expected = (i: number) => (i % 2 ? { n: i } : i % 10 === 0 ? { n: i } : { n: i, s: `v${i}` });
  const wrong: string[] = [];
  try {
    await Promise.all(
      Array.from({ length: 200 }, async (_, i) => {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const late = new Promise((resolve) => (timer = setTimeout(() => resolve("no answer"), 5000)));
        const answer = await Promise.race([ask(i).catch((error: Error) => error.message), late]);
        clearTimeout(timer);
        if (JSON.stringify(answer) !== JSON.stringify(expected(i))) wrong.push(JSON.stringify(answer));
      }),
    );
  } finally {
    await sql.end({ timeout: 0 });
  }
  return wrong;
}

// The files of a new, empty cluster: the file's other databases start from them, skipping initdb (most of a second
// each), as the suite's databases do (lib/db/embedded.ts, copyOf).
let emptyCluster: Blob;

describe("embedded database", () => {
  let db: EmbeddedDatabase;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "letterpress-pglite-"));
    db = await startEmbeddedDatabase({ dataDir: path.join(dir, "data"), maxConnections: 10, writeLock: false });
    emptyCluster = await db.copy();
  });

  afterAll(async () => {
    await db.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it("answers 500 concurrent parameterised queries from 10 connections, each with its own parameters", async () => {
    const sql = postgres(db.url, { prepare: false, max: 10, onnotice: () => {} });
    try {
      const results = await Promise.all(
        Array.from(
          { length: 500 },
          (_, i) => sql<{ n: number; s: string }[]>`select ${i}::int as n, ${"v" + i}::text as s`,
        ),
      );
      results.forEach(([row], i) => expect(row).toEqual({ n: i, s: `v${i}` }));
    } finally {
      await sql.end();
    }
  });

  it("keeps concurrent transactions apart: 200 read-modify-write transactions lose no update", async () => {
    const sql = postgres(db.url, { prepare: false, max: 10, onnotice: () => {} });
    try {
      await sql`create table if not exists counter (id int primary key, n int not null)`;
      await sql`insert into counter values (1, 0) on conflict (id) do update set n = 0`;
      await Promise.all(
        Array.from({ length: 200 }, () =>
          sql.begin(async (tx) => {
            const [row] = await tx<{ n: number }[]>`select n from counter where id = 1 for update`;
            await tx`update counter set n = ${row.n + 1} where id = 1`;
          }),
        ),
      );
      const [row] = await sql`select n from counter where id = 1`;
      expect(row.n).toBe(200);
    } finally {
      await sql.end();
    }
  });

  it("a failed statement in one connection does not stall the others", async () => {
    const sql = postgres(db.url, { prepare: false, max: 4, onnotice: () => {} });
    try {
      const outcomes = await Promise.allSettled([
        sql`select 1/0`,
        ...Array.from({ length: 20 }, (_, i) => sql`select ${i}::int as n`),
        sql.begin(async (tx) => {
          await tx`select 1`;
          throw new Error("rolled back on purpose");
        }),
      ]);
      expect(outcomes[0].status).toBe("rejected");
      expect(outcomes.slice(1, 21).every((o) => o.status === "fulfilled")).toBe(true);
      expect(outcomes[21].status).toBe("rejected");
      const [row] = await sql`select 42 as answer`;
      expect(row.answer).toBe(42);
    } finally {
      await sql.end();
    }
  });

  it("keeps two connections' parameterised queries of different shapes and their transactions apart", async () => {
    expect(await wrongAnswersOfTwoConnections(db.url)).toEqual([]);
  });

  it("refuses a connection beyond maxConnections with PostgreSQL's too-many-connections error", async () => {
    const small = await startEmbeddedDatabase({
      dataDir: "memory://",
      maxConnections: 1,
      writeLock: false,
      copyOf: emptyCluster,
    });
    const first = postgres(small.url, { prepare: false, max: 1, onnotice: () => {} });
    const second = postgres(small.url, { prepare: false, max: 1, onnotice: () => {} });
    try {
      await first`select 1`;
      const refused = await second`select 1`.then(
        () => "connected",
        (error: postgres.PostgresError) => ({ code: error.code, severity: error.severity, message: error.message }),
      );
      expect({ refused, firstStillAnswers: await first`select 2 as n` }).toEqual({
        refused: {
          code: "53300",
          severity: "FATAL",
          message: "too many connections to the embedded database (it accepts 1 at once)",
        },
        firstStillAnswers: [{ n: 2 }],
      });
      // The place is free again once the first connection has gone.
      await first.end();
      let answer: unknown = null;
      for (let attempt = 0; attempt < 40 && answer === null; attempt++) {
        answer = await second`select 3 as n`.catch(() => new Promise((resolve) => setTimeout(() => resolve(null), 50)));
      }
      expect(answer).toEqual([{ n: 3 }]);
    } finally {
      await Promise.all([first.end(), second.end()]);
      await small.stop();
    }
  });

  it("rolls back what a connection leaves unfinished: its insert does not go in with the next connection's request", async () => {
    const sql = postgres(db.url, { prepare: false, max: 1, onnotice: () => {} });
    try {
      await sql`create table left_behind (v text)`;
      const raw = await rawSession(new URL(db.url).port);
      raw.send(parse("insert into left_behind values ('unfinished')"), bind(), execute());
      await raw.until("C"); // executed, but never synced
      raw.socket.destroy();
      await sql`insert into left_behind values (${"finished"})`;
      expect(await sql`select v from left_behind`).toEqual([{ v: "finished" }]);
    } finally {
      await sql.end();
    }
  });

  it("answers the next connection after one leaves with an error in its unfinished request", async () => {
    const sql = postgres(db.url, { prepare: false, max: 1, onnotice: () => {} });
    try {
      await sql`select 1`; // connected already: a new connection's startup would clear the error state anyway
      const raw = await rawSession(new URL(db.url).port);
      raw.send(parse("select no_such_column"), bind());
      await raw.until("E");
      raw.socket.destroy();
      expect(await sql`select ${"answered"}::text as v`).toEqual([{ v: "answered" }]);
    } finally {
      await sql.end();
    }
  });

  it("a message PGlite itself fails on closes that connection only; the others go on", async () => {
    const pglite = await PGlite.create("memory://", { loadDataDir: emptyCluster });
    const execute = pglite.execProtocolRawStream.bind(pglite);
    pglite.execProtocolRawStream = async (message, options) => {
      if (Buffer.from(message).includes("PGlite fails on this")) throw new Error("PGlite failed");
      return execute(message, options);
    };
    const server = await servePGlite(pglite, { host: "127.0.0.1", port: 0, maxConnections: 4 });
    const sql = postgres(urlOf(server.port), { prepare: false, max: 2, onnotice: () => {} });
    try {
      const [failed, ...others] = await Promise.allSettled([
        sql`select ${"x"}::text as "PGlite fails on this"`,
        ...Array.from({ length: 20 }, (_, i) => sql`select ${i}::int as n`),
      ]);
      expect({
        failed: failed!.status,
        others: others.map((outcome) => (outcome.status === "fulfilled" ? outcome.value[0] : outcome.reason)),
        after: await sql`select ${"still answers"}::text as v`,
      }).toEqual({
        failed: "rejected",
        others: Array.from({ length: 20 }, (_, i) => ({ n: i })),
        after: [{ v: "still answers" }],
      });
    } finally {
      await sql.end();
      await server.close();
      await pglite.close();
    }
  });

  it("stops cleanly and reopens with its data", async () => {
    const dataDir = path.join(dir, "reopen");
    const first = await startEmbeddedDatabase({ dataDir, writeLock: false, copyOf: emptyCluster });
    const sql = postgres(first.url, { prepare: false, max: 2, onnotice: () => {} });
    await sql`create table kept (v text)`;
    await sql`insert into kept values ('survives a restart')`;
    await sql.end();
    await first.stop();

    const started = Date.now();
    const second = await startEmbeddedDatabase({ dataDir, writeLock: false });
    const reopenMs = Date.now() - started;
    const again = postgres(second.url, { prepare: false, max: 1, onnotice: () => {} });
    try {
      expect(await again`select v from kept`).toEqual([{ v: "survives a restart" }]);
      expect(reopenMs).toBeLessThan(15_000);
    } finally {
      await again.end();
      await second.stop();
    }
  });
});

// pglite-socket's own server, which lib/db/pglite-server.ts replaces: this fails once a release of pglite-socket keeps
// each connection's requests together (upstream issue electric-sql/pglite#1046); then servePGlite can give way to it.
describe("@electric-sql/pglite-socket's own PGLiteSocketServer (why lib/db/pglite-server.ts exists)", () => {
  it("still mixes two connections' parameterised queries, so they get errors or each other's rows", async () => {
    const pglite = await PGlite.create("memory://", { loadDataDir: emptyCluster });
    const server = new PGLiteSocketServer({ db: pglite, host: "127.0.0.1", port: 0, maxConnections: 4 });
    await server.start();
    try {
      const wrong = await wrongAnswersOfTwoConnections(urlOf(Number(server.getServerConn().split(":").pop())));
      expect(wrong.length).toBeGreaterThan(0);
    } finally {
      await server.stop();
      await pglite.close();
    }
  });
});

/** A bare wire-protocol session, for what postgres.js never does: leave in the middle of a request. */
async function rawSession(port: string) {
  const socket = net.connect({ host: "127.0.0.1", port: Number(port) });
  await once(socket, "connect");
  let pending = Buffer.alloc(0);
  const received: string[] = [];
  let wake = () => {};
  socket.on("data", (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk]);
    while (pending.length >= 5 && pending.length >= 1 + pending.readInt32BE(1)) {
      received.push(String.fromCharCode(pending[0]!));
      pending = pending.subarray(1 + pending.readInt32BE(1));
    }
    wake();
  });
  const session = {
    socket,
    send: (...messages: Buffer[]) => socket.write(Buffer.concat(messages)),
    /** Waits for a backend message of `type` (its first byte), forgetting it and those before it. */
    async until(type: string): Promise<void> {
      while (!received.includes(type)) await new Promise<void>((resolve) => (wake = resolve));
      received.splice(0, received.indexOf(type) + 1);
    },
  };
  const startup = Buffer.concat([int32(196608), cstring("user"), cstring("postgres"), cstring("database")]);
  session.send(withLength(Buffer.concat([startup, cstring("postgres"), Buffer.from([0])])));
  await session.until("Z");
  return session;
}

const cstring = (text: string) => Buffer.from(`${text}\0`);
const int16 = (n: number) => Buffer.from([n >> 8, n & 0xff]);
const int32 = (n: number) => {
  const bytes = Buffer.alloc(4);
  bytes.writeInt32BE(n);
  return bytes;
};
const withLength = (body: Buffer) => Buffer.concat([int32(body.length + 4), body]);
const message = (type: string, body: Buffer) => Buffer.concat([Buffer.from(type), withLength(body)]);
/** The extended protocol's unnamed statement and portal, with no parameters. */
const parse = (query: string) => message("P", Buffer.concat([cstring(""), cstring(query), int16(0)]));
const bind = () => message("B", Buffer.concat([cstring(""), cstring(""), int16(0), int16(0), int16(0)]));
const execute = () => message("E", Buffer.concat([cstring(""), int32(0)]));
