-- Written by `npm run db:functions` (scripts/db-functions.ts) from supabase/sql-functions/: the current
-- definition of each function the migrations before it define otherwise, as Supabase's tooling (supabase db push, the
-- GitHub integration, Branching) applies supabase/migrations/ alone. Not edited by hand: change the function's file
-- and run the command again.

-- supabase/sql-functions/claim_webhook_deliveries.sql
-- Claims up to p_limit due webhook deliveries (pending, next attempt at or before p_now, no lease running, endpoint
-- enabled) for one attempt each, under a lease of p_lease_seconds: each gets a new claim token that
-- finish_webhook_attempt must show, and until the lease runs out no other call claims it; a process killed in the
-- middle of an attempt leaves a lease that runs out, and the attempt is claimed again (with the same attempt number).
-- At most p_per_account deliveries of one account are in flight (a lease running) at once, across every process:
-- accounts are claimed one at a time under a transaction's advisory lock (an account another call is claiming for is
-- skipped, as its rows would be), and the count is read after taking it. Accounts with the fewest in flight go first,
-- then those whose due deliveries are oldest (those with all of theirs in flight left out), each account's found
-- through webhook_deliveries_account_due_idx in the order they are taken, so one account's backlog slows no other's
-- claim; rows are locked `for update skip locked`, so concurrent calls never wait on each other or claim one twice.
-- An account's attempts in flight are counted in claimed_until's order, up to p_per_account: so the count reads
-- webhook_deliveries_account_claimed_idx (its leases alone), whatever the planner's statistics say of the account's
-- backlog, which the due index would have it read through.
-- With p_account_id, that account's alone: what a request that made the account's events claims after its answer,
-- so that no account's request does another's deliveries (a hanging endpoint's among them), and one account's
-- backlog costs no other account's requests a claim over it.
-- secrets: those valid at p_now, the newest first (the previous one during a rotation's overlap).
create or replace function public.claim_webhook_deliveries(
  p_now timestamptz,
  p_limit integer,
  p_per_account integer,
  p_lease_seconds integer,
  p_account_id uuid default null
) returns table (
  delivery_id uuid,
  claim_token uuid,
  attempt integer,
  url text,
  secrets text[],
  event_id uuid,
  payload text,
  created_at timestamptz,
  account_id uuid,
  endpoint_id uuid
)
language plpgsql
as $$
#variable_conflict use_column
declare
  v_account uuid;
  v_left integer := p_limit;
  v_take integer;
  v_claimed integer;
  v_accounts uuid[];
begin
  -- p_account_id's alone (what it has due is the claim's to find): a request's claim plans and runs no search of the
  -- others. Or the accounts with pending deliveries, one index lookup each (a skip scan), however many rows each has.
  if p_account_id is not null then
    v_accounts := array[p_account_id];
  else
    v_accounts := array(
      with recursive accounts (account_id) as (
        (select d.account_id from public.webhook_deliveries d
         where d.status = 'pending' order by d.account_id limit 1)
        union all
        select (select d.account_id from public.webhook_deliveries d
                where d.status = 'pending' and d.account_id > a.account_id order by d.account_id limit 1)
        from accounts a where a.account_id is not null
      )
      select a.account_id from accounts a
        cross join lateral (
          select d.next_attempt_at from public.webhook_deliveries d
            join public.webhook_endpoints w on w.id = d.endpoint_id and w.enabled
          where d.account_id = a.account_id and d.status = 'pending' and d.next_attempt_at <= p_now
            and (d.claimed_until is null or d.claimed_until <= p_now)
          order by d.next_attempt_at limit 1
        ) oldest
        cross join lateral (
          select count(*) as n from (
            select from public.webhook_deliveries d
            where d.account_id = a.account_id and d.status = 'pending' and d.claimed_until > p_now
            order by d.claimed_until limit p_per_account
          ) running
        ) in_flight
      -- An account with all its attempts in flight is left out, or its old backlog would fill the p_limit accounts read
      -- and starve the others (counted again under its lock below); those with fewer in flight go first, so hanging
      -- endpoints, whose attempts stay in flight, do not take each room a finished attempt frees before anyone else.
      where a.account_id is not null and in_flight.n < p_per_account
      order by in_flight.n, oldest.next_attempt_at
      limit p_limit);
  end if;
  foreach v_account in array v_accounts
  loop
    exit when v_left <= 0;
    continue when not pg_try_advisory_xact_lock(hashtext('webhook_deliveries'), hashtext(v_account::text));
    select p_per_account - count(*) into v_take from (
      select from public.webhook_deliveries d
      where d.account_id = v_account and d.status = 'pending' and d.claimed_until > p_now
      order by d.claimed_until limit p_per_account
    ) running;
    v_take := least(v_take, v_left);
    continue when v_take <= 0;
    return query
      with picked as (
        select d.id from public.webhook_deliveries d
          join public.webhook_endpoints w on w.id = d.endpoint_id and w.enabled
        where d.account_id = v_account and d.status = 'pending' and d.next_attempt_at <= p_now
          and (d.claimed_until is null or d.claimed_until <= p_now)
        order by d.next_attempt_at, d.created_at, d.id
        limit v_take
        for update of d skip locked
      ), claimed as (
        update public.webhook_deliveries d
        set claimed_until = p_now + make_interval(secs => p_lease_seconds), claim_token = gen_random_uuid()
        from picked where d.id = picked.id
        returning d.id, d.claim_token, d.attempts + 1 as attempt, d.endpoint_id, d.event_id, d.account_id,
                  d.next_attempt_at, d.created_at
      )
      select c.id, c.claim_token, c.attempt, w.url,
             array[w.secret] || case when w.previous_secret is not null and w.previous_secret_expires_at > p_now
                                     then array[w.previous_secret] else '{}'::text[] end,
             c.event_id, e.payload::text, e.created_at, c.account_id, c.endpoint_id
      from claimed c
        join public.webhook_endpoints w on w.id = c.endpoint_id
        join public.webhook_events e on e.id = c.event_id
      order by c.next_attempt_at, c.created_at, c.id;
    get diagnostics v_claimed = row_count;
    v_left := v_left - v_claimed;
  end loop;
end;
$$;

-- supabase/sql-functions/enqueue_email_webhook_event.sql
-- An email's event (a row apply_email_event or record_email_first_events adds to email_events) as the webhook event
-- `email.<type>`, in the same transaction: its data is the email as GET /emails/{id} describes it (email_id is the id
-- POST /send answered with; times in ISO 8601; template_version a number, "draft" or null), `status` the email's status
-- after the event (p_status: the caller knows it, the row may not say it yet), `scheduled_at` and `locale` only when
-- it has one,
-- and what the event adds: a bounce's { type, message }, a click's { link }, an unsubscribe's { group }. The event id,
-- or null when no endpoint of the account hears the type (then no more than one index lookup is spent).
create or replace function public.enqueue_email_webhook_event(
  p_email_id uuid,
  p_type text,
  p_detail jsonb,
  p_status text,
  p_occurred_at timestamptz
) returns uuid
language plpgsql
as $$
declare
  v_account uuid;
  v_type text := 'email.' || p_type;
  v_data jsonb;
begin
  select e.account_id into v_account from public.sent_emails e where e.id = p_email_id;
  if v_account is null or not exists (select 1 from public.webhook_endpoints w
                                      where w.account_id = v_account and w.enabled and v_type = any (w.events)) then
    return null;
  end if;
  select jsonb_build_object(
           'email_id', coalesce(e.provider_message_id, e.id::text),
           'from', e.from_address,
           'to', to_jsonb(e.to_addresses),
           'cc', to_jsonb(e.cc_addresses),
           'bcc', to_jsonb(e.bcc_addresses),
           'subject', e.subject,
           'template_id', e.template_id,
           'template_version', case when e.template_version ~ '^[0-9]+$' then to_jsonb(e.template_version::integer)
                                    else to_jsonb(e.template_version) end,
           'tags', e.tags,
           'status', p_status,
           'test', e.test)
         || case when e.scheduled_at is null then '{}'::jsonb
                 else jsonb_build_object('scheduled_at',
                                         to_char(e.scheduled_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
            end
         || case when e.locale is null then '{}'::jsonb else jsonb_build_object('locale', e.locale) end
         || case p_type
              when 'bounced' then jsonb_build_object('bounce', jsonb_build_object(
                'type', p_detail ->> 'bounce_type', 'message', p_detail ->> 'message'))
              when 'clicked' then jsonb_build_object('click', jsonb_build_object('link', p_detail ->> 'link'))
              when 'unsubscribed' then jsonb_build_object('unsubscribe', jsonb_strip_nulls(jsonb_build_object(
                'group', p_detail ->> 'group')))
              else '{}'::jsonb
            end
    into v_data
    from public.sent_emails e where e.id = p_email_id;
  return public.enqueue_webhook_event(v_account, v_type, p_email_id, v_data, p_occurred_at);
end;
$$;

-- supabase/sql-functions/enqueue_webhook_event.sql
-- An event of the account for its webhook endpoints (API v1.3): one webhook_events row (the signed body
-- { type, created_at, data }, created_at p_now in ISO 8601 as the API writes times) and one pending delivery, due at
-- p_now, per enabled endpoint of the account whose events hold p_type. Nothing when none does: the event id, or null.
-- Called in the transaction of what the event tells (an email's event, a publish), so a rollback makes none.
create or replace function public.enqueue_webhook_event(
  p_account_id uuid,
  p_type text,
  p_email_id uuid,
  p_data jsonb,
  p_now timestamptz
) returns uuid
language plpgsql
as $$
declare
  v_id uuid;
begin
  -- The common case (no endpoint hears it) costs one index lookup.
  if not exists (select 1 from public.webhook_endpoints w
                 where w.account_id = p_account_id and w.enabled and p_type = any (w.events)) then
    return null;
  end if;
  insert into public.webhook_events (account_id, type, email_id, payload, created_at)
    values (p_account_id, p_type, p_email_id,
            jsonb_build_object('type', p_type,
                               'created_at', to_char(p_now at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                               'data', p_data),
            p_now)
    returning id into v_id;
  insert into public.webhook_deliveries (account_id, endpoint_id, event_id, next_attempt_at, created_at)
    select p_account_id, w.id, v_id, p_now, p_now from public.webhook_endpoints w
    where w.account_id = p_account_id and w.enabled and p_type = any (w.events)
    order by w.created_at, w.id;
  return v_id;
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

-- supabase/sql-functions/finish_webhook_attempts.sql
-- Records the attempts of several claims in one statement (an account's attempts that ended together): each element
-- of p_attempts is { delivery_id, claim_token, now, outcome, jitter }, recorded by finish_webhook_attempt as it would
-- be alone, and answered by a row with its item number (its place in p_attempts, from 1). Every endpoint's row is
-- locked first, in id order, then the deliveries are finished in id order: so two calls take their locks in one order
-- and never deadlock, and a deletion of an endpoint (its row, then its deliveries) waits for a call or the call for
-- it, as with one attempt. An error (a jitter out of range) records none of them.
create or replace function public.finish_webhook_attempts(
  p_attempts jsonb
) returns table (
  item integer,
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
    select a, n from jsonb_array_elements(p_attempts) with ordinality x (a, n) order by (a ->> 'delivery_id')::uuid, n
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
