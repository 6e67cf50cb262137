-- Sending: the email quota (counted atomically together with the message's record), the overage billing ledger,
-- idempotency keys, and what the scheduled-outbox dispatcher needs. Core SQL only: runs unchanged on PGlite,
-- PostgreSQL 15 and Supabase.

-- The billing period an email was counted in; null when it was not counted (refused, or given back on failure).
alter table public.sent_emails add column if not exists usage_period_start timestamptz;

-- One row per email sent past a paid plan's monthly limit. `reported_at` is set once a payment processor has
-- acknowledged the usage record; until then the overage is owed but not yet billed.
create table public.email_overage_ledger (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references public.accounts (id) on delete cascade,
  -- Kept when the message row is deleted: the charge stands.
  email_id uuid unique references public.sent_emails (id) on delete set null,
  period_start timestamptz not null,
  quantity integer not null default 1 check (quantity > 0),
  created_at timestamptz not null default now(),
  processor text,
  processor_ref text,
  reported_at timestamptz
);
create index email_overage_ledger_account_idx on public.email_overage_ledger (account_id, period_start);
create index email_overage_ledger_unreported_idx on public.email_overage_ledger (created_at) where reported_at is null;

-- Idempotency-Key records, per account and endpoint (`scope`). The primary key is what claims a key: of two racing
-- requests exactly one inserts the row; the other reads it. `token` identifies the claim, so only its holder can
-- complete or release it.
create table public.idempotency_keys (
  account_id uuid not null references public.accounts (id) on delete cascade,
  scope text not null,
  key text not null check (char_length(key) between 1 and 256),
  request_hash text not null,
  token uuid not null,
  status text not null check (status in ('in_flight', 'completed')),
  response_status integer,
  -- json, not jsonb: the replay is the first response byte for byte, keys in their original order.
  response_body json,
  created_at timestamptz not null default now(),
  completed_at timestamptz,
  primary key (account_id, scope, key)
);
create index idempotency_keys_created_idx on public.idempotency_keys (created_at);

do $$
declare t text;
begin
  foreach t in array array['email_overage_ledger', 'idempotency_keys'] loop
    execute format('alter table public.%I enable row level security', t);
    if exists (select 1 from pg_roles where rolname = 'anon') then
      execute format('revoke all on public.%I from anon', t);
    end if;
    if exists (select 1 from pg_roles where rolname = 'authenticated') then
      execute format('revoke all on public.%I from authenticated', t);
    end if;
  end loop;
end $$;

-- Counts one email against the month's quota and records the message, in one statement and one transaction, so the
-- message exists before anyone hands it to a provider and concurrent sends never exceed the limit. p_limit and
-- p_overage come from the application's plan table. Without overage, a send past the limit is refused
-- (allowed = false) and nothing is counted or recorded. With overage, it is counted, flagged is_overage and written
-- to the billing ledger. p_status is 'pending' for an external provider, or 'sent' / 'scheduled' for the embedded
-- outbox, whose record is the delivery.
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
  p_scheduled_at timestamptz
) returns table (email_id uuid, allowed boolean, used integer, is_overage boolean, billing_usage_reported boolean, created_at timestamptz)
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
  insert into public.usage_counters as c (account_id, metric, period_start, count)
    values (p_account_id, 'emails', p_period_start, 1)
    on conflict (account_id, metric, period_start) do update set count = c.count + 1
      where p_overage or c.count < p_limit
    returning c.count into v_used;

  if v_used is null then
    select c.count into v_used from public.usage_counters c
      where c.account_id = p_account_id and c.metric = 'emails' and c.period_start = p_period_start;
    return query select null::uuid, false, coalesce(v_used, 0), false, false, null::timestamptz;
    return;
  end if;

  insert into public.usage_daily as d (account_id, metric, day, count)
    values (p_account_id, 'emails', (now() at time zone 'utc')::date, 1)
    on conflict (account_id, metric, day) do update set count = d.count + 1;

  v_overage := p_overage and v_used > p_limit;

  insert into public.sent_emails (account_id, template_id, status, provider, from_address, to_addresses, cc_addresses,
                                  bcc_addresses, reply_to, subject, html, text_body, headers, attachments, tags,
                                  scheduled_at, sent_at, is_overage, usage_period_start)
    values (p_account_id, p_template_id, p_status, p_provider, p_from, p_to, coalesce(p_cc, '{}'), coalesce(p_bcc, '{}'),
            coalesce(p_reply_to, '{}'), p_subject, p_html, p_text, coalesce(p_headers, '{}'::jsonb),
            coalesce(p_attachments, '[]'::jsonb), coalesce(p_tags, '[]'::jsonb), p_scheduled_at,
            case when p_status = 'sent' then now() end, v_overage, p_period_start)
    returning id, created_at into v_id, v_created;

  if v_overage then
    insert into public.email_overage_ledger (account_id, email_id, period_start)
      values (p_account_id, v_id, p_period_start)
      returning reported_at into v_reported;
  end if;

  return query select v_id, true, v_used, v_overage, v_reported is not null, v_created;
end;
$$;

-- The provider refused or timed out: the message is kept as failed and its count is given back (monthly and daily
-- counters, and its overage charge). Only a pending message can fail, so giving back happens at most once.
create or replace function public.fail_counted_email(p_email_id uuid, p_error text)
returns boolean
language plpgsql
as $$
declare
  v_account uuid;
  v_period timestamptz;
  v_created timestamptz;
begin
  select e.account_id, e.usage_period_start, e.created_at into v_account, v_period, v_created
    from public.sent_emails e where e.id = p_email_id and e.status = 'pending' for update;
  if not found then
    return false;
  end if;
  update public.sent_emails
    set status = 'failed', error = p_error, usage_period_start = null, is_overage = false
    where id = p_email_id;
  if v_period is not null then
    update public.usage_counters set count = count - 1
      where account_id = v_account and metric = 'emails' and period_start = v_period and count > 0;
    update public.usage_daily set count = count - 1
      where account_id = v_account and metric = 'emails' and day = (v_created at time zone 'utc')::date and count > 0;
    delete from public.email_overage_ledger where email_id = p_email_id;
  end if;
  return true;
end;
$$;

-- Claims an Idempotency-Key for one request, or reports who holds it. A record older than p_ttl is expired and is
-- claimed afresh; so is an in-flight claim older than p_stale (its request died without finishing).
-- claimed = true: the caller owns the key (with p_token) and must complete or release it.
-- claimed = false: the current record, to compare request_hash and replay or wait.
create or replace function public.claim_idempotency_key(
  p_account_id uuid,
  p_scope text,
  p_key text,
  p_request_hash text,
  p_token uuid,
  p_ttl interval,
  p_stale interval
) returns table (claimed boolean, request_hash text, status text, response_status integer, response_body json)
language plpgsql
as $$
#variable_conflict use_column
declare
  v_row public.idempotency_keys%rowtype;
begin
  for attempt in 1..5 loop
    insert into public.idempotency_keys as k (account_id, scope, key, request_hash, token, status)
      values (p_account_id, p_scope, p_key, p_request_hash, p_token, 'in_flight')
      on conflict (account_id, scope, key) do update set
        request_hash = excluded.request_hash, token = excluded.token, status = 'in_flight',
        response_status = null, response_body = null, created_at = now(), completed_at = null
        where k.created_at <= now() - p_ttl or (k.status = 'in_flight' and k.created_at <= now() - p_stale)
      returning k.* into v_row;
    if found then
      return query select true, v_row.request_hash, v_row.status, null::integer, null::json;
      return;
    end if;
    select k.* into v_row from public.idempotency_keys k
      where k.account_id = p_account_id and k.scope = p_scope and k.key = p_key;
    if found then
      return query select false, v_row.request_hash, v_row.status, v_row.response_status, v_row.response_body;
      return;
    end if;
    -- Released between the two statements: try to claim it again.
  end loop;
  raise exception 'could not claim idempotency key %', p_key;
end;
$$;
