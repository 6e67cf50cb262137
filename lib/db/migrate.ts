import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { Db } from "@/lib/db/client";

const MIGRATIONS_DIR = path.join(process.cwd(), "supabase", "migrations");
const FUNCTIONS_DIR = path.join(process.cwd(), "supabase", "sql-functions");
const MIGRATION_FILE = /^(\d{14})_([a-z0-9_]+)\.sql$/;
const FUNCTION_FILE = /^[a-z0-9_]+\.sql$/;

export type MigrationResult = { applied: string[]; alreadyApplied: number; functions: number };

/**
 * `npm run db:migrate`: the pending migrations, each once and in order, then the current definition of every SQL
 * function (supabase/sql-functions/), so a fresh database and an upgraded one end with the same functions.
 */
export async function migrate(db: Db): Promise<MigrationResult> {
  const result = await applyMigrations(db);
  const functions = await applyFunctions(db);
  return { ...result, functions: functions.length };
}

// Records versions where the Supabase CLI does, so `supabase db push` and this runner agree on what has run (the CLI
// knows nothing of supabase/sql-functions/, hence db:migrate).
export async function applyMigrations(
  db: Db,
  dir = MIGRATIONS_DIR,
): Promise<{ applied: string[]; alreadyApplied: number }> {
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

/**
 * Applies every file of supabase/sql-functions/ (one function each, written to be applied any number of times), in
 * name order and in one transaction, so the app never sees half of a change. Returns the files applied.
 */
async function applyFunctions(db: Db): Promise<string[]> {
  const files = (await readdir(FUNCTIONS_DIR)).filter((f) => FUNCTION_FILE.test(f)).sort();
  await db.begin(async (tx) => {
    // As for a migration: this may wait for another runner's migration.
    await tx`set local statement_timeout = 0`;
    await tx`select pg_advisory_xact_lock(7263541)`;
    for (const file of files) await tx.unsafe(await readFile(path.join(FUNCTIONS_DIR, file), "utf8"));
    // Only the server calls them. On Supabase, PostgREST offers every function in public to the anon and authenticated
    // roles as an RPC (they get EXECUTE by default, as PUBLIC does everywhere): taken away from each function here, so
    // a new one cannot be forgotten. Functions of extensions are theirs to grant.
    await tx`
      do $$
      declare
        f regprocedure;
        grantee text;
      begin
        for f in
          select p.oid::regprocedure from pg_proc p join pg_namespace n on n.oid = p.pronamespace
          where n.nspname = 'public'
            and not exists (select 1 from pg_depend d
                            where d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e')
        loop
          for grantee in select 'public' union all select rolname from pg_roles where rolname in ('anon', 'authenticated')
          loop
            execute format('revoke execute on function %s from %s', f, grantee);
          end loop;
        end loop;
      end $$`;
  });
  return files;
}
