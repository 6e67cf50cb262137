-- Test keys' sends (issue 22): kept in the embedded outbox whatever the provider, marked test, and counted against
-- the account's test sends of the UTC day instead of the month's emails. Core SQL only: runs unchanged on PGlite,
-- PostgreSQL 15 and Supabase.

-- A test email never reaches a provider and never counts toward the month (no usage period, no overage).
alter table public.sent_emails add column if not exists test boolean not null default false;

-- Test sends of each UTC day, the counter of their daily limit (and the dashboard's chart).
alter table public.usage_daily drop constraint if exists usage_daily_metric_check;
alter table public.usage_daily add constraint usage_daily_metric_check
  check (metric in ('api_calls', 'emails', 'test_emails'));

-- record_counted_email as before (20261124005000_suppression_cancel_batch.sql), and p_test_daily_limit: null for a
-- live send; for a test send, the most test emails the account may send in a UTC day. A test email is recorded
-- (test = true) and counted against today's test sends, in this statement: past the limit it is refused (allowed =
-- false) and nothing is recorded. It leaves the month's emails, the daily emails and the overage ledger alone; `used`
-- is still the month's emails, as the answer reports them.
drop function if exists public.record_counted_email(uuid, timestamptz, integer, boolean, text, text, uuid, text, text[],
                                                     text[], text[], text[], text, text, text, jsonb, jsonb, jsonb,
                                                     timestamptz, text, text, jsonb);
create or replace function public.record_counted_email(
  p_account_id uuid,
  p_period_start timestamptz,
  p_limit integer,
  p_overage boolean,
  p_status text,
  p_provider text,
  p_template_id uuid,
  p_from text,
  p_to text[],
  p_cc text[],
  p_bcc text[],
  p_reply_to text[],
  p_subject text,
  p_html text,
  p_text text,
  p_headers jsonb,
  p_attachments jsonb,
  p_tags jsonb,
  p_scheduled_at timestamptz,
  p_provider_idempotency_key text,
  p_delivery_type text,
  p_delivery_detail jsonb,
  p_test_daily_limit integer
) returns table (email_id uuid, allowed boolean, used integer, is_overage boolean, billing_usage_reported boolean,
                 created_at timestamptz, existing_status text, provider_message_id text, from_address text,
                 to_addresses text[], subject text, scheduled_at timestamptz)
language plpgsql
as $$
#variable_conflict use_column
declare
  v_test constant boolean := p_test_daily_limit is not null;
  v_used integer;
  v_test_used integer;
  v_overage boolean;
  v_id uuid;
  v_created timestamptz;
  v_reported timestamptz;
begin
  if p_provider_idempotency_key is not null then
    update public.sent_emails e set provider_idempotency_key = null
      where e.account_id = p_account_id and e.provider_idempotency_key = p_provider_idempotency_key
        and e.status in ('pending', 'sent', 'scheduled') and e.created_at <= now() - interval '24 hours';
  end if;

  insert into public.sent_emails as e (account_id, template_id, status, delivery_status, provider, from_address,
                                       to_addresses, cc_addresses, bcc_addresses, reply_to, subject, html, text_body,
                                       headers, attachments, tags, scheduled_at, sent_at, is_overage,
                                       usage_period_start, provider_idempotency_key, test)
    values (p_account_id, p_template_id, p_status,
            coalesce(p_delivery_type, case when p_status = 'pending' then 'queued' else p_status end), p_provider,
            p_from, p_to, coalesce(p_cc, '{}'), coalesce(p_bcc, '{}'), coalesce(p_reply_to, '{}'), p_subject, p_html,
            p_text, coalesce(p_headers, '{}'::jsonb), coalesce(p_attachments, '[]'::jsonb),
            coalesce(p_tags, '[]'::jsonb), p_scheduled_at, case when p_status = 'sent' then now() end, false,
            case when not v_test then p_period_start end, p_provider_idempotency_key, v_test)
    on conflict (account_id, provider_idempotency_key)
      where provider_idempotency_key is not null and status in ('pending', 'sent', 'scheduled')
      do nothing
    returning e.id, e.created_at into v_id, v_created;

  if v_id is null then
    select c.count into v_used from public.usage_counters c
      where c.account_id = p_account_id and c.metric = 'emails' and c.period_start = p_period_start;
    return query
      select e.id, true, coalesce(v_used, 0), e.is_overage, l.reported_at is not null, e.created_at, e.status,
             e.provider_message_id, e.from_address, e.to_addresses, e.subject, e.scheduled_at
      from public.sent_emails e left join public.email_overage_ledger l on l.email_id = e.id
      where e.account_id = p_account_id and e.provider_idempotency_key = p_provider_idempotency_key
        and e.status in ('pending', 'sent', 'scheduled');
    return;
  end if;

  if v_test then
    insert into public.usage_daily as d (account_id, metric, day, count)
      select p_account_id, 'test_emails', (now() at time zone 'utc')::date, 1 where p_test_daily_limit >= 1
      on conflict (account_id, metric, day) do update set count = d.count + 1 where d.count < p_test_daily_limit
      returning d.count into v_test_used;
    select c.count into v_used from public.usage_counters c
      where c.account_id = p_account_id and c.metric = 'emails' and c.period_start = p_period_start;
    if v_test_used is null then
      delete from public.sent_emails e where e.id = v_id;
      return query select null::uuid, false, coalesce(v_used, 0), false, false, null::timestamptz, null::text,
                          null::text, null::text, null::text[], null::text, null::timestamptz;
      return;
    end if;
    perform public.record_email_first_events(v_id, p_account_id, p_status, p_delivery_type, p_delivery_detail,
                                             p_to || coalesce(p_cc, '{}') || coalesce(p_bcc, '{}'));
    return query select v_id, true, coalesce(v_used, 0), false, false, v_created, null::text, null::text, null::text,
                        null::text[], null::text, null::timestamptz;
    return;
  end if;

  insert into public.usage_counters as c (account_id, metric, period_start, count)
    values (p_account_id, 'emails', p_period_start, 1)
    on conflict (account_id, metric, period_start) do update set count = c.count + 1
      where p_overage or c.count < p_limit
    returning c.count into v_used;

  if v_used is null then
    delete from public.sent_emails e where e.id = v_id;
    select c.count into v_used from public.usage_counters c
      where c.account_id = p_account_id and c.metric = 'emails' and c.period_start = p_period_start;
    return query select null::uuid, false, coalesce(v_used, 0), false, false, null::timestamptz, null::text, null::text,
                        null::text, null::text[], null::text, null::timestamptz;
    return;
  end if;

  insert into public.usage_daily as d (account_id, metric, day, count)
    values (p_account_id, 'emails', (now() at time zone 'utc')::date, 1)
    on conflict (account_id, metric, day) do update set count = d.count + 1;

  perform public.record_email_first_events(v_id, p_account_id, p_status, p_delivery_type, p_delivery_detail,
                                           p_to || coalesce(p_cc, '{}') || coalesce(p_bcc, '{}'));

  v_overage := p_overage and v_used > p_limit;

  if v_overage then
    update public.sent_emails e set is_overage = true where e.id = v_id;
    insert into public.email_overage_ledger (account_id, email_id, period_start)
      values (p_account_id, v_id, p_period_start)
      returning reported_at into v_reported;
  end if;

  return query select v_id, true, v_used, v_overage, v_reported is not null, v_created, null::text, null::text,
                      null::text, null::text[], null::text, null::timestamptz;
end;
$$;

-- record_counted_emails as before (20261124005000_suppression_cancel_batch.sql), and p_test_daily_limit as for
-- record_counted_email: a batch of test emails counts one test send per item against today's, all or none, and
-- leaves the month's emails alone (`used` is still the month's count). test_used: today's test sends after this call
-- (null for a live batch, and when the batch was recorded already under its provider key).
drop function if exists public.record_counted_emails(uuid, timestamptz, integer, boolean, text, text, jsonb, text);
create or replace function public.record_counted_emails(
  p_account_id uuid,
  p_period_start timestamptz,
  p_limit integer,
  p_overage boolean,
  p_status text,
  p_provider text,
  p_emails jsonb,
  p_provider_idempotency_key text,
  p_test_daily_limit integer
) returns table (email_id uuid, allowed boolean, used integer, is_overage boolean, created_at timestamptz,
                 existing_status text, provider_message_id text, test_used integer)
language plpgsql
as $$
#variable_conflict use_column
declare
  v_test constant boolean := p_test_daily_limit is not null;
  v_count integer := jsonb_array_length(p_emails);
  v_keys text[];
  v_ids uuid[];
  v_used integer;
  v_test_used integer;
  v_first integer;
begin
  if p_provider_idempotency_key is not null then
    v_keys := array(select p_provider_idempotency_key || '-' || (i - 1) from generate_series(1, v_count) i);
    update public.sent_emails e set provider_idempotency_key = null
      where e.account_id = p_account_id and e.provider_idempotency_key = any(v_keys)
        and e.status in ('pending', 'sent', 'scheduled') and e.created_at <= now() - interval '24 hours';
    if exists (select 1 from public.sent_emails e
               where e.account_id = p_account_id and e.provider_idempotency_key = v_keys[1]
                 and e.status in ('pending', 'sent', 'scheduled')) then
      select c.count into v_used from public.usage_counters c
        where c.account_id = p_account_id and c.metric = 'emails' and c.period_start = p_period_start;
      return query
        select e.id, true, coalesce(v_used, 0), e.is_overage, e.created_at, e.status, e.provider_message_id,
               null::integer
        from unnest(v_keys) with ordinality k (key, i)
          join public.sent_emails e on e.account_id = p_account_id and e.provider_idempotency_key = k.key
                                   and e.status in ('pending', 'sent', 'scheduled')
        order by k.i;
      return;
    end if;
  end if;

  if v_test then
    insert into public.usage_daily as d (account_id, metric, day, count)
      select p_account_id, 'test_emails', (now() at time zone 'utc')::date, v_count where v_count <= p_test_daily_limit
      on conflict (account_id, metric, day) do update set count = d.count + v_count
        where d.count + v_count <= p_test_daily_limit
      returning d.count into v_test_used;
    select c.count into v_used from public.usage_counters c
      where c.account_id = p_account_id and c.metric = 'emails' and c.period_start = p_period_start;
    v_used := coalesce(v_used, 0);
    if v_test_used is null then
      select d.count into v_test_used from public.usage_daily d
        where d.account_id = p_account_id and d.metric = 'test_emails' and d.day = (now() at time zone 'utc')::date;
      return query select null::uuid, false, v_used, false, null::timestamptz, null::text, null::text,
                          coalesce(v_test_used, 0);
      return;
    end if;
  else
    insert into public.usage_counters as c (account_id, metric, period_start, count)
      select p_account_id, 'emails', p_period_start, v_count where p_overage or v_count <= p_limit
      on conflict (account_id, metric, period_start) do update set count = c.count + v_count
        where p_overage or c.count + v_count <= p_limit
      returning c.count into v_used;
    if v_used is null then
      select c.count into v_used from public.usage_counters c
        where c.account_id = p_account_id and c.metric = 'emails' and c.period_start = p_period_start;
      return query select null::uuid, false, coalesce(v_used, 0), false, null::timestamptz, null::text, null::text,
                          null::integer;
      return;
    end if;
    -- The batch's items are the counter's (v_first + 1)th to v_used-th emails of the period.
    v_first := v_used - v_count;

    insert into public.usage_daily as d (account_id, metric, day, count)
      values (p_account_id, 'emails', (now() at time zone 'utc')::date, v_count)
      on conflict (account_id, metric, day) do update set count = d.count + v_count;
  end if;

  v_ids := array(select gen_random_uuid() from generate_series(1, v_count));
  insert into public.sent_emails (id, account_id, template_id, status, delivery_status, provider, from_address,
                                  to_addresses, cc_addresses, bcc_addresses, reply_to, subject, html, text_body,
                                  headers, tags, sent_at, is_overage, usage_period_start, provider_idempotency_key,
                                  batch_id, batch_index, test)
    select v_ids[x.i], p_account_id, (x.m ->> 'template_id')::uuid, p_status,
           coalesce(x.m ->> 'delivery_type', case when p_status = 'pending' then 'queued' else p_status end),
           p_provider, x.m ->> 'from',
           array(select jsonb_array_elements_text(x.m -> 'to')),
           array(select jsonb_array_elements_text(coalesce(x.m -> 'cc', '[]'))),
           array(select jsonb_array_elements_text(coalesce(x.m -> 'bcc', '[]'))),
           array(select jsonb_array_elements_text(coalesce(x.m -> 'reply_to', '[]'))),
           x.m ->> 'subject', x.m ->> 'html', x.m ->> 'text', coalesce(x.m -> 'headers', '{}'),
           coalesce(x.m -> 'tags', '[]'), case when p_status = 'sent' then now() end,
           not v_test and p_overage and v_first + x.i > p_limit, case when not v_test then p_period_start end,
           v_keys[x.i], v_ids[1], x.i - 1, v_test
    from jsonb_array_elements(p_emails) with ordinality x (m, i)
    order by x.i;

  perform public.record_email_first_events(v_ids[x.i], p_account_id, p_status, x.m ->> 'delivery_type',
                                           x.m -> 'delivery_detail',
                                           array(select jsonb_array_elements_text(x.m -> 'to'))
                                             || array(select jsonb_array_elements_text(coalesce(x.m -> 'cc', '[]')))
                                             || array(select jsonb_array_elements_text(coalesce(x.m -> 'bcc', '[]'))))
    from jsonb_array_elements(p_emails) with ordinality x (m, i);

  insert into public.email_overage_ledger (account_id, email_id, period_start)
    select p_account_id, v_ids[i], p_period_start from generate_series(1, v_count) i
    where not v_test and p_overage and v_first + i > p_limit
    order by i;

  return query
    select e.id, true, v_used, e.is_overage, e.created_at, null::text, null::text, v_test_used
    from unnest(v_ids) with ordinality k (id, i) join public.sent_emails e on e.id = k.id
    order by k.i;
end;
$$;

-- cancel_email as before (20261124005000_suppression_cancel_batch.sql), and a canceled test email gives its test send
-- back to the UTC day it was recorded on (the day it counted against), as a live one gives back the month's.
create or replace function public.cancel_email(p_account_id uuid, p_email_id uuid)
returns table (canceled boolean, status text)
language plpgsql
as $$
#variable_conflict use_column
declare
  v_status text;
  v_period timestamptz;
  v_created timestamptz;
  v_overage boolean;
  v_test boolean;
  v_moved uuid;
begin
  select e.delivery_status, e.usage_period_start, e.created_at, e.is_overage, e.test
    into v_status, v_period, v_created, v_overage, v_test
    from public.sent_emails e where e.id = p_email_id and e.account_id = p_account_id for update;
  if not found then
    return query select false, null::text;
    return;
  end if;
  if v_status <> 'scheduled' then
    return query select false, v_status;
    return;
  end if;
  update public.sent_emails e set status = 'canceled', usage_period_start = null, is_overage = false
    where e.id = p_email_id;
  if v_test then
    update public.usage_daily d set count = d.count - 1
      where d.account_id = p_account_id and d.metric = 'test_emails' and d.day = (v_created at time zone 'utc')::date
        and d.count > 0;
  end if;
  if v_period is not null then
    update public.usage_counters c set count = c.count - 1
      where c.account_id = p_account_id and c.metric = 'emails' and c.period_start = v_period and c.count > 0;
    update public.usage_daily d set count = d.count - 1
      where d.account_id = p_account_id and d.metric = 'emails' and d.day = (v_created at time zone 'utc')::date
        and d.count > 0;
    if v_overage then
      update public.email_overage_ledger l set voided_at = now() where l.email_id = p_email_id and l.voided_at is null;
    else
      -- One email fewer within the plan: the period's newest overage email not reported yet is within it now.
      update public.email_overage_ledger l set voided_at = now()
        where l.id = (select l2.id from public.email_overage_ledger l2
                      where l2.account_id = p_account_id and l2.period_start = v_period and l2.voided_at is null
                        and l2.reported_at is null and (l2.report_claimed_until is null or l2.report_claimed_until <= now())
                      order by l2.created_at desc, l2.id desc limit 1)
        returning l.email_id into v_moved;
      if v_moved is not null then
        update public.sent_emails e set is_overage = false where e.id = v_moved;
      end if;
    end if;
  end if;
  perform public.apply_email_event(p_email_id, 'canceled');
  return query select true, 'canceled'::text;
end;
$$;

-- Only the server calls them (as 20261122000600_hot_path_functions.sql says for the others).
do $$
declare
  f regprocedure;
  grantee text;
begin
  for f in
    select p.oid::regprocedure from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname = 'public' and p.proname in ('record_counted_email', 'record_counted_emails', 'cancel_email')
  loop
    for grantee in select 'public' union all select rolname from pg_roles where rolname in ('anon', 'authenticated') loop
      execute format('revoke execute on function %s from %s', f, grantee);
    end loop;
  end loop;
end $$;
