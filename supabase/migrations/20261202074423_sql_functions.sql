-- Written by `npm run db:functions` (scripts/db-functions.ts) from supabase/sql-functions/: the current
-- definition of each function the migrations before it define otherwise, as Supabase's tooling (supabase db push, the
-- GitHub integration, Branching) applies supabase/migrations/ alone. Not edited by hand: change the function's file
-- and run the command again.

-- supabase/sql-functions/apply_email_event.sql
-- Appends an event to an email and moves its status, atomically (the email's row is locked, so events of one email
-- are applied one at a time, in order of arrival). Every event is kept; the status moves forward only:
-- queued → scheduled → sent → delivery_delayed → a final state (delivered, bounced, complained, failed, canceled).
-- A final state never moves, except delivered → bounced or complained, as providers report; canceled comes only from
-- scheduled; opened and clicked are events only. An event whose provider event id was applied already changes nothing.
-- A hard bounce or complaint suppresses its recipient for the email's account (suppress_email_recipients), whatever
-- the status became (a bounce reported after a failure still bounced). Each event appended is also the account's
-- webhook event email.<type> (enqueue_email_webhook_event), with the status it left the email in.
-- applied: the event was appended; status: the email's status after it (null when there is no such email).
create or replace function public.apply_email_event(
  p_email_id uuid,
  p_type text,
  p_detail jsonb default null,
  p_provider_event_id text default null,
  p_occurred_at timestamptz default null
) returns table (applied boolean, status text)
language plpgsql
as $$
#variable_conflict use_column
declare
  v_status text;
  v_account uuid;
  v_recipients text[];
  v_next text;
  v_rank constant text[] := array['queued', 'scheduled', 'sent', 'delivery_delayed'];
begin
  if p_type is null or p_type not in ('scheduled', 'sent', 'delivered', 'delivery_delayed', 'bounced', 'complained',
                                      'failed', 'canceled', 'opened', 'clicked') then
    raise exception 'unknown email event type: %', p_type using errcode = '22023';
  end if;
  select e.delivery_status, e.account_id, e.to_addresses || e.cc_addresses || e.bcc_addresses
    into v_status, v_account, v_recipients
    from public.sent_emails e where e.id = p_email_id for update;
  if not found then
    return query select false, null::text;
    return;
  end if;

  insert into public.email_events (email_id, account_id, type, occurred_at, detail, provider_event_id)
    values (p_email_id, v_account, p_type, coalesce(p_occurred_at, now()), p_detail, p_provider_event_id)
    on conflict (provider_event_id) where provider_event_id is not null do nothing;
  if not found then
    return query select false, v_status;
    return;
  end if;

  if p_type in ('bounced', 'complained') then
    perform public.suppress_email_recipients(v_account, p_email_id, p_type, p_detail, v_recipients);
  end if;

  v_next := case
    when p_type in ('opened', 'clicked') then v_status
    when v_status = 'delivered' then case when p_type in ('bounced', 'complained') then p_type else v_status end
    when v_status in ('bounced', 'complained', 'failed', 'canceled') then v_status
    when p_type = 'canceled' then case when v_status = 'scheduled' then p_type else v_status end
    -- Past the non-final states (array_position is null for a final one): any final state.
    when coalesce(array_position(v_rank, p_type), 5) > array_position(v_rank, v_status) then p_type
    else v_status
  end;
  if v_next <> v_status then
    update public.sent_emails e set delivery_status = v_next where e.id = p_email_id;
  end if;
  perform public.enqueue_email_webhook_event(p_email_id, p_type, p_detail, v_next, coalesce(p_occurred_at, now()));
  return query select true, v_next;
end;
$$;

-- supabase/sql-functions/claim_webhook_deliveries.sql
-- Claims up to p_limit due webhook deliveries (pending, next attempt at or before p_now, no lease running, endpoint
-- enabled) for one attempt each, under a lease of p_lease_seconds: each gets a new claim token that
-- finish_webhook_attempt must show, and until the lease runs out no other call claims it; a process killed in the
-- middle of an attempt leaves a lease that runs out, and the attempt is claimed again (with the same attempt number).
-- At most p_per_account deliveries of one account are in flight (a lease running) at once, across every process:
-- accounts are claimed one at a time under a transaction's advisory lock (an account another call is claiming for is
-- skipped, as its rows would be), and the count is read after taking it. Accounts with the fewest in flight go first,
-- then those whose due deliveries are oldest (those with all of theirs in flight left out), each account's found
-- through webhook_deliveries_account_due_idx, so one account's backlog slows no other's claim; rows are locked `for update skip locked`, so concurrent calls never wait on each other or claim one twice.
-- secrets: those valid at p_now, the newest first (the previous one during a rotation's overlap).
create or replace function public.claim_webhook_deliveries(
  p_now timestamptz,
  p_limit integer,
  p_per_account integer,
  p_lease_seconds integer
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
begin
  for v_account in
    -- The accounts with pending deliveries, one index lookup each (a skip scan), however many rows each has.
    with recursive accounts (account_id) as (
      (select d.account_id from public.webhook_deliveries d where d.status = 'pending' order by d.account_id limit 1)
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
        select count(*) as n from public.webhook_deliveries d
        where d.account_id = a.account_id and d.status = 'pending' and d.claimed_until > p_now
      ) in_flight
    -- An account with all its attempts in flight is left out, or its old backlog would fill the p_limit accounts read
    -- and starve the others (counted again under its lock below); those with fewer in flight go first, so hanging
    -- endpoints, whose attempts stay in flight, do not take each room a finished attempt frees before anyone else.
    where a.account_id is not null and in_flight.n < p_per_account
    order by in_flight.n, oldest.next_attempt_at
    limit p_limit
  loop
    exit when v_left <= 0;
    continue when not pg_try_advisory_xact_lock(hashtext('webhook_deliveries'), hashtext(v_account::text));
    select p_per_account - count(*) into v_take from public.webhook_deliveries d
      where d.account_id = v_account and d.status = 'pending' and d.claimed_until > p_now;
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

-- supabase/sql-functions/claim_webhook_delivery.sql
-- Claims one delivery of the account's, by id, for an attempt at once (a test event: the API answers with its outcome),
-- as claim_webhook_deliveries claims due ones: pending, no lease running, whatever its next attempt's time, and
-- whether or not its endpoint is enabled (its owner asked for this one attempt, say to check the endpoint before
-- enabling it again); the same row shape, no row when it cannot be claimed.
create or replace function public.claim_webhook_delivery(
  p_account_id uuid,
  p_delivery_id uuid,
  p_now timestamptz,
  p_lease_seconds integer
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
language sql
as $$
  with claimed as (
    update public.webhook_deliveries d
    set claimed_until = p_now + make_interval(secs => p_lease_seconds), claim_token = gen_random_uuid()
    where d.id = (select d2.id from public.webhook_deliveries d2
                  where d2.id = p_delivery_id and d2.account_id = p_account_id and d2.status = 'pending'
                    and (d2.claimed_until is null or d2.claimed_until <= p_now)
                  for update of d2 skip locked)
    returning d.id, d.claim_token, d.attempts + 1 as attempt, d.endpoint_id, d.event_id, d.account_id
  )
  select c.id, c.claim_token, c.attempt, w.url,
         array[w.secret] || case when w.previous_secret is not null and w.previous_secret_expires_at > p_now
                                 then array[w.previous_secret] else '{}'::text[] end,
         c.event_id, e.payload::text, e.created_at, c.account_id, c.endpoint_id
  from claimed c
    join public.webhook_endpoints w on w.id = c.endpoint_id
    join public.webhook_events e on e.id = c.event_id;
$$;

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

-- supabase/sql-functions/create_webhook_test_event.sql
-- POST /webhooks/{id}/test: a `webhook.test` event for the account's endpoint alone, with one delivery of one attempt
-- (max_attempts 1), due at p_now, whatever the event types it hears. At most p_per_account of the account's test events
-- are in flight at once (made within p_lease_seconds and not finished), counted under a transaction's advisory lock of
-- the account, so that concurrent calls cannot have our server hold more connections to an endpoint than that: past
-- it nothing is made and busy is true. No row when the account has no such endpoint.
create or replace function public.create_webhook_test_event(
  p_account_id uuid,
  p_endpoint_id uuid,
  p_now timestamptz,
  p_per_account integer,
  p_lease_seconds integer
) returns table (event_id uuid, delivery_id uuid, busy boolean)
language plpgsql
as $$
#variable_conflict use_column
declare
  v_event uuid;
begin
  if not exists (select 1 from public.webhook_endpoints w where w.id = p_endpoint_id and w.account_id = p_account_id)
  then
    return;
  end if;
  perform pg_advisory_xact_lock(hashtext('webhook_test_events'), hashtext(p_account_id::text));
  if (select count(*) from public.webhook_deliveries d
      where d.account_id = p_account_id and d.status = 'pending' and d.max_attempts = 1
        -- A test delivery's next attempt is its creation until it is finished: a range of the account's due index.
        and d.next_attempt_at > p_now - make_interval(secs => p_lease_seconds)
        and d.created_at > p_now - make_interval(secs => p_lease_seconds)) >= p_per_account then
    return query select null::uuid, null::uuid, true;
    return;
  end if;
  insert into public.webhook_events (account_id, type, payload, created_at)
    values (p_account_id, 'webhook.test',
            jsonb_build_object('type', 'webhook.test',
                               'created_at', to_char(p_now at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                               'data', jsonb_build_object('webhook_id', p_endpoint_id)),
            p_now)
    returning id into v_event;
  return query
    insert into public.webhook_deliveries (account_id, endpoint_id, event_id, max_attempts, next_attempt_at, created_at)
    values (p_account_id, p_endpoint_id, v_event, 1, p_now, p_now)
    returning event_id, id, false;
end;
$$;

-- supabase/sql-functions/delete_expired_webhook_rows.sql
-- Webhook history is kept 30 days (the delivery log's promise): events created before p_now - 30 days are deleted,
-- with their deliveries and attempts (on delete cascade), up to p_limit events a call so no call holds locks long (the
-- duty runs again). An old event is kept while one of its deliveries is younger than 30 days (a replay: it stays in the
-- log as long as any delivery, and its retries go on) or has an attempt in flight (whose outcome is still to be
-- recorded). Returns how many events went.
create or replace function public.delete_expired_webhook_rows(p_now timestamptz, p_limit integer)
returns integer
language sql
as $$
  with gone as (
    delete from public.webhook_events e
    where e.id in (select e2.id from public.webhook_events e2
                   where e2.created_at < p_now - interval '30 days'
                     and not exists (select 1 from public.webhook_deliveries d
                                     where d.event_id = e2.id
                                       and (d.created_at >= p_now - interval '30 days'
                                            or (d.status = 'pending' and d.claimed_until > p_now)))
                   order by e2.created_at limit p_limit for update of e2 skip locked)
    returning 1
  )
  select count(*)::integer from gone;
$$;

-- supabase/sql-functions/enqueue_email_webhook_event.sql
-- An email's event (a row apply_email_event or record_email_first_events adds to email_events) as the webhook event
-- `email.<type>`, in the same transaction: its data is the email as GET /emails/{id} describes it (email_id is the id
-- POST /send answered with; times in ISO 8601; template_version a number, "draft" or null), `status` the email's status
-- after the event (p_status: the caller knows it, the row may not say it yet), `scheduled_at` only when it has one,
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
        select a.email into v_email from public.accounts a where a.id = v_delivery.account_id;
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

-- supabase/sql-functions/record_email_first_events.sql
-- An email's first events, in order, written by the statement that records it (record_counted_email and
-- record_counted_emails): its hand-off's (sent or scheduled; none while pending), then what the embedded outbox reports
-- of it (delivered, bounced or complained), which may suppress its recipients; each is also the account's webhook
-- event email.<type> (enqueue_email_webhook_event).
create or replace function public.record_email_first_events(
  p_email_id uuid,
  p_account_id uuid,
  p_status text,
  p_delivery_type text,
  p_delivery_detail jsonb,
  p_recipients text[]
) returns void
language plpgsql
as $$
begin
  insert into public.email_events (email_id, account_id, type, detail)
    select p_email_id, p_account_id, v.type, v.detail
    from (values (1, case when p_status in ('sent', 'scheduled') then p_status end, null::jsonb),
                 (2, p_delivery_type, p_delivery_detail)) v (n, type, detail)
    where v.type is not null
    order by v.n;
  -- Each also the account's webhook event, in the same order; each of these moves the status to its own type.
  if p_status in ('sent', 'scheduled') then
    perform public.enqueue_email_webhook_event(p_email_id, p_status, null, p_status, now());
  end if;
  if p_delivery_type is not null then
    perform public.enqueue_email_webhook_event(p_email_id, p_delivery_type, p_delivery_detail, p_delivery_type, now());
  end if;
  if p_delivery_type in ('bounced', 'complained') then
    perform public.suppress_email_recipients(p_account_id, p_email_id, p_delivery_type, p_delivery_detail,
                                             p_recipients);
  end if;
end;
$$;

-- supabase/sql-functions/template_versions_published_webhook.sql
-- The trigger template_versions_published: each version published (every insert into template_versions: a create,
-- a publish, a restore) is the account's webhook event template.published, in the same transaction:
-- { template_id, alias, version, published_by }, published_by { via: "api_key", api_key_id } | { via: "session" } |
-- { via: "cli" }, or null for a version recorded before publishers were. Catalogue templates belong to no account.
create or replace function public.template_versions_published_webhook()
returns trigger
language plpgsql
as $$
declare
  v_account uuid;
  v_alias text;
begin
  select t.owner_account_id, t.alias into v_account, v_alias from public.templates t where t.id = new.template_id;
  if v_account is not null then
    perform public.enqueue_webhook_event(
      v_account, 'template.published', null,
      jsonb_build_object('template_id', new.template_id, 'alias', v_alias, 'version', new.version, 'published_by',
                         case when new.published_via = 'api_key'
                                then jsonb_build_object('via', 'api_key', 'api_key_id', new.published_by_key_id)
                              when new.published_via is not null then jsonb_build_object('via', new.published_via)
                         end),
      now());
  end if;
  return null;
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
