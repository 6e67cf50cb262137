-- Written by `npm run db:functions` (scripts/db-functions.ts) from supabase/sql-functions/: the current
-- definition of each function the migrations before it define otherwise, as Supabase's tooling (supabase db push, the
-- GitHub integration, Branching) applies supabase/migrations/ alone. Not edited by hand: change the function's file
-- and run the command again.

-- supabase/sql-functions/create_webhook_endpoint.sql
-- POST /webhooks: adds an endpoint to the account unless it has p_limit already; null then. The account's row is
-- locked first, so concurrent creations are counted one after another and never pass the limit (the count is a
-- statement of its own, which sees the endpoints a creation before it committed).
create or replace function public.create_webhook_endpoint(
  p_account_id uuid,
  p_url text,
  p_events text[],
  p_description text,
  p_secret text,
  p_limit integer
)
returns setof public.webhook_endpoints
language plpgsql
as $$
begin
  perform 1 from public.accounts a where a.id = p_account_id for update;
  if (select count(*) from public.webhook_endpoints e where e.account_id = p_account_id) >= p_limit then
    return;
  end if;
  return query
    insert into public.webhook_endpoints (account_id, url, events, description, secret)
    values (p_account_id, p_url, p_events, p_description, p_secret)
    returning *;
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
