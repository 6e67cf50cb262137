-- Browser sign-in state that must hold across every instance: local sessions that signing out ends server-side, and
-- the failed sign-in counters that throttle password guessing. Core SQL only: runs unchanged on PGlite, PostgreSQL 15
-- and Supabase.

-- One row per local (non-Supabase) browser session. The cookie carries the id, signed with SESSION_SECRET, so the id
-- alone grants nothing; deleting the row ends the session wherever its cookie is.
create table public.sessions (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references public.accounts (id) on delete cascade,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null
);
create index sessions_account_idx on public.sessions (account_id);

-- Failed sign-in attempts per key ('ip:' or 'account:' and a SHA-256 digest, so neither addresses nor emails are
-- stored) in a fixed window that starts at the first failure.
create table public.sign_in_throttles (
  key text primary key,
  window_start timestamptz not null,
  failures integer not null check (failures >= 0)
);
create index sign_in_throttles_window_idx on public.sign_in_throttles (window_start);

do $$
declare t text;
begin
  foreach t in array array['sessions', 'sign_in_throttles'] loop
    execute format('alter table public.%I enable row level security', t);
    if exists (select 1 from pg_roles where rolname = 'anon') then
      execute format('revoke all on public.%I from anon', t);
    end if;
    if exists (select 1 from pg_roles where rolname = 'authenticated') then
      execute format('revoke all on public.%I from authenticated', t);
    end if;
  end loop;
end $$;

-- authenticate_and_meter as before, plus p_session_id: a local browser session is accepted only while its row exists
-- and has not expired (Supabase sessions, verified by their JWT, pass null). Still one statement per API request.
-- The old signature is dropped so no caller can reach an account id without its session.
drop function public.authenticate_and_meter(text, uuid, text, timestamptz, jsonb);

create or replace function public.authenticate_and_meter(
  p_key_hash text,
  p_account_id uuid,
  p_metric text,
  p_period_start timestamptz,
  p_limits jsonb,
  p_session_id uuid
) returns table (account_id uuid, email text, plan text, metered boolean, allowed boolean, used integer, quota integer)
language plpgsql
as $$
#variable_conflict use_column
declare
  v_account public.accounts%rowtype;
  v_key_id uuid;
  v_last_used timestamptz;
  v_quota integer;
  v_used integer;
begin
  if p_key_hash is not null then
    select k.id, k.last_used_at into v_key_id, v_last_used
      from public.api_keys k where k.key_hash = p_key_hash and k.revoked_at is null;
    if v_key_id is null then
      return;
    end if;
    select a.* into v_account from public.accounts a join public.api_keys k on k.account_id = a.id where k.id = v_key_id;
    if v_last_used is null or v_last_used < now() - interval '1 minute' then
      update public.api_keys set last_used_at = now() where id = v_key_id;
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

  if p_metric is null then
    select c.count into v_used from public.usage_counters c
      where c.account_id = v_account.id and c.metric = 'api_calls' and c.period_start = p_period_start;
    return query select v_account.id, v_account.email, v_account.plan, false, true, coalesce(v_used, 0), v_quota;
    return;
  end if;

  insert into public.usage_counters as c (account_id, metric, period_start, count)
    values (v_account.id, p_metric, p_period_start, 1)
    on conflict (account_id, metric, period_start) do update set count = c.count + 1
      where v_quota is null or c.count < v_quota
    returning c.count into v_used;

  if v_used is null then
    return query select v_account.id, v_account.email, v_account.plan, true, false, coalesce(v_quota, 0), v_quota;
    return;
  end if;

  insert into public.usage_daily as d (account_id, metric, day, count)
    values (v_account.id, p_metric, (now() at time zone 'utc')::date, 1)
    on conflict (account_id, metric, day) do update set count = d.count + 1;

  return query select v_account.id, v_account.email, v_account.plan, true, true, v_used, v_quota;
end;
$$;

-- Only the server calls it (see 20261122000600_hot_path_functions.sql).
do $$
declare grantee text;
begin
  for grantee in select 'public' union all select rolname from pg_roles where rolname in ('anon', 'authenticated') loop
    execute format('revoke execute on function public.authenticate_and_meter(text, uuid, text, timestamptz, jsonb, uuid) from %s', grantee);
  end loop;
end $$;
