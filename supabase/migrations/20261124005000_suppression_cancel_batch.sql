-- Suppression, cancel and batch (issue 21), and an email's first events written by the statement that records it.
-- Core SQL only: runs unchanged on PGlite, PostgreSQL 15 and Supabase.

-- A canceled email leaves the hand-off's states too: the dispatcher and the billing reporter skip it.
alter table public.sent_emails drop constraint if exists sent_emails_status_check;
alter table public.sent_emails add constraint sent_emails_status_check
  check (status in ('pending', 'sent', 'scheduled', 'failed', 'canceled'));

-- An overage entry whose email was canceled stays in the ledger, voided: it is never reported.
alter table public.email_overage_ledger add column if not exists voided_at timestamptz;

-- The emails of one POST /send/batch: handed to the provider together, under one key, so an interrupted hand-off is
-- retried together (the first email's id is the batch's). batch_index is the email's place in the request.
alter table public.sent_emails add column if not exists batch_id uuid;
alter table public.sent_emails add column if not exists batch_index integer;

-- Addresses the account may not send to: one hard bounce or complaint puts an address here, until the user removes it.
create table public.email_suppressions (
  account_id uuid not null references public.accounts (id) on delete cascade,
  -- Lower-cased: the same mailbox however a request spells it.
  email text not null,
  reason text not null check (reason in ('bounced', 'complained')),
  -- The email that bounced or was complained about.
  email_id uuid references public.sent_emails (id) on delete set null,
  created_at timestamptz not null default now(),
  primary key (account_id, email)
);
-- Deleting an email (a refused send, an account's removal) finds its suppressions by this.
create index email_suppressions_email_idx on public.email_suppressions (email_id) where email_id is not null;

do $$
begin
  alter table public.email_suppressions enable row level security;
  if exists (select 1 from pg_roles where rolname = 'anon') then
    revoke all on public.email_suppressions from anon;
  end if;
  if exists (select 1 from pg_roles where rolname = 'authenticated') then
    revoke all on public.email_suppressions from authenticated;
  end if;
end $$;

-- Suppresses the recipient of a hard bounce or a complaint: the one the event names (detail.recipient), else the
-- email's only recipient. A provider reporting an email with several recipients bounced does not say which one did
-- (Resend's event lists the whole `to`), so none is suppressed: only an address known to have bounced is. A soft
-- bounce (detail.bounce_type other than 'hard') suppresses nothing. An address suppressed already keeps its first
-- entry (the date users are told).
create or replace function public.suppress_email_recipients(
  p_account_id uuid,
  p_email_id uuid,
  p_type text,
  p_detail jsonb,
  p_recipients text[]
) returns void
language sql
as $$
  insert into public.email_suppressions (account_id, email, reason, email_id)
    select p_account_id, lower(r), p_type, p_email_id
    from (select case
            when jsonb_typeof(p_detail -> 'recipient') = 'string' then p_detail ->> 'recipient'
            when cardinality(p_recipients) = 1 then p_recipients[1]
          end as r) x
    where (p_type = 'complained' or (p_type = 'bounced' and coalesce(p_detail ->> 'bounce_type', 'hard') = 'hard'))
      and length(r) between 3 and 320
    on conflict (account_id, email) do nothing;
$$;

-- apply_email_event as before (20261124004000_email_events.sql), and a hard bounce or complaint suppresses its
-- recipient for the email's account, whatever the status became (a bounce reported after a failure still bounced).
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
  return query select true, v_next;
end;
$$;

-- An email's first events, in order: its hand-off's (sent or scheduled; none while pending), then what the embedded
-- outbox reports of it (delivered, bounced or complained), which may suppress its recipients.
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
  if p_delivery_type in ('bounced', 'complained') then
    perform public.suppress_email_recipients(p_account_id, p_email_id, p_delivery_type, p_delivery_detail,
                                             p_recipients);
  end if;
end;
$$;

-- record_counted_email as before (20261124001000_one_email_per_provider_key.sql), and the email starts in its status
-- with its first events: p_delivery_type / p_delivery_detail are what the embedded outbox reports of a message it
-- records as sent (null otherwise).
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
  p_provider_idempotency_key text,
  p_delivery_type text,
  p_delivery_detail jsonb
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

  insert into public.sent_emails as e (account_id, template_id, status, delivery_status, provider, from_address,
                                       to_addresses, cc_addresses, bcc_addresses, reply_to, subject, html, text_body,
                                       headers, attachments, tags, scheduled_at, sent_at, is_overage,
                                       usage_period_start, provider_idempotency_key)
    values (p_account_id, p_template_id, p_status,
            coalesce(p_delivery_type, case when p_status = 'pending' then 'queued' else p_status end), p_provider,
            p_from, p_to, coalesce(p_cc, '{}'), coalesce(p_bcc, '{}'), coalesce(p_reply_to, '{}'), p_subject, p_html,
            p_text, coalesce(p_headers, '{}'::jsonb), coalesce(p_attachments, '[]'::jsonb),
            coalesce(p_tags, '[]'::jsonb), p_scheduled_at, case when p_status = 'sent' then now() end, false,
            p_period_start, p_provider_idempotency_key)
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

-- POST /send/batch: counts p_emails (a JSON array of messages, in the request's order) against the month's quota and
-- records them, atomically. Without overage the whole batch fits in what is left or nothing is counted or recorded
-- (allowed = false, one row). With overage, the items past the limit are overage, each with its ledger entry.
-- p_provider_idempotency_key (the caller's Idempotency-Key, as providerIdempotencyKey) keys item i as `<key>-<i>`:
-- when the account still holds those emails (the first attempt of a retried request recorded them), they are returned
-- (existing_status set) and nothing is counted or recorded. One row per email, in the request's order.
-- A message: { template_id, from, to, cc, bcc, reply_to, subject, html, text, headers, tags, delivery_type,
-- delivery_detail } (batches carry no attachments and no delivery time).
create or replace function public.record_counted_emails(
  p_account_id uuid,
  p_period_start timestamptz,
  p_limit integer,
  p_overage boolean,
  p_status text,
  p_provider text,
  p_emails jsonb,
  p_provider_idempotency_key text
) returns table (email_id uuid, allowed boolean, used integer, is_overage boolean, created_at timestamptz,
                 existing_status text, provider_message_id text)
language plpgsql
as $$
#variable_conflict use_column
declare
  v_count integer := jsonb_array_length(p_emails);
  v_keys text[];
  v_ids uuid[];
  v_used integer;
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
        select e.id, true, coalesce(v_used, 0), e.is_overage, e.created_at, e.status, e.provider_message_id
        from unnest(v_keys) with ordinality k (key, i)
          join public.sent_emails e on e.account_id = p_account_id and e.provider_idempotency_key = k.key
                                   and e.status in ('pending', 'sent', 'scheduled')
        order by k.i;
      return;
    end if;
  end if;

  insert into public.usage_counters as c (account_id, metric, period_start, count)
    select p_account_id, 'emails', p_period_start, v_count where p_overage or v_count <= p_limit
    on conflict (account_id, metric, period_start) do update set count = c.count + v_count
      where p_overage or c.count + v_count <= p_limit
    returning c.count into v_used;
  if v_used is null then
    select c.count into v_used from public.usage_counters c
      where c.account_id = p_account_id and c.metric = 'emails' and c.period_start = p_period_start;
    return query select null::uuid, false, coalesce(v_used, 0), false, null::timestamptz, null::text, null::text;
    return;
  end if;
  -- The batch's items are the counter's (v_first + 1)th to v_used-th emails of the period.
  v_first := v_used - v_count;

  insert into public.usage_daily as d (account_id, metric, day, count)
    values (p_account_id, 'emails', (now() at time zone 'utc')::date, v_count)
    on conflict (account_id, metric, day) do update set count = d.count + v_count;

  v_ids := array(select gen_random_uuid() from generate_series(1, v_count));
  insert into public.sent_emails (id, account_id, template_id, status, delivery_status, provider, from_address,
                                  to_addresses, cc_addresses, bcc_addresses, reply_to, subject, html, text_body,
                                  headers, tags, sent_at, is_overage, usage_period_start, provider_idempotency_key,
                                  batch_id, batch_index)
    select v_ids[x.i], p_account_id, (x.m ->> 'template_id')::uuid, p_status,
           coalesce(x.m ->> 'delivery_type', case when p_status = 'pending' then 'queued' else p_status end),
           p_provider, x.m ->> 'from',
           array(select jsonb_array_elements_text(x.m -> 'to')),
           array(select jsonb_array_elements_text(coalesce(x.m -> 'cc', '[]'))),
           array(select jsonb_array_elements_text(coalesce(x.m -> 'bcc', '[]'))),
           array(select jsonb_array_elements_text(coalesce(x.m -> 'reply_to', '[]'))),
           x.m ->> 'subject', x.m ->> 'html', x.m ->> 'text', coalesce(x.m -> 'headers', '{}'),
           coalesce(x.m -> 'tags', '[]'), case when p_status = 'sent' then now() end,
           p_overage and v_first + x.i > p_limit, p_period_start, v_keys[x.i], v_ids[1], x.i - 1
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
    where p_overage and v_first + i > p_limit
    order by i;

  return query
    select e.id, true, v_used, e.is_overage, e.created_at, null::text, null::text
    from unnest(v_ids) with ordinality k (id, i) join public.sent_emails e on e.id = k.id
    order by k.i;
end;
$$;

-- POST /emails/{id}/cancel: a scheduled email of the account becomes canceled and stops counting: the month's email
-- count goes back down (its period's counter and its day's), and its overage ledger entry is voided (or, when it was
-- within the plan, the newest unreported overage entry of the period is). The row is
-- locked, so a cancel racing the dispatcher or another cancel acts once. canceled: whether this call canceled it;
-- status: the email's status after the call (null when the account has no such email).
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
  v_moved uuid;
begin
  select e.delivery_status, e.usage_period_start, e.created_at, e.is_overage
    into v_status, v_period, v_created, v_overage
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

-- send_context as before (20261124003000_variables_schema.sql), and which of p_recipients (lower-cased) the account
-- has suppressed: POST /send refuses them before rendering, in the same round trip.
drop function if exists public.send_context(uuid, uuid);
create function public.send_context(p_account_id uuid, p_template_id uuid, p_recipients text[])
returns table (sender_domains json, suppressed json, id uuid, owner_account_id uuid, slug text, version integer,
               compiled_code text, variables json)
language plpgsql stable
as $$
#variable_conflict use_column
begin
  return query
    select d.sender_domains, s.suppressed, tl.* from (
      select coalesce(json_agg(json_build_object(
               'id', s.id, 'domain', s.domain, 'verified', s.verified, 'default_sender', s.default_sender,
               'created_at', s.created_at, 'verified_at', s.verified_at, 'provider_status', s.provider_status)
               order by s.created_at), '[]'::json) as sender_domains
      from public.sending_domains s where s.account_id = p_account_id
    ) d cross join (
      select coalesce(json_agg(json_build_object('email', x.email, 'reason', x.reason, 'created_at', x.created_at)),
                      '[]'::json) as suppressed
      from public.email_suppressions x where x.account_id = p_account_id and x.email = any(p_recipients)
    ) s left join lateral (
      select t.id, t.owner_account_id, t.slug, t.version, t.compiled_code, t.variables
      from public.library_entries l join public.templates t on t.id = l.template_id
      where l.account_id = p_account_id and l.template_id = p_template_id
    ) tl on true;
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
    where n.nspname = 'public' and p.proname in ('suppress_email_recipients', 'apply_email_event',
                                                 'record_email_first_events', 'record_counted_email',
                                                 'record_counted_emails', 'cancel_email', 'send_context')
  loop
    for grantee in select 'public' union all select rolname from pg_roles where rolname in ('anon', 'authenticated') loop
      execute format('revoke execute on function %s from %s', f, grantee);
    end loop;
  end loop;
end $$;
