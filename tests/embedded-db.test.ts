import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmbeddedDatabase, type EmbeddedDatabase } from "@/lib/db/embedded";

// The embedded default serves PGlite over the wire protocol to several connections at once. These prove that
// parameterised queries and transactions from concurrent connections do not interleave, and that a stopped
// database reopens intact.
describe("embedded database", () => {
  let db: EmbeddedDatabase;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "letterpress-pglite-"));
    db = await startEmbeddedDatabase({ dataDir: path.join(dir, "data"), maxConnections: 10, writeLock: false });
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

  it("stops cleanly and reopens with its data", async () => {
    const dataDir = path.join(dir, "reopen");
    const first = await startEmbeddedDatabase({ dataDir, writeLock: false });
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
