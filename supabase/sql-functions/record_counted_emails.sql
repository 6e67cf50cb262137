-- POST /send/batch: counts p_emails (a JSON array of messages, in the request's order) against the quota and records
-- them, atomically, as record_counted_email does one: p_quota, p_status and p_provider as there, and each message with
-- the keys of record_counted_email's p_email and its body as html and text_body (batches carry no attachments and no
-- delivery time).
--
-- Live: without overage the whole batch fits in what is left of the month or nothing is counted or recorded
-- (allowed = false, one row); with overage, the items past the limit are overage, each with its ledger entry. Test: the
-- batch counts one test send per item against today's, all or none, and leaves the month's emails alone (`used` is
-- still the month's count). test_used: today's test sends after this call (null for a live batch, and when the batch
-- was recorded already under its provider key).
--
-- The emails are handed to the provider together, under one key (the first email's id is the batch's, batch_id), so
-- an interrupted hand-off is retried together. p_provider_idempotency_key (derived from the caller's Idempotency-Key)
-- keys item i as `<key>-<i>`: when the account still holds those emails (the first attempt of a retried request
-- recorded them), they are returned (existing_status set) and nothing is counted or recorded. One row per email, in
-- the request's order.

-- As 20261124007000_test_sends.sql made it, it took the quota's values one by one, nine parameters: that goes.
drop function if exists public.record_counted_emails(uuid, timestamptz, integer, boolean, text, text, jsonb, text,
                                                      integer);

create or replace function public.record_counted_emails(
  p_account_id uuid,
  p_quota jsonb,
  p_status text,
  p_provider text,
  p_emails jsonb,
  p_provider_idempotency_key text
) returns table (email_id uuid, allowed boolean, used integer, is_overage boolean, created_at timestamptz,
                 existing_status text, provider_message_id text, test_used integer)
language plpgsql
as $$
#variable_conflict use_column
declare
  q record;
  v_test boolean;
  v_count integer := jsonb_array_length(p_emails);
  v_keys text[];
  v_ids uuid[];
  v_used integer;
  v_test_used integer;
  v_first integer;
begin
  select * into q from jsonb_to_record(p_quota)
    as x (period_start timestamptz, monthly_limit integer, overage boolean, test_daily_limit integer);
  v_test := q.test_daily_limit is not null;

  if p_provider_idempotency_key is not null then
    v_keys := array(select p_provider_idempotency_key || '-' || (i - 1) from generate_series(1, v_count) i);
    update public.sent_emails e set provider_idempotency_key = null
      where e.account_id = p_account_id and e.provider_idempotency_key = any(v_keys)
        and e.status in ('pending', 'sent', 'scheduled') and e.created_at <= now() - interval '24 hours';
    if exists (select 1 from public.sent_emails e
               where e.account_id = p_account_id and e.provider_idempotency_key = v_keys[1]
                 and e.status in ('pending', 'sent', 'scheduled')) then
      select c.count into v_used from public.usage_counters c
        where c.account_id = p_account_id and c.metric = 'emails' and c.period_start = q.period_start;
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
      select p_account_id, 'test_emails', (now() at time zone 'utc')::date, v_count where v_count <= q.test_daily_limit
      on conflict (account_id, metric, day) do update set count = d.count + v_count
        where d.count + v_count <= q.test_daily_limit
      returning d.count into v_test_used;
    select c.count into v_used from public.usage_counters c
      where c.account_id = p_account_id and c.metric = 'emails' and c.period_start = q.period_start;
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
      select p_account_id, 'emails', q.period_start, v_count where q.overage or v_count <= q.monthly_limit
      on conflict (account_id, metric, period_start) do update set count = c.count + v_count
        where q.overage or c.count + v_count <= q.monthly_limit
      returning c.count into v_used;
    if v_used is null then
      select c.count into v_used from public.usage_counters c
        where c.account_id = p_account_id and c.metric = 'emails' and c.period_start = q.period_start;
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
  insert into public.sent_emails (id, account_id, template_id, template_version, locale, status, delivery_status,
                                  provider,
                                  from_address,
                                  to_addresses, cc_addresses, bcc_addresses, reply_to, subject, html, text_body,
                                  headers, tags, sent_at, is_overage, usage_period_start, provider_idempotency_key,
                                  batch_id, batch_index, test)
    select v_ids[x.i], p_account_id, (x.m ->> 'template_id')::uuid, x.m ->> 'template_version', x.m ->> 'locale',
           p_status,
           coalesce(x.m ->> 'delivery_type', case when p_status = 'pending' then 'queued' else p_status end),
           p_provider, x.m ->> 'from_address',
           array(select jsonb_array_elements_text(x.m -> 'to_addresses')),
           array(select jsonb_array_elements_text(coalesce(x.m -> 'cc_addresses', '[]'))),
           array(select jsonb_array_elements_text(coalesce(x.m -> 'bcc_addresses', '[]'))),
           array(select jsonb_array_elements_text(coalesce(x.m -> 'reply_to', '[]'))),
           x.m ->> 'subject', x.m ->> 'html', x.m ->> 'text_body', coalesce(x.m -> 'headers', '{}'),
           coalesce(x.m -> 'tags', '[]'), case when p_status = 'sent' then now() end,
           not v_test and q.overage and v_first + x.i > q.monthly_limit, case when not v_test then q.period_start end,
           v_keys[x.i], v_ids[1], x.i - 1, v_test
    from jsonb_array_elements(p_emails) with ordinality x (m, i)
    order by x.i;

  perform public.record_email_first_events(
            v_ids[x.i], p_account_id, p_status, x.m ->> 'delivery_type', x.m -> 'delivery_detail',
            array(select jsonb_array_elements_text(x.m -> 'to_addresses'))
              || array(select jsonb_array_elements_text(coalesce(x.m -> 'cc_addresses', '[]')))
              || array(select jsonb_array_elements_text(coalesce(x.m -> 'bcc_addresses', '[]'))))
    from jsonb_array_elements(p_emails) with ordinality x (m, i);

  insert into public.email_overage_ledger (account_id, email_id, period_start)
    select p_account_id, v_ids[i], q.period_start from generate_series(1, v_count) i
    where not v_test and q.overage and v_first + i > q.monthly_limit
    order by i;

  return query
    select e.id, true, v_used, e.is_overage, e.created_at, null::text, null::text, v_test_used
    from unnest(v_ids) with ordinality k (id, i) join public.sent_emails e on e.id = k.id
    order by k.i;
end;
$$;
