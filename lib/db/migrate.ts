import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { Db } from "@/lib/db/client";

const MIGRATIONS_DIR = path.join(process.cwd(), "supabase", "migrations");
const MIGRATION_FILE = /^(\d{14})_([a-z0-9_]+)\.sql$/;

export type MigrationResult = { applied: string[]; alreadyApplied: number };

/**
 * `npm run db:migrate`: the pending migrations of supabase/migrations/, each once and in order, recorded where the
 * Supabase CLI records them, so this runner, `supabase db push`, the GitHub integration and Branching build the same
 * database and agree on what has run. The SQL functions' files reach a database through the migrations that
 * `npm run db:functions` writes from them (lib/db/sql-functions.ts).
 */
export async function migrate(db: Db, dir = MIGRATIONS_DIR): Promise<MigrationResult> {
  const files = (await readdir(dir)).filter((f) => MIGRATION_FILE.test(f)).sort();
  await db.unsafe(`
    create schema if not exists supabase_migrations;
    create table if not exists supabase_migrations.schema_migrations (
      version text primary key, statements text[], name text
    );
  `);
  const rows = await db<{ version: string }[]>`select version from supabase_migrations.schema_migrations`;
  const done = new Set(rows.map((r) => r.version));
  const applied: string[] = [];
  for (const file of files) {
    const [, version, name] = MIGRATION_FILE.exec(file)!;
    if (done.has(version)) continue;
    const body = await readFile(path.join(dir, file), "utf8");
    await db.begin(async (tx) => {
      // A migration may rewrite a large table, and may wait here for another runner's: the app's timeout is not theirs.
      await tx`set local statement_timeout = 0`;
      // Serialises concurrent runners (two instances starting at once); the loser finds the version recorded.
      await tx`select pg_advisory_xact_lock(7263541)`;
      const [exists] = await tx`select 1 from supabase_migrations.schema_migrations where version = ${version}`;
      if (exists) return;
      await tx.unsafe(body);
      await tx`insert into supabase_migrations.schema_migrations (version, name, statements)
               values (${version}, ${name}, ${[body]})`;
      applied.push(file);
    });
  }
  return { applied, alreadyApplied: done.size };
}
