-- One round trip per API request: resolves the credential, touches the key's last_used_at at most once a minute, and,
-- when p_metric is given, counts the call against the plan's limit atomically. The credential is an API key's hash
-- (revoked and expired keys authenticate nothing), or an account id with p_session_id, a local browser session that is
-- accepted only while its row exists and has not expired, or an account id alone (a Supabase session, verified by its
-- JWT). p_limits maps plan -> monthly limit (null = unlimited), decided in application code. A refused call
-- (allowed = false) is not counted. A key comes back with its kind, scope and domain; a sending_access key on a route
-- that does not admit it (p_sending_access false) is answered insufficient_scope and its call is not counted.
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
