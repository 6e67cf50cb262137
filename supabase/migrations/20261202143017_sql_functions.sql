-- Written by `npm run db:functions` (scripts/db-functions.ts) from supabase/sql-functions/: the current
-- definition of each function the migrations before it define otherwise, as Supabase's tooling (supabase db push, the
-- GitHub integration, Branching) applies supabase/migrations/ alone. Not edited by hand: change the function's file
-- and run the command again.

-- supabase/sql-functions/accept_invitation.sql
-- The invitation page's "Join": the signed-in person (p_person_id, p_person_email) joins the team of the invitation
-- whose token hashes to p_token_hash, once, before it expires, and only with the invited address. Each refusal is a
-- status and changes nothing: not_found, revoked, accepted, expired, wrong_email, already_member. The team's row is
-- locked first, as every change of its members is, so an acceptance and a revocation or removal are taken in turn.
create or replace function public.accept_invitation(
  p_token_hash text,
  p_person_id uuid,
  p_person_email text,
  p_actor_type text,
  p_actor_id text,
  p_actor_label text,
  p_ip text
)
returns table (status text, team_id uuid, team_role text)
language plpgsql
as $$
declare
  v_invitation public.invitations;
begin
  select i.* into v_invitation from public.invitations i where i.token_hash = p_token_hash;
  if not found then
    return query select 'not_found'::text, null::uuid, null::text;
    return;
  end if;
  perform 1 from public.accounts a where a.id = v_invitation.account_id for update;
  -- Read again under the lock: a revocation or acceptance that committed meanwhile is seen.
  select i.* into v_invitation from public.invitations i where i.id = v_invitation.id;
  if not found then
    return query select 'not_found'::text, null::uuid, null::text;
  elsif v_invitation.revoked_at is not null then
    return query select 'revoked'::text, v_invitation.account_id, v_invitation.role;
  elsif v_invitation.accepted_at is not null then
    return query select 'accepted'::text, v_invitation.account_id, v_invitation.role;
  elsif v_invitation.expires_at <= now() then
    return query select 'expired'::text, v_invitation.account_id, v_invitation.role;
  elsif lower(v_invitation.email) <> lower(p_person_email) then
    return query select 'wrong_email'::text, v_invitation.account_id, v_invitation.role;
  elsif exists (
    select 1 from public.memberships m where m.account_id = v_invitation.account_id and m.person_id = p_person_id
  ) then
    return query select 'already_member'::text, v_invitation.account_id, v_invitation.role;
  else
    insert into public.memberships (account_id, person_id, role)
    values (v_invitation.account_id, p_person_id, v_invitation.role);
    update public.invitations i set accepted_at = now(), accepted_by = p_person_id where i.id = v_invitation.id;
    insert into public.audit_log
      (account_id, action, actor_type, actor_id, actor_label, target_type, target_id, target_label, ip, details)
    values (v_invitation.account_id, 'member.joined', p_actor_type, p_actor_id, p_actor_label, 'member',
      p_person_id::text, p_person_email, p_ip,
      jsonb_build_object('role', v_invitation.role, 'invitation_id', v_invitation.id));
    return query select 'joined'::text, v_invitation.account_id, v_invitation.role;
  end if;
end;
$$;

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

-- supabase/sql-functions/authenticate_and_meter.sql
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

-- supabase/sql-functions/change_member_role.sql
-- Settings → Team's role change. Answers changed, or why not: not_found (not a member), unchanged (already that
-- role), last_admin (the team would be left without an admin). The team's row is locked first, so two admins
-- demoting each other at once are taken in turn and the second sees the first's demotion: one admin stays.
create or replace function public.change_member_role(
  p_account_id uuid,
  p_person_id uuid,
  p_role text,
  p_actor_type text,
  p_actor_id text,
  p_actor_label text,
  p_ip text
)
returns text
language plpgsql
as $$
declare
  v_role text;
  v_email text;
begin
  perform 1 from public.accounts a where a.id = p_account_id for update;
  select m.role, p.email into v_role, v_email
  from public.memberships m join public.people p on p.id = m.person_id
  where m.account_id = p_account_id and m.person_id = p_person_id;
  if not found then
    return 'not_found';
  elsif v_role = p_role then
    return 'unchanged';
  elsif v_role = 'admin' and (
    select count(*) from public.memberships m where m.account_id = p_account_id and m.role = 'admin'
  ) = 1 then
    return 'last_admin';
  end if;
  update public.memberships m set role = p_role where m.account_id = p_account_id and m.person_id = p_person_id;
  insert into public.audit_log
    (account_id, action, actor_type, actor_id, actor_label, target_type, target_id, target_label, ip, details)
  values (p_account_id, 'member.role_changed', p_actor_type, p_actor_id, p_actor_label, 'member', p_person_id::text,
    v_email, p_ip, jsonb_build_object('from', v_role, 'to', p_role));
  return 'changed';
end;
$$;

-- supabase/sql-functions/create_invitation.sql
-- Settings → Team's invite: a pending invitation of p_email to the team, unless the address is already a member's or
-- the team's seats (members plus pending invitations, p_seat_limit from lib/core/plans.ts; null is unlimited) are
-- taken. An open invitation to the same address is replaced (revoked, freeing its seat, then made anew). The team's
-- row is locked first, so concurrent invitations are counted one after another and never pass the seats; the entry
-- member.invited is written in the same transaction and never holds the token. p_actor is the entry's
-- { type, id, label, ip } (lib/audit/context.ts).
create or replace function public.create_invitation(
  p_account_id uuid,
  p_email text,
  p_role text,
  p_token_hash text,
  p_invited_by uuid,
  p_expires_at timestamptz,
  p_seat_limit integer,
  p_actor jsonb
)
returns table (status text, invitation_id uuid)
language plpgsql
as $$
declare
  v_id uuid;
begin
  perform 1 from public.accounts a where a.id = p_account_id for update;
  if not found then
    return query select 'not_found'::text, null::uuid;
    return;
  end if;
  if exists (
    select 1 from public.memberships m join public.people p on p.id = m.person_id
    where m.account_id = p_account_id and lower(p.email) = lower(p_email)
  ) then
    return query select 'already_member'::text, null::uuid;
    return;
  end if;
  -- Expired invitations hold no seat (their link no longer works), nor does the one this call replaces.
  if p_seat_limit is not null
    and (select count(*) from public.memberships m where m.account_id = p_account_id)
      + (select count(*) from public.invitations i
         where i.account_id = p_account_id and i.accepted_at is null and i.revoked_at is null
           and i.expires_at > now() and lower(i.email) <> lower(p_email))
      >= p_seat_limit then
    return query select 'no_seats'::text, null::uuid;
    return;
  end if;
  update public.invitations i set revoked_at = now()
  where i.account_id = p_account_id and lower(i.email) = lower(p_email)
    and i.accepted_at is null and i.revoked_at is null;
  insert into public.invitations (account_id, email, role, token_hash, invited_by, expires_at)
  values (p_account_id, p_email, p_role, p_token_hash, p_invited_by, p_expires_at)
  returning id into v_id;
  insert into public.audit_log
    (account_id, action, actor_type, actor_id, actor_label, target_type, target_id, target_label, ip, details)
  values (p_account_id, 'member.invited', p_actor ->> 'type', p_actor ->> 'id', p_actor ->> 'label', 'invitation',
    v_id::text, p_email, p_actor ->> 'ip', jsonb_build_object('email', p_email, 'role', p_role));
  return query select 'created'::text, v_id;
end;
$$;

-- supabase/sql-functions/delete_person.sql
-- Deleting a sign-in: the person's teams are locked (in id order, as other team changes lock them) so the last-admin
-- rule holds against concurrent role changes. Refused, changing nothing, while they are the last admin of a team with
-- other members: blocked_teams names those teams. Otherwise teams where they are the only member are deleted (as
-- delete_team), the others get a member.removed entry while they still exist, and the person goes (memberships and
-- sessions cascade).
create or replace function public.delete_person(
  p_person_id uuid,
  p_actor_type text,
  p_actor_id text,
  p_actor_label text,
  p_ip text
)
returns table (deleted boolean, blocked_teams text[], deleted_teams uuid[])
language plpgsql
as $$
declare
  v_email text;
  v_blocked text[];
  v_alone uuid[];
begin
  select email into v_email from public.people where id = p_person_id for update;
  if not found then
    return query select false, array[]::text[], array[]::uuid[];
    return;
  end if;
  perform 1 from public.accounts a
    where a.id in (select m.account_id from public.memberships m where m.person_id = p_person_id)
    order by a.id for update;

  select coalesce(array_agg(a.name order by a.name), array[]::text[]) into v_blocked
    from public.memberships m join public.accounts a on a.id = m.account_id
    where m.person_id = p_person_id and m.role = 'admin'
      and exists (select 1 from public.memberships o where o.account_id = m.account_id and o.person_id <> p_person_id)
      and not exists (select 1 from public.memberships o
                      where o.account_id = m.account_id and o.person_id <> p_person_id and o.role = 'admin');
  if cardinality(v_blocked) > 0 then
    return query select false, v_blocked, array[]::uuid[];
    return;
  end if;

  select coalesce(array_agg(m.account_id), array[]::uuid[]) into v_alone
    from public.memberships m
    where m.person_id = p_person_id
      and not exists (select 1 from public.memberships o where o.account_id = m.account_id and o.person_id <> p_person_id);

  insert into public.audit_log (account_id, action, actor_type, actor_id, actor_label, target_type, target_id,
                                target_label, ip, details)
    select m.account_id, 'member.removed', p_actor_type, p_actor_id, p_actor_label, 'person', p_person_id::text,
           v_email, p_ip, jsonb_build_object('reason', 'sign-in deleted')
    from public.memberships m
    where m.person_id = p_person_id and m.account_id <> all (v_alone);

  delete from public.accounts where id = any (v_alone);
  delete from public.people where id = p_person_id;
  return query select true, array[]::text[], v_alone;
end;
$$;

-- supabase/sql-functions/delete_team.sql
-- Deleting a team: its accounts row goes and every table referencing it cascades (templates, emails, keys, domains,
-- webhooks, memberships, invitations, audit entries...), in this one statement. The row is locked first so a change
-- racing the delete waits for it. Returns whether the team existed.
create or replace function public.delete_team(p_account_id uuid)
returns boolean
language plpgsql
as $$
begin
  perform 1 from public.accounts where id = p_account_id for update;
  if not found then
    return false;
  end if;
  delete from public.accounts where id = p_account_id;
  return true;
end;
$$;

-- supabase/sql-functions/finish_webhook_attempt.sql
-- Records the attempt a claim made (one webhook_attempts row from p_outcome { status: the endpoint's, null when no
-- answer came; duration_ms: the attempt started that long before p_now; error; excerpt: the answer's first 4 KB;
-- succeeded } — a record, as functions here take past eight parameters) and what follows, atomically under the delivery's row lock:
-- succeeded; or, failed with attempts left, the next attempt after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (Resend's
-- schedule, 8 attempts in all: the delay after the attempt just made), each delay times (1 + p_jitter), p_jitter
-- drawn by the caller within [-0.1, 0.1] (so a test sets it); or failed for good after max_attempts. The endpoint's
-- failing_since is cleared by a success and set by the first failure after one; a failure 5 days or more after it
-- (every delivery failed since) disables the endpoint, once, and fails its deliveries waiting for a retry, this one
-- included: endpoint_disabled says this call did, with the account's email, whom the caller tells. A claim token that
-- is not the delivery's now (its lease ran out and another process claimed it, or the attempt was recorded already)
-- changes nothing: recorded is false, as for a delivery deleted with its endpoint meanwhile.
create or replace function public.finish_webhook_attempt(
  p_delivery_id uuid,
  p_claim_token uuid,
  p_now timestamptz,
  p_outcome jsonb,
  p_jitter double precision
) returns table (
  recorded boolean,
  status text,
  attempts integer,
  next_attempt_at timestamptz,
  endpoint_disabled boolean,
  account_email text,
  endpoint_id uuid,
  endpoint_url text
)
language plpgsql
as $$
#variable_conflict use_column
declare
  v_delays constant interval[] := array['5 seconds', '5 minutes', '30 minutes', '2 hours', '5 hours', '10 hours',
                                        '10 hours']::interval[];
  v_delivery record;
  v_attempt integer;
  v_status text;
  v_next timestamptz;
  v_failing_since timestamptz;
  v_url text;
  v_disabled boolean := false;
  v_email text;
  v_duration_ms integer := (p_outcome ->> 'duration_ms')::integer;
  v_succeeded boolean := coalesce((p_outcome ->> 'succeeded')::boolean, false);
begin
  if p_jitter is null or p_jitter < -0.1 or p_jitter > 0.1 then
    raise exception 'webhook retry jitter must be within [-0.1, 0.1], not %', p_jitter using errcode = '22023';
  end if;
  -- The endpoint's row before the delivery's: the order a deletion of the endpoint takes them in (its row, then the
  -- cascade to its deliveries), so a finish and a deletion wait for each other instead of deadlocking.
  perform 1 from public.webhook_endpoints w
    where w.id = (select d.endpoint_id from public.webhook_deliveries d where d.id = p_delivery_id)
    for no key update;
  select d.attempts, d.max_attempts, d.endpoint_id, d.account_id into v_delivery
    from public.webhook_deliveries d
    where d.id = p_delivery_id and d.claim_token = p_claim_token and d.status = 'pending'
    for update;
  if not found then
    return query select false, null::text, null::integer, null::timestamptz, false, null::text, null::uuid, null::text;
    return;
  end if;
  v_attempt := v_delivery.attempts + 1;
  insert into public.webhook_attempts (delivery_id, attempt, started_at, duration_ms, response_status, error,
                                       response_excerpt)
    values (p_delivery_id, v_attempt, p_now - make_interval(secs => coalesce(v_duration_ms, 0) / 1000.0), v_duration_ms,
            (p_outcome ->> 'status')::integer, p_outcome ->> 'error', p_outcome ->> 'excerpt');
  if v_succeeded then
    v_status := 'succeeded';
  elsif v_attempt >= v_delivery.max_attempts then
    v_status := 'failed';
  else
    v_status := 'pending';
    v_next := p_now + v_delays[least(v_attempt, array_length(v_delays, 1))] * (1 + p_jitter);
  end if;
  update public.webhook_deliveries d
  set status = v_status, attempts = v_attempt, next_attempt_at = v_next, claimed_until = null, claim_token = null,
      finished_at = case when v_status = 'pending' then null else p_now end
  where d.id = p_delivery_id;

  if v_succeeded then
    update public.webhook_endpoints w set failing_since = null
      where w.id = v_delivery.endpoint_id and w.failing_since is not null;
  else
    update public.webhook_endpoints w set failing_since = coalesce(w.failing_since, p_now)
      where w.id = v_delivery.endpoint_id
      returning w.failing_since, w.url into v_failing_since, v_url;
    if v_failing_since <= p_now - interval '5 days' then
      update public.webhook_endpoints w
      set enabled = false, updated_at = p_now,
          disabled_reason = 'Every delivery failed for 5 days (since '
            || to_char(v_failing_since at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') || '): disabled.'
      where w.id = v_delivery.endpoint_id and w.enabled;
      v_disabled := found;
      if v_disabled then
        -- The team's first admin is told (the account's owner, for a migrated team).
        select p.email into v_email from public.memberships m join public.people p on p.id = m.person_id
          where m.account_id = v_delivery.account_id and m.role = 'admin' order by m.joined_at, m.person_id limit 1;
        -- Its other deliveries waiting for a retry fail with it (replay makes them again), so no claim keeps reading
        -- them; those in flight are finished by their own attempts.
        update public.webhook_deliveries d
        set status = 'failed', next_attempt_at = null, finished_at = p_now
        where d.endpoint_id = v_delivery.endpoint_id and d.status = 'pending'
          and (d.claimed_until is null or d.claimed_until <= p_now);
        v_status := 'failed';
        v_next := null;
      end if;
    end if;
  end if;
  return query select true, v_status, v_attempt, v_next, v_disabled, v_email, v_delivery.endpoint_id, v_url;
end;
$$;

-- supabase/sql-functions/remove_member.sql
-- Settings → Team's remove, and a member's leave (p_leaving: the person removes themself). Answers removed, or why
-- not: not_found (not a member), last_admin (the team would be left without an admin). Under the team's lock, as
-- role changes, so concurrent removals and demotions never leave a team without an admin. The removed person's
-- sessions lose the team at once: each request resolves its team against memberships.
create or replace function public.remove_member(
  p_account_id uuid,
  p_person_id uuid,
  p_leaving boolean,
  p_actor_type text,
  p_actor_id text,
  p_actor_label text,
  p_ip text
)
returns text
language plpgsql
as $$
declare
  v_role text;
  v_email text;
begin
  perform 1 from public.accounts a where a.id = p_account_id for update;
  select m.role, p.email into v_role, v_email
  from public.memberships m join public.people p on p.id = m.person_id
  where m.account_id = p_account_id and m.person_id = p_person_id;
  if not found then
    return 'not_found';
  elsif v_role = 'admin' and (
    select count(*) from public.memberships m where m.account_id = p_account_id and m.role = 'admin'
  ) = 1 then
    return 'last_admin';
  end if;
  delete from public.memberships m where m.account_id = p_account_id and m.person_id = p_person_id;
  insert into public.audit_log
    (account_id, action, actor_type, actor_id, actor_label, target_type, target_id, target_label, ip, details)
  values (p_account_id, 'member.removed', p_actor_type, p_actor_id, p_actor_label, 'member', p_person_id::text,
    v_email, p_ip, jsonb_build_object('role', v_role, 'reason', case when p_leaving then 'left' else 'removed' end));
  return 'removed';
end;
$$;

-- supabase/sql-functions/revoke_invitation.sql
-- Settings → Team's revoke: the team's pending invitation stops working (its link then answers "revoked"). Answers
-- revoked, or why not: not_found (not this team's), accepted, already_revoked. Under the team's lock, as acceptance.
create or replace function public.revoke_invitation(
  p_account_id uuid,
  p_invitation_id uuid,
  p_actor_type text,
  p_actor_id text,
  p_actor_label text,
  p_ip text
)
returns text
language plpgsql
as $$
declare
  v_invitation public.invitations;
begin
  perform 1 from public.accounts a where a.id = p_account_id for update;
  select i.* into v_invitation from public.invitations i
  where i.id = p_invitation_id and i.account_id = p_account_id;
  if not found then
    return 'not_found';
  elsif v_invitation.accepted_at is not null then
    return 'accepted';
  elsif v_invitation.revoked_at is not null then
    return 'already_revoked';
  end if;
  update public.invitations i set revoked_at = now() where i.id = p_invitation_id;
  insert into public.audit_log
    (account_id, action, actor_type, actor_id, actor_label, target_type, target_id, target_label, ip, details)
  values (p_account_id, 'invitation.revoked', p_actor_type, p_actor_id, p_actor_label, 'invitation',
    p_invitation_id::text, v_invitation.email, p_ip,
    jsonb_build_object('email', v_invitation.email, 'role', v_invitation.role));
  return 'revoked';
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
