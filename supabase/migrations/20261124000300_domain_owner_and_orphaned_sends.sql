-- A sending domain belongs to one account, and a counted email whose hand-off to the provider was cut off (the server
-- died between counting it and handing it over) can be handed over again or given back. Core SQL only: runs
-- unchanged on PGlite, PostgreSQL 15 and Supabase.

-- ---------------------------------------------------------------------------------------------------------------
-- Sending domains: one account per domain (any case).

-- Rows removed because another account holds the same domain, kept for the operator (who may hand a domain over).
create table public.released_sending_domains (
  id uuid primary key,
  account_id uuid not null references public.accounts (id) on delete cascade,
  domain text not null,
  verified boolean not null,
  default_sender text,
  provider_domain_id text,
  provider_status text,
  created_at timestamptz not null,
  verified_at timestamptz,
  kept_by_account_id uuid,
  released_at timestamptz not null default now()
);

alter table public.released_sending_domains enable row level security;
do $$
begin
  if exists (select 1 from pg_roles where rolname = 'anon') then
    revoke all on public.released_sending_domains from anon;
  end if;
  if exists (select 1 from pg_roles where rolname = 'authenticated') then
    revoke all on public.released_sending_domains from authenticated;
  end if;
end $$;

-- A database with the same domain on several accounts keeps it on one: the one Resend verified, else one verified
-- locally, else the oldest. The others move to released_sending_domains, so the unique index below can be built.
with ranked as (
  select id,
         row_number() over owners as rank,
         first_value(account_id) over owners as keeper
  from public.sending_domains
  window owners as (partition by lower(domain)
                    order by coalesce(provider_status = 'verified', false) desc, verified desc, created_at, id)
), released as (
  delete from public.sending_domains d using ranked r
  where d.id = r.id and r.rank > 1
  returning d.id, d.account_id, d.domain, d.verified, d.default_sender, d.provider_domain_id, d.provider_status,
            d.created_at, d.verified_at, r.keeper
)
insert into public.released_sending_domains (id, account_id, domain, verified, default_sender, provider_domain_id,
                                             provider_status, created_at, verified_at, kept_by_account_id)
  select id, account_id, domain, verified, default_sender, provider_domain_id, provider_status, created_at, verified_at,
         keeper
  from released;

create unique index sending_domains_domain_key on public.sending_domains (lower(domain));

-- send_context as before (20261122000600_hot_path_functions.sql), and each domain carries Resend's status: with Resend
-- configured only its verification counts, not one made while DNS was simulated.
create or replace function public.send_context(p_account_id uuid, p_template_id uuid)
returns table (sender_domains json, id uuid, owner_account_id uuid, slug text, version integer, compiled_code text, variables jsonb)
language plpgsql stable
as $$
#variable_conflict use_column
begin
  return query
    select d.sender_domains, tl.* from (
      select coalesce(json_agg(json_build_object(
               'id', s.id, 'domain', s.domain, 'verified', s.verified, 'default_sender', s.default_sender,
               'created_at', s.created_at, 'verified_at', s.verified_at, 'provider_status', s.provider_status)
               order by s.created_at), '[]'::json) as sender_domains
      from public.sending_domains s where s.account_id = p_account_id
    ) d left join lateral (
      select t.id, t.owner_account_id, t.slug, t.version, t.compiled_code, t.variables
      from public.library_entries l join public.templates t on t.id = l.template_id
      where l.account_id = p_account_id and l.template_id = p_template_id
    ) tl on true;
end;
$$;

-- ---------------------------------------------------------------------------------------------------------------
-- Orphaned sends. A message for an external provider is recorded `pending` and counted, then handed over. The key
-- the provider dedupes hand-offs by is the caller's Idempotency-Key, hashed per account (provider_idempotency_key),
-- or, when the caller gave none, one made from the message's id; so a later attempt reuses the first one's key.
-- handoff_attempts counts the dispatcher's recovery attempts; handoff_claimed_at is the last one's start, a lease.
alter table public.sent_emails add column if not exists provider_idempotency_key text;
alter table public.sent_emails add column if not exists handoff_attempts integer not null default 0;
alter table public.sent_emails add column if not exists handoff_claimed_at timestamptz;
create index if not exists sent_emails_pending_idx on public.sent_emails (created_at) where status = 'pending';

-- record_counted_email as before (20261122000300_sending.sql), and it stores the provider idempotency key.
drop function if exists public.record_counted_email(uuid, timestamptz, integer, boolean, text, text, uuid, text, text[],
                                                     text[], text[], text[], text, text, text, jsonb, jsonb, jsonb,
                                                     timestamptz);
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
                                  scheduled_at, sent_at, is_overage, usage_period_start, provider_idempotency_key)
    values (p_account_id, p_template_id, p_status, p_provider, p_from, p_to, coalesce(p_cc, '{}'), coalesce(p_bcc, '{}'),
            coalesce(p_reply_to, '{}'), p_subject, p_html, p_text, coalesce(p_headers, '{}'::jsonb),
            coalesce(p_attachments, '[]'::jsonb), coalesce(p_tags, '[]'::jsonb), p_scheduled_at,
            case when p_status = 'sent' then now() end, v_overage, p_period_start, p_provider_idempotency_key)
    returning id, created_at into v_id, v_created;

  if v_overage then
    insert into public.email_overage_ledger (account_id, email_id, period_start)
      values (p_account_id, v_id, p_period_start)
      returning reported_at into v_reported;
  end if;

  return query select v_id, true, v_used, v_overage, v_reported is not null, v_created;
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
