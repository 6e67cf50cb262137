-- One counted email per provider idempotency key. A caller's retry under the same Idempotency-Key, after its first
-- request died between counting and handing off, finds the first request's email instead of recording and counting
-- another: the provider dedupes hand-offs under the key, so one email is delivered and it must count once, whether
-- the dispatcher's recovery of the first email runs before, during or after the retry. The email holds the key until
-- its request is answered (the Idempotency-Key record then replays the answer) or for 24 hours (the key's replay
-- window); then provider_idempotency_key is cleared, and a later request with the key is a new email. Core SQL only:
-- runs unchanged on PGlite, PostgreSQL 15 and Supabase.

-- Existing rows. A pending email whose caller's retry was recorded too (the dispatcher would give it up as superseded)
-- is given up now: marked failed, its count given back. Of two pending ones, the older is kept.
do $$
declare
  v_id uuid;
begin
  for v_id in
    select id from (
      select id, status, row_number() over (partition by account_id, provider_idempotency_key
                                            order by (status in ('sent', 'scheduled')) desc, created_at, id) as rank
      from public.sent_emails
      where provider_idempotency_key is not null and status in ('pending', 'sent', 'scheduled')
    ) ranked where rank > 1 and status = 'pending'
  loop
    perform public.fail_counted_email(v_id, 'the hand-off to the provider was interrupted; a retry of the request was sent instead');
  end loop;
end $$;

-- Emails handed over before this migration let go of their keys: their requests were answered, or the retry of one
-- that was not is left as it was (counted again).
update public.sent_emails set provider_idempotency_key = null
  where provider_idempotency_key is not null and status in ('sent', 'scheduled');

create unique index sent_emails_provider_key_idx on public.sent_emails (account_id, provider_idempotency_key)
  where provider_idempotency_key is not null and status in ('pending', 'sent', 'scheduled');

-- record_counted_email as before (20261124000300_domain_owner_and_orphaned_sends.sql), except that the email is
-- recorded first and counted after: a key already held by a pending, sent or scheduled email of the account returns
-- that email (existing_status set) and counts nothing. The unique index decides between racing requests. An email
-- still holding the key past its 24-hour replay window lets go of it first (its request's record has expired).
drop function if exists public.record_counted_email(uuid, timestamptz, integer, boolean, text, text, uuid, text, text[],
                                                     text[], text[], text[], text, text, text, jsonb, jsonb, jsonb,
                                                     timestamptz, text);
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
  p_provider_idempotency_key text
) returns table (email_id uuid, allowed boolean, used integer, is_overage boolean, billing_usage_reported boolean,
                 created_at timestamptz, existing_status text, provider_message_id text, from_address text,
                 to_addresses text[], subject text, scheduled_at timestamptz)
language plpgsql
as $$
#variable_conflict use_column
declare
  v_used integer;
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

  insert into public.sent_emails as e (account_id, template_id, status, provider, from_address, to_addresses,
                                       cc_addresses, bcc_addresses, reply_to, subject, html, text_body, headers,
                                       attachments, tags, scheduled_at, sent_at, is_overage, usage_period_start,
                                       provider_idempotency_key)
    values (p_account_id, p_template_id, p_status, p_provider, p_from, p_to, coalesce(p_cc, '{}'), coalesce(p_bcc, '{}'),
            coalesce(p_reply_to, '{}'), p_subject, p_html, p_text, coalesce(p_headers, '{}'::jsonb),
            coalesce(p_attachments, '[]'::jsonb), coalesce(p_tags, '[]'::jsonb), p_scheduled_at,
            case when p_status = 'sent' then now() end, false, p_period_start, p_provider_idempotency_key)
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

-- Only the server calls it (as 20261122000600_hot_path_functions.sql says for the others).
do $$
declare
  grantee text;
begin
  for grantee in select 'public' union all select rolname from pg_roles where rolname in ('anon', 'authenticated') loop
    execute format('revoke execute on function public.record_counted_email(uuid, timestamptz, integer, boolean, text, '
                   'text, uuid, text, text[], text[], text[], text[], text, text, text, jsonb, jsonb, jsonb, timestamptz, '
                   'text) from %s', grantee);
  end loop;
end $$;
