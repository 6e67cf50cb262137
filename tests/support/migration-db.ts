import { randomBytes } from "node:crypto";
import { copyFile, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { inject } from "vitest";
import { startEmbeddedDatabase } from "@/lib/db/embedded";
import { migrate } from "@/lib/db/migrate";

/** An empty PGlite cluster's files: each fresh embedded database starts from them rather than running initdb again. */
let emptyCluster: Blob | undefined;

/** A fresh, empty database of the kind the tests run on (a new database on TEST_DATABASE_URL's server, or PGlite). */
async function freshDatabase(): Promise<{ url: string; stop: () => Promise<void> }> {
  if (inject("databaseKind") === "postgresql") {
    const admin = postgres(process.env.TEST_DATABASE_URL!, { prepare: false, max: 1, onnotice: () => {} });
    const name = `letterpress_migration_${randomBytes(4).toString("hex")}`;
    await admin.unsafe(`create database ${name}`);
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${name}`;
    return {
      url: url.toString(),
      stop: async () => {
        await admin.unsafe(`drop database if exists ${name} with (force)`);
        await admin.end();
      },
    };
  }
  const embedded = await startEmbeddedDatabase({ dataDir: "memory://", maxConnections: 4, copyOf: emptyCluster });
  emptyCluster ??= await embedded.copy();
  return { url: embedded.url, stop: embedded.stop };
}

/**
 * A fresh, empty database (its `url`) and a client of one connection on it; `close` ends the client and deletes the
 * database.
 */
export async function openFreshDatabase(): Promise<{ db: postgres.Sql; url: string; close: () => Promise<void> }> {
  const database = await freshDatabase();
  const db = postgres(database.url, { prepare: false, max: 1, onnotice: () => {} });
  return {
    db,
    url: database.url,
    close: async () => {
      await db.end();
      await database.stop();
    },
  };
}

/** Runs `test` on a fresh, empty database, deleted afterwards. */
export async function withFreshDatabase(test: (db: postgres.Sql) => Promise<void>): Promise<void> {
  const { db, close } = await openFreshDatabase();
  try {
    await test(db);
  } finally {
    await close();
  }
}

/**
 * Runs `test` on a fresh database migrated up to, not including, `migration`, as it was deployed then: the test fills
 * it with the rows the migration must cope with, then applies the rest with `migrate(db)`. The database is deleted
 * afterwards.
 */
export async function withDatabaseBefore(migration: string, test: (db: postgres.Sql) => Promise<void>): Promise<void> {
  await withFreshDatabase(async (db) => {
    const earlier = await mkdtemp(path.join(tmpdir(), "letterpress-migrations-"));
    try {
      const files = (await readdir("supabase/migrations")).filter((f) => f.endsWith(".sql") && f < migration);
      for (const file of files) await copyFile(path.join("supabase/migrations", file), path.join(earlier, file));
      await migrate(db, earlier);
      await test(db);
    } finally {
      await rm(earlier, { recursive: true, force: true });
    }
  });
}
