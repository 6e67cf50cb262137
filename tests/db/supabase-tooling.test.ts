import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrate } from "@/lib/db/migrate";
import {
  applyFunctionFiles,
  functionDrift,
  functionsMigration,
  readFunctionFiles,
  type FunctionDrift,
} from "@/lib/db/sql-functions";
import { catalogueOf } from "../support/catalogue";
import { openFreshDatabase } from "../support/migration-db";

// `supabase db push`, the GitHub integration and Branching build a project's database from supabase/migrations/
// alone, on a database that holds Supabase's roles, grants and auth schema already, as Supabase's postgres role (no
// superuser). One such database for the file, built the same way (tests/support/supabase-platform.sql).
let db: postgres.Sql;
let close: () => Promise<void>;
let applied: string[];

beforeAll(async () => {
  ({ db, close } = await openFreshDatabase());
  await db.unsafe(await readFile("tests/support/supabase-platform.sql", "utf8"));
  await db`set role supabase_postgres`;
  ({ applied } = await migrate(db));
});

afterAll(() => close?.());

/** Runs `work` in a transaction that is rolled back, and returns what it returned. */
async function rolledBack<T>(work: (tx: postgres.TransactionSql) => Promise<T>): Promise<T> {
  const rollback = new Error("rolled back");
  let result: T | undefined;
  await db
    .begin(async (tx) => {
      result = await work(tx);
      throw rollback;
    })
    .catch((error: unknown) => {
      if (error !== rollback) throw error;
    });
  return result as T;
}

/** Runs `work` as `role` (a role of the fixture), then goes back to Supabase's postgres. */
async function asRole<T>(role: "anon" | "authenticated", work: () => Promise<T>): Promise<T> {
  await db`reset role`;
  await db`set role ${db(role)}`;
  try {
    return await work();
  } finally {
    await db`reset role`;
    await db`set role supabase_postgres`;
  }
}

const names = (drift: FunctionDrift) => ({
  changed: drift.changed.map((file) => file.name),
  withoutFile: drift.withoutFile,
});

describe("supabase/migrations/ alone, on a database with Supabase's roles and schemas", () => {
  it("apply, every one, as Supabase's postgres role", async () => {
    expect(applied).toEqual((await readdir("supabase/migrations")).filter((f) => f.endsWith(".sql")).sort());
  });

  // What db:migrate built before the migrations carried the functions: every migration, then every function file and
  // the revokes. The same catalogue, function definitions and grants included, or a migration is missing.
  it("build the schema, functions, grants and policies that the function files give", async () => {
    const built = await catalogueOf(db);
    const files = await readFunctionFiles();
    const byFiles = await rolledBack(async (tx) => {
      await applyFunctionFiles(tx, files);
      return catalogueOf(tx);
    });
    expect(built.functions.map((f) => f.name).sort()).toEqual(files.map((f) => f.name));
    expect(built).toEqual(byFiles);
  });

  it("leave anon and authenticated unable to read or write any table in public", async () => {
    // Supabase's default privileges as the fixture sets them: a table the migrations left alone would be theirs.
    expect(
      await rolledBack(async (tx) => {
        await tx`create table public.probe (id integer)`;
        return tx`select has_table_privilege('anon', 'public.probe', 'select') as anon_select`;
      }),
    ).toEqual([{ anon_select: true }]);

    const tables = await db<{ name: string; column: string }[]>`
      select c.relname as name,
             (select a.attname from pg_attribute a
              where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attidentity = '' and a.attgenerated = ''
              order by a.attnum limit 1) as column
      from pg_class c where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p') order by 1`;
    expect(tables.length).toBeGreaterThanOrEqual(20);
    const outcomes: string[] = [];
    for (const role of ["anon", "authenticated"] as const) {
      await asRole(role, async () => {
        for (const { name, column } of tables) {
          const table = db(`public.${name}`);
          const statements = {
            select: () => db`select * from ${table}`,
            insert: () => db`insert into ${table} default values`,
            update: () => db`update ${table} set ${db(column)} = ${db(column)}`,
            delete: () => db`delete from ${table}`,
            truncate: () => db`truncate ${table}`,
          };
          for (const [operation, run] of Object.entries(statements)) {
            try {
              const result = await run();
              outcomes.push(
                `${role} ${operation} ${name}: ${operation === "select" ? result.length : result.count} rows`,
              );
            } catch (error) {
              const { code, message } = error as { code?: string; message: string };
              outcomes.push(`${role} ${operation} ${name}: ${code === "42501" ? "denied" : message}`);
            }
          }
        }
      });
    }
    // Denied, or (row-level security without policies) no row seen or changed: never a row read or written.
    expect(outcomes.filter((o) => !o.endsWith(": denied") && !o.endsWith(": 0 rows"))).toEqual([]);
    expect(outcomes).toHaveLength(tables.length * 2 * 5);
  });

  it("leave anon and authenticated unable to execute any function in public", async () => {
    const functions = await db<{ role: string; signature: string; executable: boolean }[]>`
      select r.rolname as role, p.oid::regprocedure::text as signature,
             has_function_privilege(r.rolname, p.oid, 'execute') as executable
      from pg_proc p cross join (values ('anon'), ('authenticated')) as r(rolname)
      where p.pronamespace = 'public'::regnamespace order by 1, 2`;
    expect(functions.length).toBe((await readFunctionFiles()).length * 2);
    expect(functions.filter((f) => f.executable)).toEqual([]);
    await asRole("anon", async () => {
      await expect(db`select public.template_id_by_alias(null, 'welcome')`).rejects.toMatchObject({
        code: "42501",
        message: "permission denied for function template_id_by_alias",
      });
    });
  });

  // What `npm run db:functions` does (scripts/db-functions.ts), on a database a migration behind the files.
  it("are brought in step with an edited function file, and rid of a function whose file went, by the migration db:functions writes", async () => {
    const files = await readFunctionFiles();
    expect(names(await functionDrift(db, files))).toEqual({ changed: [], withoutFile: [] });

    const edited = files.map((file) =>
      file.name === "template_id_by_alias"
        ? { ...file, sql: file.sql.replace("t.alias = p_alias)", "t.alias = lower(p_alias))") }
        : file,
    );
    await db`create function public.retired() returns integer language sql as 'select 1'`;
    const drift = await functionDrift(db, edited);
    expect(names(drift)).toEqual({ changed: ["template_id_by_alias"], withoutFile: ["public.retired()"] });

    const dir = await mkdtemp(path.join(os.tmpdir(), "letterpress-db-functions-"));
    try {
      await writeFile(path.join(dir, "99990101000000_sql_functions.sql"), functionsMigration(drift));
      expect(await migrate(db, dir)).toEqual({
        applied: ["99990101000000_sql_functions.sql"],
        alreadyApplied: applied.length,
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    expect(names(await functionDrift(db, edited))).toEqual({ changed: [], withoutFile: [] });
    const [{ definition }] = await db`
      select pg_get_functiondef('public.template_id_by_alias(uuid, text)'::regprocedure) as definition`;
    expect(definition).toContain("t.alias = lower(p_alias)");
    expect(await db`select count(*)::int as left from pg_proc where proname = 'retired'`).toEqual([{ left: 0 }]);
    expect(
      await db`
        select p.oid::regprocedure::text as signature from pg_proc p
        where p.pronamespace = 'public'::regnamespace and has_function_privilege('anon', p.oid, 'execute')`,
    ).toEqual([]);
  });
});
