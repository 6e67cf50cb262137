-- API keys a team can trust (issue 22): test keys, sending-only keys, keys bound to one sending domain, and keys that
-- expire. Core SQL only: runs unchanged on PGlite, PostgreSQL 15 and Supabase.

-- live keys send for real; test keys' sends stay in the outbox (see 20261124007000_test_sends.sql).
alter table public.api_keys add column if not exists kind text not null default 'live'
  check (kind in ('live', 'test'));
-- full_access: every endpoint; sending_access: only the routes that declare it (send, batch, emails, usage).
alter table public.api_keys add column if not exists scope text not null default 'full_access'
  check (scope in ('full_access', 'sending_access'));
-- A key bound to one of the account's sending domains (lower-cased) sends only from it.
alter table public.api_keys add column if not exists domain text;
-- Past it, the key authenticates nothing.
alter table public.api_keys add column if not exists expires_at timestamptz;

-- authenticate_and_meter as before (20261124000200_auth_sessions.sql), with the key's kind, scope and domain, and:
-- an expired key authenticates nothing; a sending_access key on a route that does not admit it (p_sending_access
-- false) is answered insufficient_scope and its call is not counted. Still one statement per API request.
drop function public.authenticate_and_meter(text, uuid, text, timestamptz, jsonb, uuid);

create or replace function public.authenticate_and_meter(
  p_key_hash text,
  p_account_id uuid,
  p_metric text,
  p_period_start timestamptz,
  p_limits jsonb,
  p_session_id uuid,
  p_sending_access boolean
) returns table (account_id uuid, email text, plan text, metered boolean, allowed boolean, used integer, quota integer,
                 key_id uuid, key_kind text, key_scope text, key_domain text, insufficient_scope boolean)
language plpgsql
as $$
#variable_conflict use_column
declare
  v_account public.accounts%rowtype;
  v_key public.api_keys%rowtype;
  v_quota integer;
  v_used integer;
begin
  if p_key_hash is not null then
    select k.* into v_key from public.api_keys k
      where k.key_hash = p_key_hash and k.revoked_at is null and (k.expires_at is null or k.expires_at > now());
    if v_key.id is null then
      return;
    end if;
    select a.* into v_account from public.accounts a where a.id = v_key.account_id;
    if v_key.last_used_at is null or v_key.last_used_at < now() - interval '1 minute' then
      update public.api_keys set last_used_at = now() where id = v_key.id;
    end if;
  elsif p_session_id is not null then
    select a.* into v_account from public.sessions s join public.accounts a on a.id = s.account_id
      where s.id = p_session_id and s.account_id = p_account_id and s.expires_at > now();
  else
    select a.* into v_account from public.accounts a where a.id = p_account_id;
  end if;
  if v_account.id is null then
    return;
  end if;

  v_quota := (p_limits ->> v_account.plan)::integer;

  if p_metric is null or (v_key.scope = 'sending_access' and not coalesce(p_sending_access, false)) then
    select c.count into v_used from public.usage_counters c
      where c.account_id = v_account.id and c.metric = 'api_calls' and c.period_start = p_period_start;
    return query select v_account.id, v_account.email, v_account.plan, false, true, coalesce(v_used, 0), v_quota,
                        v_key.id, v_key.kind, v_key.scope, v_key.domain,
                        coalesce(v_key.scope = 'sending_access', false) and not coalesce(p_sending_access, false);
    return;
  end if;

  insert into public.usage_counters as c (account_id, metric, period_start, count)
    values (v_account.id, p_metric, p_period_start, 1)
    on conflict (account_id, metric, period_start) do update set count = c.count + 1
      where v_quota is null or c.count < v_quota
    returning c.count into v_used;

  if v_used is null then
    return query select v_account.id, v_account.email, v_account.plan, true, false, coalesce(v_quota, 0), v_quota,
                        v_key.id, v_key.kind, v_key.scope, v_key.domain, false;
    return;
  end if;

  insert into public.usage_daily as d (account_id, metric, day, count)
    values (v_account.id, p_metric, (now() at time zone 'utc')::date, 1)
    on conflict (account_id, metric, day) do update set count = d.count + 1;

  return query select v_account.id, v_account.email, v_account.plan, true, true, v_used, v_quota,
                      v_key.id, v_key.kind, v_key.scope, v_key.domain, false;
end;
$$;

-- Only the server calls it (see 20261122000600_hot_path_functions.sql).
do $$
declare grantee text;
begin
  for grantee in select 'public' union all select rolname from pg_roles where rolname in ('anon', 'authenticated') loop
    execute format('revoke execute on function public.authenticate_and_meter(text, uuid, text, timestamptz, jsonb, uuid, '
                   'boolean) from %s', grantee);
  end loop;
end $$;
