-- One round trip per API request: resolves the credential, touches the key's last_used_at at most once a minute, and,
-- when p_metric is given, counts the call against the plan's limit atomically. The credential is an API key's hash
-- (revoked and expired keys authenticate nothing; its team is the key's), or a person id with p_session_id, a local
-- browser session that is accepted only while its row exists and has not expired, or a person id alone (a Supabase
-- session, verified by its JWT), or a team id alone (a dashboard page's, whose person was checked already). A
-- person's team is p_team_id (the team switcher's choice) while they are its member, else the first team they joined;
-- a person in no team (a removed member's last) authenticates nothing. The person's role comes back with it, so the
-- rights check costs no round trip. p_limits maps plan -> monthly limit (null =
-- unlimited), decided in application code. A refused call (allowed = false) is not counted. A key comes back with its
-- kind, scope, domain and name; a sending_access key on a route that does not admit it (p_sending_access false) is
-- answered insufficient_scope and its call is not counted.
create or replace function public.authenticate_and_meter(
  p_key_hash text,
  p_person_id uuid,
  p_team_id uuid,
  p_metric text,
  p_period_start timestamptz,
  p_limits jsonb,
  p_session_id uuid,
  p_sending_access boolean
) returns table (account_id uuid, plan text, metered boolean, allowed boolean, used integer, quota integer,
                 key_id uuid, key_kind text, key_scope text, key_domain text, key_name text,
                 insufficient_scope boolean, person_id uuid, person_email text, role text)
language plpgsql
as $$
#variable_conflict use_column
declare
  v_account_id uuid;
  v_plan text;
  v_role text;
  v_person_id uuid;
  v_person_email text;
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
    select a.id, a.plan into v_account_id, v_plan from public.accounts a where a.id = v_key.account_id;
    if v_key.last_used_at is null or v_key.last_used_at < now() - interval '1 minute' then
      update public.api_keys set last_used_at = now() where id = v_key.id;
    end if;
  elsif p_person_id is null then
    select a.id, a.plan into v_account_id, v_plan from public.accounts a where a.id = p_team_id;
  else
    select a.id, a.plan, m.role, p.id, p.email into v_account_id, v_plan, v_role, v_person_id, v_person_email
      from public.people p
        join public.memberships m on m.person_id = p.id
        join public.accounts a on a.id = m.account_id
      where p.id = p_person_id
        and (p_session_id is null or exists (
          select 1 from public.sessions s where s.id = p_session_id and s.person_id = p.id and s.expires_at > now()))
      order by (m.account_id = p_team_id) is true desc, m.joined_at, m.account_id
      limit 1;
  end if;
  if v_account_id is null then
    return;
  end if;

  v_quota := (p_limits ->> v_plan)::integer;

  if p_metric is null or (v_key.scope = 'sending_access' and not coalesce(p_sending_access, false)) then
    select c.count into v_used from public.usage_counters c
      where c.account_id = v_account_id and c.metric = 'api_calls' and c.period_start = p_period_start;
    return query select v_account_id, v_plan, false, true, coalesce(v_used, 0), v_quota,
                        v_key.id, v_key.kind, v_key.scope, v_key.domain, v_key.name,
                        coalesce(v_key.scope = 'sending_access', false) and not coalesce(p_sending_access, false),
                        v_person_id, v_person_email, v_role;
    return;
  end if;

  insert into public.usage_counters as c (account_id, metric, period_start, count)
    values (v_account_id, p_metric, p_period_start, 1)
    on conflict (account_id, metric, period_start) do update set count = c.count + 1
      where v_quota is null or c.count < v_quota
    returning c.count into v_used;

  if v_used is null then
    return query select v_account_id, v_plan, true, false, coalesce(v_quota, 0), v_quota,
                        v_key.id, v_key.kind, v_key.scope, v_key.domain, v_key.name, false,
                        v_person_id, v_person_email, v_role;
    return;
  end if;

  insert into public.usage_daily as d (account_id, metric, day, count)
    values (v_account_id, p_metric, (now() at time zone 'utc')::date, 1)
    on conflict (account_id, metric, day) do update set count = d.count + 1;

  return query select v_account_id, v_plan, true, true, v_used, v_quota,
                      v_key.id, v_key.kind, v_key.scope, v_key.domain, v_key.name, false,
                      v_person_id, v_person_email, v_role;
end;
$$;
