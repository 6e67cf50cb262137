-- The hot API routes authenticate, meter and make their first read in one statement, called with parameters. Each
-- function is authenticate_and_meter (20261124000200_auth_sessions.sql) followed, only for an allowed call, by one
-- route's read (20261122000600_hot_path_functions.sql, 20261124000300_domain_owner_and_orphaned_sends.sql) as
-- `context`; a refused or unknown caller reads nothing. A function in FROM runs once, before the read.

-- GET /library: the page of the account's library and its total.
create or replace function public.authenticate_and_read_library(
  p_key_hash text,
  p_account_id uuid,
  p_metric text,
  p_period_start timestamptz,
  p_limits jsonb,
  p_session_id uuid,
  p_limit integer,
  p_offset integer
) returns table (account_id uuid, email text, plan text, metered boolean, allowed boolean, used integer, quota integer, context json)
language plpgsql
as $$
begin
  return query
    select c.account_id, c.email, c.plan, c.metered, c.allowed, c.used, c.quota,
           case when c.allowed then public.library_page(c.account_id, p_limit, p_offset) end
    from public.authenticate_and_meter(p_key_hash, p_account_id, p_metric, p_period_start, p_limits, p_session_id) c;
end;
$$;

-- POST /templates/{id}/render: the template and whether it is in the account's library (null: no such template).
create or replace function public.authenticate_and_read_template(
  p_key_hash text,
  p_account_id uuid,
  p_metric text,
  p_period_start timestamptz,
  p_limits jsonb,
  p_session_id uuid,
  p_template_id uuid
) returns table (account_id uuid, email text, plan text, metered boolean, allowed boolean, used integer, quota integer, context jsonb)
language plpgsql
as $$
begin
  return query
    select c.account_id, c.email, c.plan, c.metered, c.allowed, c.used, c.quota,
           case when c.allowed then public.template_for_account(c.account_id, p_template_id) end
    from public.authenticate_and_meter(p_key_hash, p_account_id, p_metric, p_period_start, p_limits, p_session_id) c;
end;
$$;

-- POST /send: the account's sending domains and the template when it is in the library, as send_context's row.
create or replace function public.authenticate_and_read_send_context(
  p_key_hash text,
  p_account_id uuid,
  p_metric text,
  p_period_start timestamptz,
  p_limits jsonb,
  p_session_id uuid,
  p_template_id uuid
) returns table (account_id uuid, email text, plan text, metered boolean, allowed boolean, used integer, quota integer, context json)
language plpgsql
as $$
begin
  return query
    select c.account_id, c.email, c.plan, c.metered, c.allowed, c.used, c.quota,
           case when c.allowed then (select row_to_json(s) from public.send_context(c.account_id, p_template_id) s) end
    from public.authenticate_and_meter(p_key_hash, p_account_id, p_metric, p_period_start, p_limits, p_session_id) c;
end;
$$;

-- Only the server calls them (see 20261122000600_hot_path_functions.sql).
do $$
declare
  f regprocedure;
  grantee text;
begin
  for f in
    select p.oid::regprocedure from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname = 'public'
      and p.proname in ('authenticate_and_read_library', 'authenticate_and_read_template', 'authenticate_and_read_send_context')
  loop
    for grantee in select 'public' union all select rolname from pg_roles where rolname in ('anon', 'authenticated') loop
      execute format('revoke execute on function %s from %s', f, grantee);
    end loop;
  end loop;
end $$;
