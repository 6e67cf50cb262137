-- POST /send: counts one email against its quota and records it, in one statement and one transaction, so the message
-- exists before anyone hands it to a provider and concurrent sends never exceed the limit.
--
-- p_quota: { period_start, monthly_limit, overage, test_daily_limit }, from the application's plan table. Without
-- overage, a send past the monthly limit is refused (allowed = false) and nothing is counted or recorded. With
-- overage, it is counted, flagged is_overage and written to the billing ledger. test_daily_limit is null for a live
-- send; for a test key's send it is the most test emails the account may send in a UTC day: the email is recorded
-- (test = true) and counted against today's test sends instead, refused past that limit, and leaves the month's
-- emails, the daily emails and the overage ledger alone (`used` is still the month's emails, as the answer reports
-- them).
--
-- p_status is 'pending' for an external provider, or 'sent' / 'scheduled' for the embedded outbox, whose record is the
-- delivery. p_email is the message without its body: its sent_emails columns (template_id, template_version, locale,
-- from_address, to_addresses, cc_addresses, bcc_addresses, reply_to, subject, headers, attachments, tags, scheduled_at)
-- and, for a message the embedded outbox records as sent, what the outbox reports of it (delivery_type,
-- delivery_detail). The body, p_html and p_text, comes as text: inside the JSON the database would parse it too
-- (75 µs more a send of the 8 KB welcome email, measured on PostgreSQL 15). The email starts in its status with its first events (record_email_first_events), not
-- in a second write of the row.
--
-- One email per p_provider_idempotency_key: the email is recorded first and counted after, so a key already held by a
-- pending, sent or scheduled email of the account returns that email (existing_status set) and counts nothing; the
-- unique index sent_emails_provider_key_idx decides between racing requests. An email still holding the key past its
-- 24-hour replay window lets go of it first (its request's record has expired).

-- As 20261124007000_test_sends.sql made it, it took the quota's and the message's 23 values one by one: that goes.
drop function if exists public.record_counted_email(uuid, timestamptz, integer, boolean, text, text, uuid, text, text[],
                                                     text[], text[], text[], text, text, text, jsonb, jsonb, jsonb,
                                                     timestamptz, text, text, jsonb, integer);

create or replace function public.record_counted_email(
  p_account_id uuid,
  p_quota jsonb,
  p_status text,
  p_provider text,
  p_email jsonb,
  p_html text,
  p_text text,
  p_provider_idempotency_key text
) returns table (email_id uuid, allowed boolean, used integer, is_overage boolean, billing_usage_reported boolean,
                 created_at timestamptz, existing_status text, provider_message_id text, from_address text,
                 to_addresses text[], subject text, scheduled_at timestamptz)
language plpgsql
as $$
#variable_conflict use_column
declare
  q record;
  m record;
  v_test boolean;
  v_used integer;
  v_test_used integer;
  v_overage boolean;
  v_id uuid;
  v_created timestamptz;
  v_reported timestamptz;
begin
  select * into q from jsonb_to_record(p_quota)
    as x (period_start timestamptz, monthly_limit integer, overage boolean, test_daily_limit integer);
  select * into m from jsonb_to_record(p_email)
    as x (template_id uuid, template_version text, locale text, from_address text, to_addresses text[], cc_addresses text[], bcc_addresses text[],
          reply_to text[], subject text, headers jsonb, attachments jsonb, tags jsonb, scheduled_at timestamptz,
          delivery_type text, delivery_detail jsonb);
  v_test := q.test_daily_limit is not null;

  if p_provider_idempotency_key is not null then
    update public.sent_emails e set provider_idempotency_key = null
      where e.account_id = p_account_id and e.provider_idempotency_key = p_provider_idempotency_key
        and e.status in ('pending', 'sent', 'scheduled') and e.created_at <= now() - interval '24 hours';
  end if;

  insert into public.sent_emails as e (account_id, template_id, template_version, locale, status, delivery_status, provider, from_address,
                                       to_addresses, cc_addresses, bcc_addresses, reply_to, subject, html, text_body,
                                       headers, attachments, tags, scheduled_at, sent_at, is_overage,
                                       usage_period_start, provider_idempotency_key, test)
    values (p_account_id, m.template_id, m.template_version, m.locale, p_status,
            coalesce(m.delivery_type, case when p_status = 'pending' then 'queued' else p_status end), p_provider,
            m.from_address, m.to_addresses, coalesce(m.cc_addresses, '{}'), coalesce(m.bcc_addresses, '{}'),
            coalesce(m.reply_to, '{}'), m.subject, p_html, p_text, coalesce(m.headers, '{}'::jsonb),
            coalesce(m.attachments, '[]'::jsonb), coalesce(m.tags, '[]'::jsonb), m.scheduled_at,
            case when p_status = 'sent' then now() end, false, case when not v_test then q.period_start end,
            p_provider_idempotency_key, v_test)
    on conflict (account_id, provider_idempotency_key)
      where provider_idempotency_key is not null and status in ('pending', 'sent', 'scheduled')
      do nothing
    returning e.id, e.created_at into v_id, v_created;

  if v_id is null then
    select c.count into v_used from public.usage_counters c
      where c.account_id = p_account_id and c.metric = 'emails' and c.period_start = q.period_start;
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
      select p_account_id, 'test_emails', (now() at time zone 'utc')::date, 1 where q.test_daily_limit >= 1
      on conflict (account_id, metric, day) do update set count = d.count + 1 where d.count < q.test_daily_limit
      returning d.count into v_test_used;
    select c.count into v_used from public.usage_counters c
      where c.account_id = p_account_id and c.metric = 'emails' and c.period_start = q.period_start;
    if v_test_used is null then
      delete from public.sent_emails e where e.id = v_id;
      return query select null::uuid, false, coalesce(v_used, 0), false, false, null::timestamptz, null::text,
                          null::text, null::text, null::text[], null::text, null::timestamptz;
      return;
    end if;
    perform public.record_email_first_events(v_id, p_account_id, p_status, m.delivery_type, m.delivery_detail,
                                             m.to_addresses || coalesce(m.cc_addresses, '{}')
                                               || coalesce(m.bcc_addresses, '{}'));
    return query select v_id, true, coalesce(v_used, 0), false, false, v_created, null::text, null::text, null::text,
                        null::text[], null::text, null::timestamptz;
    return;
  end if;

  insert into public.usage_counters as c (account_id, metric, period_start, count)
    values (p_account_id, 'emails', q.period_start, 1)
    on conflict (account_id, metric, period_start) do update set count = c.count + 1
      where q.overage or c.count < q.monthly_limit
    returning c.count into v_used;

  if v_used is null then
    delete from public.sent_emails e where e.id = v_id;
    select c.count into v_used from public.usage_counters c
      where c.account_id = p_account_id and c.metric = 'emails' and c.period_start = q.period_start;
    return query select null::uuid, false, coalesce(v_used, 0), false, false, null::timestamptz, null::text, null::text,
                        null::text, null::text[], null::text, null::timestamptz;
    return;
  end if;

  insert into public.usage_daily as d (account_id, metric, day, count)
    values (p_account_id, 'emails', (now() at time zone 'utc')::date, 1)
    on conflict (account_id, metric, day) do update set count = d.count + 1;

  perform public.record_email_first_events(v_id, p_account_id, p_status, m.delivery_type, m.delivery_detail,
                                           m.to_addresses || coalesce(m.cc_addresses, '{}')
                                             || coalesce(m.bcc_addresses, '{}'));

  v_overage := q.overage and v_used > q.monthly_limit;

  if v_overage then
    update public.sent_emails e set is_overage = true where e.id = v_id;
    insert into public.email_overage_ledger (account_id, email_id, period_start)
      values (p_account_id, v_id, q.period_start)
      returning reported_at into v_reported;
  end if;

  return query select v_id, true, v_used, v_overage, v_reported is not null, v_created, null::text, null::text,
                      null::text, null::text[], null::text, null::timestamptz;
end;
$$;
