import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { describe, expect, inject, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { migrate } from "@/lib/db/migrate";

describe("migrations", () => {
  it("are all recorded where the Supabase CLI records them", async () => {
    const files = (await readdir("supabase/migrations")).filter((f) => f.endsWith(".sql")).sort();
    const rows = await getDb()<{ version: string; name: string }[]>`
      select version, name from supabase_migrations.schema_migrations order by version`;
    expect(rows.map((r) => `${r.version}_${r.name}.sql`)).toEqual(files);
  });

  it("apply nothing twice", async () => {
    const result = await migrate(getDb());
    expect(result.applied).toEqual([]);
  });

  it("enable row level security on every table in public", async () => {
    const tables = await getDb()<{ tablename: string; rowsecurity: boolean }[]>`
      select tablename, rowsecurity from pg_tables where schemaname = 'public' order by tablename`;
    expect(tables.length).toBeGreaterThanOrEqual(9);
    expect(tables.filter((t) => !t.rowsecurity).map((t) => t.tablename)).toEqual([]);
  });

  // Supabase's anon and authenticated roles exist only there; on a real server we can create them and check the
  // guarded grants, then prove the API roles read nothing.
  it.runIf(inject("databaseKind") === "postgresql")(
    "run on a Supabase-like database and keep its API roles out",
    async () => {
      const admin = postgres(process.env.TEST_DATABASE_URL!, { prepare: false, max: 1, onnotice: () => {} });
      const name = `letterpress_supabase_${Date.now()}`;
      try {
        for (const role of ["anon", "authenticated"]) {
          await admin.unsafe(
            `do $$ begin if not exists (select 1 from pg_roles where rolname = '${role}') then create role ${role}; end if; end $$`,
          );
        }
        await admin.unsafe(`create database ${name}`);
        const url = new URL(process.env.TEST_DATABASE_URL!);
        url.pathname = `/${name}`;
        const db = postgres(url.toString(), { prepare: false, max: 1, onnotice: () => {} });
        try {
          // As Supabase does: the API roles get every new table and function in public by default.
          await db.unsafe(`grant usage on schema public to anon, authenticated;
          alter default privileges in schema public grant all on tables to anon, authenticated;
          alter default privileges in schema public grant all on functions to anon, authenticated`);
          const { applied } = await migrate(db);
          expect(applied.length).toBeGreaterThan(0);
          const [privileges] = await db`select has_table_privilege('anon', 'public.accounts', 'select') as anon_select`;
          expect(privileges.anon_select).toBe(false);
          const callable = await db<{ role: string; fn: string }[]>`
          select r.rolname as role, p.proname as fn
          from pg_proc p join pg_namespace n on n.oid = p.pronamespace
          cross join (values ('anon'), ('authenticated')) as r(rolname)
          where n.nspname = 'public' and has_function_privilege(r.rolname, p.oid, 'execute')
          order by 1, 2`;
          expect(callable).toEqual([]);
        } finally {
          await db.end();
        }
      } finally {
        await admin.unsafe(`drop database if exists ${name} with (force)`);
        await admin.end();
      }
    },
  );
});

// PGlite takes the startup parameter but cannot interrupt a running statement, so only PostgreSQL cancels.
describe("statement timeout", () => {
  it.runIf(inject("databaseKind") === "postgresql")("cancels an app statement still running after 10 s", async () => {
    const started = Date.now();
    await expect(getDb()`select pg_sleep(12)`).rejects.toMatchObject({
      code: "57014",
      message: "canceling statement due to statement timeout",
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(9_900);
  });

  it("does not apply to migrations", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "letterpress-migrations-"));
    const version = "99990101000000";
    await writeFile(
      path.join(dir, `${version}_timeout_probe.sql`),
      `do $$ begin
         if current_setting('statement_timeout') <> '0' then
           raise exception 'statement_timeout is %', current_setting('statement_timeout');
         end if;
       end $$;`,
    );
    try {
      expect(await migrate(getDb(), dir)).toEqual({
        applied: [`${version}_timeout_probe.sql`],
        alreadyApplied: expect.any(Number),
      });
    } finally {
      await getDb()`delete from supabase_migrations.schema_migrations where version = ${version}`;
      await rm(dir, { recursive: true, force: true });
    }
  });
});
