-- Core schema. Runs unchanged on PGlite, PostgreSQL 15 and Supabase: core SQL only, and Supabase-only
-- objects (the anon/authenticated roles) are touched only when they exist.

create table public.accounts (
  id uuid primary key default gen_random_uuid(),
  email text not null,
  plan text not null default 'free' check (plan in ('free', 'monthly', 'annual')),
  -- Local (embedded) sign-in only; Supabase Auth users have auth_user_id instead.
  password_hash text,
  auth_user_id uuid unique,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index accounts_email_key on public.accounts (lower(email));

create table public.api_keys (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references public.accounts (id) on delete cascade,
  name text not null,
  key_hash text not null unique,
  prefix text not null,
  display_fragment text not null,
  created_at timestamptz not null default now(),
  last_used_at timestamptz,
  revoked_at timestamptz
);
create index api_keys_account_idx on public.api_keys (account_id, created_at desc);

create table public.templates (
  id uuid primary key default gen_random_uuid(),
  -- null for catalogue templates, which belong to the operator.
  owner_account_id uuid references public.accounts (id) on delete cascade,
  slug text,
  name text not null,
  description text not null default '',
  is_public boolean not null default false,
  price numeric(10, 2) not null default 0 check (price >= 0),
  code text not null,
  -- Declared variables: [{ name, type, required, default? }].
  variables jsonb not null default '[]'::jsonb,
  -- JavaScript compiled from `code` for the sandbox; null for catalogue templates (rendered natively).
  compiled_code text,
  version integer not null default 1,
  category text,
  author text,
  preview_image_url text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index templates_catalogue_slug_key on public.templates (slug) where owner_account_id is null;
create index templates_owner_idx on public.templates (owner_account_id);

create table public.library_entries (
  account_id uuid not null references public.accounts (id) on delete cascade,
  template_id uuid not null references public.templates (id) on delete cascade,
  added_via text not null check (added_via in ('created', 'free', 'purchased')),
  added_at timestamptz not null default now(),
  primary key (account_id, template_id)
);
create index library_entries_newest_idx on public.library_entries (account_id, added_at desc, template_id);

create table public.purchases (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references public.accounts (id) on delete cascade,
  template_id uuid not null references public.templates (id) on delete restrict,
  amount numeric(10, 2) not null,
  currency text not null default 'usd',
  status text not null check (status in ('pending', 'completed', 'failed', 'expired')),
  processor text not null,
  processor_ref text,
  created_at timestamptz not null default now(),
  completed_at timestamptz
);
create index purchases_account_idx on public.purchases (account_id, created_at desc);
create unique index purchases_processor_ref_key on public.purchases (processor, processor_ref) where processor_ref is not null;

-- Monthly counters decide quotas; daily counters feed the dashboard's charts.
create table public.usage_counters (
  account_id uuid not null references public.accounts (id) on delete cascade,
  metric text not null check (metric in ('api_calls', 'emails')),
  period_start timestamptz not null,
  count integer not null default 0 check (count >= 0),
  primary key (account_id, metric, period_start)
);

create table public.usage_daily (
  account_id uuid not null references public.accounts (id) on delete cascade,
  metric text not null check (metric in ('api_calls', 'emails')),
  day date not null,
  count integer not null default 0,
  primary key (account_id, metric, day)
);

create table public.sending_domains (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references public.accounts (id) on delete cascade,
  domain text not null,
  verified boolean not null default false,
  default_sender text,
  provider_domain_id text,
  created_at timestamptz not null default now(),
  verified_at timestamptz
);
create unique index sending_domains_account_domain_key on public.sending_domains (account_id, lower(domain));

create table public.sent_emails (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references public.accounts (id) on delete cascade,
  template_id uuid references public.templates (id) on delete set null,
  status text not null check (status in ('pending', 'sent', 'scheduled', 'failed')),
  provider text not null,
  provider_message_id text,
  from_address text not null,
  to_addresses text[] not null,
  cc_addresses text[] not null default '{}',
  bcc_addresses text[] not null default '{}',
  reply_to text[] not null default '{}',
  subject text not null,
  html text not null,
  text_body text,
  headers jsonb not null default '{}'::jsonb,
  attachments jsonb not null default '[]'::jsonb,
  tags jsonb not null default '[]'::jsonb,
  scheduled_at timestamptz,
  sent_at timestamptz,
  error text,
  is_overage boolean not null default false,
  created_at timestamptz not null default now()
);
create index sent_emails_account_idx on public.sent_emails (account_id, created_at desc);
create index sent_emails_due_idx on public.sent_emails (scheduled_at) where status = 'scheduled';

do $$
declare t text;
begin
  foreach t in array array['accounts', 'api_keys', 'templates', 'library_entries', 'purchases', 'usage_counters',
                           'usage_daily', 'sending_domains', 'sent_emails'] loop
    execute format('alter table public.%I enable row level security', t);
    -- On Supabase the anon/authenticated roles reach public through PostgREST: the server-side role is the only client.
    if exists (select 1 from pg_roles where rolname = 'anon') then
      execute format('revoke all on public.%I from anon', t);
    end if;
    if exists (select 1 from pg_roles where rolname = 'authenticated') then
      execute format('revoke all on public.%I from authenticated', t);
    end if;
  end loop;
end $$;

-- One round trip per API request: resolves the credential (an API key hash, or an account id from a verified
-- browser session), touches last_used_at at most once a minute, and, when p_metric is given, counts the call against
-- the plan's limit atomically. p_limits maps plan -> monthly limit (null = unlimited), decided in application code.
-- A refused call (allowed = false) is not counted.
create or replace function public.authenticate_and_meter(
  p_key_hash text,
  p_account_id uuid,
  p_metric text,
  p_period_start timestamptz,
  p_limits jsonb
) returns table (account_id uuid, email text, plan text, metered boolean, allowed boolean, used integer, quota integer)
language plpgsql
as $$
#variable_conflict use_column
declare
  v_account public.accounts%rowtype;
  v_key_id uuid;
  v_last_used timestamptz;
  v_quota integer;
  v_used integer;
begin
  if p_key_hash is not null then
    select k.id, k.last_used_at into v_key_id, v_last_used
      from public.api_keys k where k.key_hash = p_key_hash and k.revoked_at is null;
    if v_key_id is null then
      return;
    end if;
    select a.* into v_account from public.accounts a join public.api_keys k on k.account_id = a.id where k.id = v_key_id;
    if v_last_used is null or v_last_used < now() - interval '1 minute' then
      update public.api_keys set last_used_at = now() where id = v_key_id;
    end if;
  else
    select a.* into v_account from public.accounts a where a.id = p_account_id;
  end if;
  if v_account.id is null then
    return;
  end if;

  v_quota := (p_limits ->> v_account.plan)::integer;

  if p_metric is null then
    select c.count into v_used from public.usage_counters c
      where c.account_id = v_account.id and c.metric = 'api_calls' and c.period_start = p_period_start;
    return query select v_account.id, v_account.email, v_account.plan, false, true, coalesce(v_used, 0), v_quota;
    return;
  end if;

  insert into public.usage_counters as c (account_id, metric, period_start, count)
    values (v_account.id, p_metric, p_period_start, 1)
    on conflict (account_id, metric, period_start) do update set count = c.count + 1
      where v_quota is null or c.count < v_quota
    returning c.count into v_used;

  if v_used is null then
    return query select v_account.id, v_account.email, v_account.plan, true, false, coalesce(v_quota, 0), v_quota;
    return;
  end if;

  insert into public.usage_daily as d (account_id, metric, day, count)
    values (v_account.id, p_metric, (now() at time zone 'utc')::date, 1)
    on conflict (account_id, metric, day) do update set count = d.count + 1;

  return query select v_account.id, v_account.email, v_account.plan, true, true, v_used, v_quota;
end;
$$;
