-- Webhooks (API v1.3): an account's own endpoints hear about its emails and templates. Each event and each attempt is
-- a row, so delivery survives restarts and killed processes; due attempts are claimed under a lease, so several
-- processes on one database make each attempt once. Core SQL only: runs unchanged on PGlite, PostgreSQL 15 and
-- Supabase. The functions that write these tables are in supabase/sql-functions/.

create table public.webhook_endpoints (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references public.accounts (id) on delete cascade,
  url text not null,
  -- Event types it hears (the contract's list, checked by the API): at least one.
  events text[] not null check (cardinality(events) > 0),
  description text,
  enabled boolean not null default true,
  -- Why it was disabled by us (5 days of failed deliveries); null when enabled or disabled by its owner.
  disabled_reason text,
  -- whsec_… . It must be kept in the clear: every attempt is signed with it.
  secret text not null,
  -- The secret before the last rotation: attempts are signed with both until previous_secret_expires_at.
  previous_secret text,
  previous_secret_expires_at timestamptz,
  -- The first failed attempt since the endpoint's last success; 5 days of failures disable it.
  failing_since timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index webhook_endpoints_account_idx on public.webhook_endpoints (account_id, created_at);

-- One row per event, whatever the number of endpoints that hear it; its id is every attempt's `webhook-id`.
create table public.webhook_events (
  id uuid primary key default gen_random_uuid(),
  -- Creation order: an email's events are created in the order they happened.
  seq bigint generated always as identity,
  account_id uuid not null references public.accounts (id) on delete cascade,
  type text not null,
  -- The email the event is about, if any (for the delivery log's filters; the payload holds what was sent).
  email_id uuid,
  -- The signed body, exactly: { type, created_at, data }.
  payload jsonb not null,
  created_at timestamptz not null default now()
);
create index webhook_events_created_idx on public.webhook_events (created_at);

-- One row per event and endpoint: its state and when its next attempt is due.
create table public.webhook_deliveries (
  id uuid primary key default gen_random_uuid(),
  account_id uuid not null references public.accounts (id) on delete cascade,
  endpoint_id uuid not null references public.webhook_endpoints (id) on delete cascade,
  event_id uuid not null references public.webhook_events (id) on delete cascade,
  status text not null default 'pending' check (status in ('pending', 'succeeded', 'failed')),
  attempts integer not null default 0,
  -- 8 for events (the first attempt and 7 retries); 1 for a test event.
  max_attempts integer not null default 8,
  -- When the next attempt is due; null once the delivery is final.
  next_attempt_at timestamptz,
  -- The lease of the process making an attempt: until then no other process claims it; a process killed mid-attempt
  -- leaves a lease that runs out, and the attempt is made again.
  claimed_until timestamptz,
  claim_token uuid,
  created_at timestamptz not null default now(),
  finished_at timestamptz
);
create index webhook_deliveries_due_idx on public.webhook_deliveries (next_attempt_at) where status = 'pending';
create index webhook_deliveries_endpoint_idx on public.webhook_deliveries (endpoint_id, created_at desc, id);
create index webhook_deliveries_event_idx on public.webhook_deliveries (event_id);
create index webhook_deliveries_account_claimed_idx on public.webhook_deliveries (account_id, claimed_until)
  where status = 'pending' and claimed_until is not null;

-- One row per attempt, as it was made.
create table public.webhook_attempts (
  delivery_id uuid not null references public.webhook_deliveries (id) on delete cascade,
  attempt integer not null,
  started_at timestamptz not null,
  duration_ms integer,
  -- The endpoint's HTTP status; null when no answer came (timeout, refused address, connection error).
  response_status integer,
  error text,
  -- The first 4 KB of the answer's body.
  response_excerpt text,
  primary key (delivery_id, attempt)
);

do $$
declare
  t text;
  role_name text;
begin
  foreach t in array array['webhook_endpoints', 'webhook_events', 'webhook_deliveries', 'webhook_attempts'] loop
    execute format('alter table public.%I enable row level security', t);
    for role_name in select rolname from pg_roles where rolname in ('anon', 'authenticated') loop
      execute format('revoke all on public.%I from %I', t, role_name);
    end loop;
  end loop;
end $$;
