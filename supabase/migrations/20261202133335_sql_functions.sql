-- Written by `npm run db:functions` (scripts/db-functions.ts) from supabase/sql-functions/: the current
-- definition of each function the migrations before it define otherwise, as Supabase's tooling (supabase db push, the
-- GitHub integration, Branching) applies supabase/migrations/ alone. Not edited by hand: change the function's file
-- and run the command again.

-- supabase/sql-functions/audit_log_refuse_change.sql
-- The triggers audit_log_refuse_update, _delete and _truncate: no UPDATE, DELETE or TRUNCATE reaches an audit entry,
-- whatever the role. An entry goes only with its team: the cascade of the account's delete, which runs once the
-- account row is gone.
create or replace function public.audit_log_refuse_change()
returns trigger
language plpgsql
as $$
begin
  if tg_op = 'DELETE' and not exists (select 1 from public.accounts where id = old.account_id) then
    return old;
  end if;
  raise exception 'audit_log entries cannot be changed or deleted' using errcode = '42501';
end;
$$;

-- Only the server calls them: on Supabase, PostgREST would offer every function in public to the anon and
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
