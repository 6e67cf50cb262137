import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { describe, expect, inject, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { applyMigrations, migrate } from "@/lib/db/migrate";
import { withDatabaseBefore, withFreshDatabase } from "./support/migration-db";

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

/** Every function of public as the catalog holds it: identity, signature, whole definition and privileges. */
function functionsOf(db: postgres.Sql) {
  return db<{ oid: string; signature: string; definition: string; privileges: string | null }[]>`
    select p.oid::text as oid, p.oid::regprocedure::text as signature, pg_get_functiondef(p.oid) as definition,
           p.proacl::text as privileges
    from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname = 'public' order by 2`;
}

/** As functionsOf, for comparing two databases: identities differ between them. */
async function definitionsOf(db: postgres.Sql) {
  return (await functionsOf(db)).map(({ oid: _oid, ...definition }) => definition);
}

// Each function's current definition is one file of supabase/sql-functions/, which db:migrate applies after the
// migrations, every time: a fresh database (the suite's, migrated by tests/support/global-setup.ts) and an upgraded one
// must end with the same functions.
describe("SQL functions", () => {
  it("are one file each, named after the function, of one signature, and PUBLIC may execute none of them", async () => {
    const names = await getDb()<{ name: string }[]>`
      select p.proname as name from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = 'public'`;
    expect(names.map((f) => `${f.name}.sql`).sort()).toEqual((await readdir("supabase/sql-functions")).sort());
    expect(
      await getDb()`
        select p.oid::regprocedure::text as signature from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname = 'public'
          and exists (select 1 from aclexplode(coalesce(p.proacl, acldefault('f', p.proowner))) a where a.grantee = 0)`,
    ).toEqual([]);
  });

  // Past eight, positional arguments are read by counting: such a function takes a jsonb record instead.
  it("take at most eight parameters", async () => {
    expect(
      await getDb()`
        select p.oid::regprocedure::text as signature from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname = 'public' and p.pronargs > 8`,
    ).toEqual([]);
  });

  it(
    "upgrade a database of today's schema to a fresh database's functions, keep its rows, and change nothing applied again",
    { timeout: 60_000 },
    async () => {
      await withFreshDatabase(async (db) => {
        // As every database was before the functions had files of their own: all the migrations, and their functions.
        await applyMigrations(db);
        const [{ id: account }] = await db<{ id: string }[]>`
          insert into accounts (email) values ('a@x.example') returning id`;
        await db`insert into sending_domains (account_id, domain, verified) values (${account}, 'x.example', true)`;
        // Emails recorded as the code of the time recorded them: one sent by the outbox, which bounced, and a batch of
        // two waiting for their hand-off.
        await db`
          select * from record_counted_email(
            ${account}::uuid, '2026-11-01T00:00:00Z'::timestamptz, 100, false, 'sent', 'outbox', null::uuid,
            'hello@x.example', '{ann@x.example}'::text[], '{}'::text[], '{}'::text[], '{}'::text[], 'Hi', '<p>Hi</p>',
            'Hi', '{}'::jsonb, '[]'::jsonb, '[]'::jsonb, null::timestamptz, 'lp-one', 'bounced',
            '{"bounce_type": "hard"}'::jsonb, null::integer)`;
        const batch = [1, 2].map((i) => ({
          from: "hello@x.example",
          to: [`reader-${i}@x.example`],
          subject: "Hi",
          html: "<p>Hi</p>",
        }));
        await db`
          select * from record_counted_emails(
            ${account}::uuid, '2026-11-01T00:00:00Z'::timestamptz, 100, false, 'pending', 'resend',
            ${db.json(batch)}, 'lp-batch', null::integer)`;
        const rows = () => db`
          select (select json_agg(t order by t.id) from accounts t) as accounts,
                 (select json_agg(t order by t.id) from sending_domains t) as sending_domains,
                 (select json_agg(t order by t.subject, t.batch_index) from sent_emails t) as sent_emails,
                 (select json_agg(t order by t.id) from email_events t) as email_events,
                 (select json_agg(t order by t.email) from email_suppressions t) as email_suppressions,
                 (select json_agg(t order by t.metric) from usage_counters t) as usage_counters,
                 (select json_agg(t order by t.metric) from usage_daily t) as usage_daily`;
        const [before] = await rows();
        expect(Object.fromEntries(Object.entries(before).map(([table, list]) => [table, list.length]))).toEqual({
          accounts: 1,
          sending_domains: 1,
          sent_emails: 3,
          email_events: 2,
          email_suppressions: 1,
          usage_counters: 1,
          usage_daily: 1,
        });

        const migrations = (await readdir("supabase/migrations")).length;
        const functionFiles = (await readdir("supabase/sql-functions")).length;
        expect(await migrate(db)).toEqual({ applied: [], alreadyApplied: migrations, functions: functionFiles });
        expect(await rows()).toEqual([before]);
        const upgraded = await functionsOf(db);
        expect(await definitionsOf(db)).toEqual(await definitionsOf(getDb()));

        // Each file applied again: not even an identity changes (the triggers hold their functions by it).
        expect(await migrate(db)).toEqual({ applied: [], alreadyApplied: migrations, functions: functionFiles });
        expect(await functionsOf(db)).toEqual(upgraded);
      });
    },
  );

  it(
    "upgrade a database of the oldest migration to a fresh database's functions, and keep its rows",
    { timeout: 60_000 },
    async () => {
      // A database with only the oldest migration: the ones from the second on are still to run.
      const [, second, ...rest] = (await readdir("supabase/migrations")).sort();
      await withDatabaseBefore(second, async (db) => {
        const [{ id: account }] = await db<{ id: string }[]>`
          insert into accounts (email, plan) values ('a@x.example', 'monthly') returning id`;
        const [{ id: template }] = await db<{ id: string }[]>`
          insert into templates (owner_account_id, name, code) values (${account}, 'Mine', 'export default () => null')
          returning id`;
        await db`insert into library_entries (account_id, template_id, added_via) values (${account}, ${template}, 'created')`;
        await db`
          insert into usage_counters (account_id, metric, period_start, count)
          values (${account}, 'api_calls', '2026-11-01T00:00:00Z', 7)`;
        // The columns the migrations after it leave alone.
        const rows = () => db`
          select (select json_agg(json_build_object('id', t.id, 'email', t.email, 'plan', t.plan)) from accounts t)
                   as accounts,
                 (select json_agg(json_build_object('id', t.id, 'name', t.name, 'code', t.code)) from templates t)
                   as templates,
                 (select json_agg(t) from library_entries t) as library_entries,
                 (select json_agg(t) from usage_counters t) as usage_counters`;
        const [before] = await rows();

        expect(await migrate(db)).toEqual({
          applied: [second, ...rest],
          alreadyApplied: 1,
          functions: (await readdir("supabase/sql-functions")).length,
        });
        expect(await rows()).toEqual([before]);
        expect(await definitionsOf(db)).toEqual(await definitionsOf(getDb()));
      });
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
      expect(await applyMigrations(getDb(), dir)).toEqual({
        applied: [`${version}_timeout_probe.sql`],
        alreadyApplied: expect.any(Number),
      });
    } finally {
      await getDb()`delete from supabase_migrations.schema_migrations where version = ${version}`;
      await rm(dir, { recursive: true, force: true });
    }
  });
});
