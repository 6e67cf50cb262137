-- Billing through Stripe: customers, subscriptions (the account's plan follows them), the webhook event log that makes
-- deliveries idempotent, checkout details on pending purchases, and the overage reporter's bookkeeping on the ledger.
-- Core SQL only: runs unchanged on PGlite, PostgreSQL 15 and Supabase.

-- One processor customer per account, created before its first checkout.
create table public.billing_customers (
  account_id uuid primary key references public.accounts (id) on delete cascade,
  processor text not null default 'stripe',
  customer_id text not null unique,
  created_at timestamptz not null default now()
);

-- The last known state of each subscription. `last_event_created` is the Stripe event time that state came from: an
-- older event delivered late never overwrites a newer one. `plan` is null when the subscription's price is not one
-- of the configured plan prices.
create table public.billing_subscriptions (
  subscription_id text primary key,
  account_id uuid not null references public.accounts (id) on delete cascade,
  customer_id text not null,
  status text not null,
  plan text check (plan in ('monthly', 'annual')),
  price_id text,
  -- The subscription item carrying the plan price (a plan switch replaces its price).
  plan_item_id text,
  current_period_end timestamptz,
  cancel_at_period_end boolean not null default false,
  cancel_at timestamptz,
  ended_at timestamptz,
  last_event_id text,
  last_event_created timestamptz not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index billing_subscriptions_account_idx on public.billing_subscriptions (account_id);

-- Every webhook event handled, by Stripe's event id: a replayed delivery finds its id here and changes nothing. The
-- row is written in the same transaction as the event's effects, so an event is either fully applied or not at all.
create table public.stripe_events (
  id text primary key,
  type text not null,
  object_id text,
  livemode boolean not null default false,
  created timestamptz not null,
  -- What handling decided: applied, ignored (unknown type), stale (older than the stored state), unmatched, ...
  outcome text not null,
  received_at timestamptz not null default now()
);
create index stripe_events_received_idx on public.stripe_events (received_at);

-- A pending purchase's hosted checkout, so a second click on "Buy" returns to the same checkout instead of opening
-- (and counting) another one.
alter table public.purchases add column if not exists checkout_url text;
alter table public.purchases add column if not exists checkout_expires_at timestamptz;
create index if not exists purchases_pending_idx on public.purchases (account_id, template_id) where status = 'pending';

-- Overage reporting: a row is claimed (report_claimed_until) by one reporter at a time; a failed attempt is retried
-- from next_report_at with backoff. processor_ref holds the meter event identifier from the first attempt on, so
-- every retry sends the same identifier and the processor counts the email once.
alter table public.email_overage_ledger add column if not exists report_attempts integer not null default 0;
alter table public.email_overage_ledger add column if not exists next_report_at timestamptz;
alter table public.email_overage_ledger add column if not exists report_claimed_until timestamptz;
alter table public.email_overage_ledger add column if not exists last_report_error text;

do $$
declare t text;
begin
  foreach t in array array['billing_customers', 'billing_subscriptions', 'stripe_events'] loop
    execute format('alter table public.%I enable row level security', t);
    if exists (select 1 from pg_roles where rolname = 'anon') then
      execute format('revoke all on public.%I from anon', t);
    end if;
    if exists (select 1 from pg_roles where rolname = 'authenticated') then
      execute format('revoke all on public.%I from authenticated', t);
    end if;
  end loop;
end $$;
