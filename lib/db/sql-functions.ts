import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { Db, Tx } from "@/lib/db/client";

// Each SQL function's current definition is one file of supabase/sql-functions/, named after it: the readable source.
// What a database runs is what supabase/migrations/ gives it (Supabase's tooling applies nothing else), so every change
// of a file is carried by a migration that `npm run db:functions` (scripts/db-functions.ts) writes from the files.

export const FUNCTIONS_DIR = path.join(process.cwd(), "supabase", "sql-functions");
const FUNCTION_FILE = /^([a-z0-9_]+)\.sql$/;

export type FunctionFile = { name: string; file: string; sql: string };

/** The function files, in name order (the order they are applied in: a SQL-language body may call an earlier one). */
export async function readFunctionFiles(dir = FUNCTIONS_DIR): Promise<FunctionFile[]> {
  const files = (await readdir(dir)).filter((f) => FUNCTION_FILE.test(f)).sort();
  return Promise.all(
    files.map(async (file) => ({
      name: FUNCTION_FILE.exec(file)![1],
      file,
      sql: await readFile(path.join(dir, file), "utf8"),
    })),
  );
}

/** EXECUTE taken away from every function in public, so a new one cannot be forgotten: ends each generated migration. */
export const FUNCTION_GRANTS_SQL = `-- Only the server calls them: on Supabase, PostgREST would offer every function in public to the anon and
-- authenticated roles as an RPC (they get EXECUTE by default, as PUBLIC does everywhere). Functions of extensions are
-- theirs to grant.
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
end $$;
`;

export type FunctionDefinition = {
  name: string;
  /** Schema-qualified name and argument types: what `drop function` takes. */
  signature: string;
  definition: string;
  privileges: string | null;
};

/** Every function of public but an extension's, as the catalog holds it, in signature order. */
export function functionDefinitions(db: Db | Tx): Promise<FunctionDefinition[]> {
  return db<FunctionDefinition[]>`
    select p.proname as name, 'public.' || p.proname || '(' || pg_catalog.oidvectortypes(p.proargtypes) || ')' as signature,
           pg_get_functiondef(p.oid) as definition, p.proacl::text as privileges
    from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname = 'public'
      and not exists (select 1 from pg_depend d
                      where d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e')
    order by 2`;
}

/**
 * Applies every function file, then FUNCTION_GRANTS_SQL, in `tx`: what a database whose migrations agree with the
 * files already has (each file is written to be applied any number of times).
 */
export async function applyFunctionFiles(tx: Tx, files: FunctionFile[]): Promise<void> {
  for (const file of files) await tx.unsafe(file.sql);
  await tx.unsafe(FUNCTION_GRANTS_SQL);
}

export type FunctionDrift = {
  /** Files whose function the database defines otherwise (body, arguments, privileges), or not at all. */
  changed: FunctionFile[];
  /** Functions of the database that no file defines (their file went): signatures to drop. */
  withoutFile: string[];
};

class RolledBack extends Error {}

/**
 * How the functions of `db` differ from the files: each file applied in a transaction that is rolled back, and the
 * catalog compared before and after. Empty on a database whose migrations carry every file.
 */
export async function functionDrift(db: Db, files: FunctionFile[]): Promise<FunctionDrift> {
  const before = await functionDefinitions(db);
  let after: FunctionDefinition[] = [];
  try {
    await db.begin(async (tx) => {
      await applyFunctionFiles(tx, files);
      after = await functionDefinitions(tx);
      throw new RolledBack();
    });
  } catch (error) {
    if (!(error instanceof RolledBack)) throw error;
  }
  const of = (list: FunctionDefinition[], name: string) => JSON.stringify(list.filter((f) => f.name === name));
  const named = new Set(files.map((f) => f.name));
  return {
    changed: files.filter((file) => of(before, file.name) !== of(after, file.name)),
    withoutFile: before.filter((f) => !named.has(f.name)).map((f) => f.signature),
  };
}

export const GENERATED_MIGRATION_HEADER = "-- Written by `npm run db:functions` (scripts/db-functions.ts)";

/** The migration that brings a database of `drift` to the files: each changed file whole, drops, then the revokes. */
export function functionsMigration(drift: FunctionDrift): string {
  const parts = [
    `${GENERATED_MIGRATION_HEADER} from supabase/sql-functions/: the current
-- definition of each function the migrations before it define otherwise, as Supabase's tooling (supabase db push, the
-- GitHub integration, Branching) applies supabase/migrations/ alone. Not edited by hand: change the function's file
-- and run the command again.
`,
    ...drift.changed.map((file) => `-- supabase/sql-functions/${file.file}\n${file.sql.trimEnd()}\n`),
    ...drift.withoutFile.map((signature) => `-- Its file went.\ndrop function if exists ${signature};\n`),
    FUNCTION_GRANTS_SQL,
  ];
  return parts.join("\n");
}
