import type postgres from "postgres";
import { functionDefinitions } from "@/lib/db/sql-functions";

/**
 * What a database's schema public is made of, as the catalog holds it: relations (with their row-level security and
 * privileges), columns, indexes, constraints, triggers, functions (definitions and privileges), the grants as
 * information_schema reports them, policies, default privileges and extensions. Two databases built the same way give
 * equal catalogues (names of roles included, so compare databases of one cluster, or one database with itself).
 */
export async function catalogueOf(db: postgres.Sql | postgres.TransactionSql) {
  return {
    relations: await db`
      select c.relname as name, c.relkind as kind, c.relrowsecurity as row_security,
             c.relforcerowsecurity as forced_row_security, c.relacl::text as privileges
      from pg_class c
      where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p', 'v', 'm', 'S', 'f', 'c')
      order by 1`,
    columns: await db`
      select c.relname as table, a.attnum as position, a.attname as name,
             format_type(a.atttypid, a.atttypmod) as type, a.attnotnull as not_null,
             pg_get_expr(d.adbin, d.adrelid) as default, a.attgenerated as generated, a.attidentity as identity
      from pg_attribute a
      join pg_class c on c.oid = a.attrelid
      left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
      where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p', 'v', 'm', 'f', 'c')
        and a.attnum > 0 and not a.attisdropped
      order by 1, 2`,
    indexes: await db`
      select tablename as table, indexname as name, indexdef as definition
      from pg_indexes where schemaname = 'public' order by 2`,
    constraints: await db`
      select conrelid::regclass::text as table, conname as name, pg_get_constraintdef(oid) as definition
      from pg_constraint where connamespace = 'public'::regnamespace order by 1, 2`,
    triggers: await db`
      select t.tgrelid::regclass::text as table, t.tgname as name, pg_get_triggerdef(t.oid) as definition
      from pg_trigger t join pg_class c on c.oid = t.tgrelid
      where c.relnamespace = 'public'::regnamespace and not t.tgisinternal
      order by 1, 2`,
    functions: await functionDefinitions(db),
    tableGrants: await db`
      select grantee, table_name, privilege_type from information_schema.role_table_grants
      where table_schema = 'public' order by 1, 2, 3`,
    routineGrants: await db`
      select grantee, specific_name, privilege_type from information_schema.routine_privileges
      where routine_schema = 'public' order by 1, 2, 3`,
    policies: await db`
      select tablename as table, policyname as name, permissive, roles::text[] as roles, cmd, qual, with_check
      from pg_policies where schemaname = 'public' order by 1, 2`,
    defaultPrivileges: await db`
      select defaclrole::regrole::text as role, defaclnamespace::regnamespace::text as schema, defaclobjtype as kind,
             defaclacl::text as privileges
      from pg_default_acl order by 1, 2, 3`,
    extensions: await db`select extname as name, extversion as version from pg_extension order by 1`,
  };
}
