-- Written by `npm run db:functions` (scripts/db-functions.ts) from supabase/sql-functions/: the current
-- definition of each function the migrations before it define otherwise, as Supabase's tooling (supabase db push, the
-- GitHub integration, Branching) applies supabase/migrations/ alone. Not edited by hand: change the function's file
-- and run the command again.

-- supabase/sql-functions/finish_webhook_attempt.sql
-- Records the attempt a claim made (one webhook_attempts row from p_outcome { status: the endpoint's, null when no
-- answer came; duration_ms: the attempt started that long before p_now; error; excerpt: the answer's first 4 KB;
-- succeeded } — a record, as functions here take past eight parameters) and what follows, atomically under the delivery's row lock:
-- succeeded; or, failed with attempts left, the next attempt after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (Resend's
-- schedule, 8 attempts in all: the delay after the attempt just made), each delay times (1 + p_jitter), p_jitter
-- drawn by the caller within [-0.1, 0.1] (so a test sets it); or failed for good after max_attempts. The endpoint's
-- failing_since is cleared by a success and set by the first failure after one; a failure 5 days or more after it
-- (every delivery failed since) disables the endpoint, once, and fails its deliveries waiting for a retry, this one
-- included: endpoint_disabled says this call did, so the caller tells the team's admins. A claim token that
-- is not the delivery's now (its lease ran out and another process claimed it, or the attempt was recorded already)
-- changes nothing: recorded is false, as for a delivery deleted with its endpoint meanwhile.
-- Its answer once had an account_email column, which create or replace cannot remove: that form is dropped first.
do $$
begin
  if 'account_email' = any (select unnest(p.proargnames) from pg_proc p
                            where p.oid = to_regprocedure('public.finish_webhook_attempt(uuid, uuid, timestamptz, jsonb, double precision)')) then
    drop function public.finish_webhook_attempt(uuid, uuid, timestamptz, jsonb, double precision);
  end if;
end;
$$;
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
  select d.attempts, d.max_attempts, d.endpoint_id into v_delivery
    from public.webhook_deliveries d
    where d.id = p_delivery_id and d.claim_token = p_claim_token and d.status = 'pending'
    for update;
  if not found then
    return query select false, null::text, null::integer, null::timestamptz, false, null::uuid, null::text;
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
  return query select true, v_status, v_attempt, v_next, v_disabled, v_delivery.endpoint_id, v_url;
end;
$$;

-- supabase/sql-functions/finish_webhook_attempts.sql
-- Records the attempts of several claims in one statement (an account's attempts that ended together): each element
-- of p_attempts is { delivery_id, claim_token, now, outcome, jitter }, recorded by finish_webhook_attempt as it would
-- be alone, and answered by a row with its item number (its place in p_attempts, from 1). Every endpoint's row is
-- locked first, in id order (as delete_team locks a team's), so two calls, or a call and a deletion of an endpoint or
-- a team (its endpoints, then their deliveries), wait for each other instead of deadlocking: every lock a call takes
-- on a delivery it takes holding that delivery's endpoint. The attempts are then finished in the order they ended,
-- so a success and a failure of one endpoint leave it as they would have one after the other. An error (a jitter out
-- of range) records none of them.
-- Its answer once had an account_email column, which create or replace cannot remove: that form is dropped first.
do $$
begin
  if 'account_email' = any (select unnest(p.proargnames) from pg_proc p
                            where p.oid = to_regprocedure('public.finish_webhook_attempts(jsonb)')) then
    drop function public.finish_webhook_attempts(jsonb);
  end if;
end;
$$;
create or replace function public.finish_webhook_attempts(
  p_attempts jsonb
) returns table (
  item integer,
  recorded boolean,
  status text,
  attempts integer,
  next_attempt_at timestamptz,
  endpoint_disabled boolean,
  endpoint_id uuid,
  endpoint_url text
)
language plpgsql
as $$
#variable_conflict use_column
declare
  v_attempt jsonb;
  v_item integer;
begin
  perform 1 from public.webhook_endpoints w
    where w.id = any (array(select d.endpoint_id from public.webhook_deliveries d
                            where d.id = any (array(select (a ->> 'delivery_id')::uuid
                                                    from jsonb_array_elements(p_attempts) a))))
    order by w.id
    for no key update;
  for v_attempt, v_item in
    select a, n from jsonb_array_elements(p_attempts) with ordinality x (a, n) order by (a ->> 'now')::timestamptz, n
  loop
    return query
      select v_item, f.*
      from public.finish_webhook_attempt((v_attempt ->> 'delivery_id')::uuid, (v_attempt ->> 'claim_token')::uuid,
                                         (v_attempt ->> 'now')::timestamptz, v_attempt -> 'outcome',
                                         (v_attempt ->> 'jitter')::double precision) f;
  end loop;
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
