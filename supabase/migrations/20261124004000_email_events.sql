-- Emails as resources: each email's status as the API reports it, and the events that moved it, appended in order of
-- arrival. `sent_emails.status` stays what it was, the hand-off's state (pending → sent | scheduled | failed) that
-- recording, the dispatcher, orphan recovery, idempotency and the dashboard read; `delivery_status` is what became of
-- the email: set when it is recorded, then moved only by apply_email_event. Core SQL only: runs unchanged on PGlite, PostgreSQL 15 and Supabase.

alter table public.sent_emails add column if not exists delivery_status text not null default 'queued'
  check (delivery_status in ('scheduled', 'queued', 'sent', 'delivered', 'delivery_delayed', 'bounced', 'complained',
                             'failed', 'canceled'));
-- The id POST /send answered with is the provider's when there is one: emails are found by it (and webhooks will).
create index if not exists sent_emails_provider_message_idx
  on public.sent_emails (provider_message_id) where provider_message_id is not null;

create table public.email_events (
  -- Arrival order: events are listed by it.
  id bigint generated always as identity,
  email_id uuid not null references public.sent_emails (id) on delete cascade,
  -- The email's account (no reference of its own: the email's goes with it).
  account_id uuid not null,
  type text not null check (type in ('scheduled', 'sent', 'delivered', 'delivery_delayed', 'bounced', 'complained',
                                     'failed', 'canceled', 'opened', 'clicked')),
  occurred_at timestamptz not null default now(),
  detail jsonb,
  -- The provider's id of the event (a webhook's svix-id): an event is applied once.
  provider_event_id text,
  -- An email's events are read together, in order: one index serves that and identity.
  primary key (email_id, id)
);
create unique index email_events_provider_event_idx on public.email_events (provider_event_id)
  where provider_event_id is not null;

do $$
begin
  alter table public.email_events enable row level security;
  if exists (select 1 from pg_roles where rolname = 'anon') then
    revoke all on public.email_events from anon;
  end if;
  if exists (select 1 from pg_roles where rolname = 'authenticated') then
    revoke all on public.email_events from authenticated;
  end if;
end $$;

-- Emails recorded before this migration: their status as the API names it, and the one event their hand-off made.
update public.sent_emails set delivery_status = status where status in ('sent', 'scheduled', 'failed');
insert into public.email_events (email_id, account_id, type, occurred_at, detail)
  select id, account_id, status, case when status = 'sent' then coalesce(sent_at, created_at) else created_at end,
         case when status = 'failed' then jsonb_build_object('message', error) end
  from public.sent_emails where status in ('sent', 'scheduled', 'failed') order by created_at, id;

-- Appends an event to an email and moves its status, atomically (the email's row is locked, so events of one email
-- are applied one at a time, in order of arrival). Every event is kept; the status moves forward only:
-- queued → scheduled → sent → delivery_delayed → a final state (delivered, bounced, complained, failed, canceled).
-- A final state never moves, except delivered → bounced or complained, as providers report; canceled comes only from
-- scheduled; opened and clicked are events only. An event whose provider event id was applied already changes nothing.
-- applied: the event was appended; status: the email's status after it (null when there is no such email).
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
  v_next text;
  v_rank constant text[] := array['queued', 'scheduled', 'sent', 'delivery_delayed'];
begin
  if p_type is null or p_type not in ('scheduled', 'sent', 'delivered', 'delivery_delayed', 'bounced', 'complained',
                                      'failed', 'canceled', 'opened', 'clicked') then
    raise exception 'unknown email event type: %', p_type using errcode = '22023';
  end if;
  select e.delivery_status, e.account_id into v_status, v_account
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

-- Every later change of the hand-off's state is an event, in the statement that makes it: accepted by a provider
-- (pending → sent or scheduled), delivered by the dispatcher (scheduled → sent), or failed (fail_counted_email, with
-- its error). An email's first events are written by the statement that records it (record_counted_email).
create or replace function public.sent_emails_handoff_event()
returns trigger
language plpgsql
as $$
begin
  perform public.apply_email_event(new.id, new.status,
                                   case when new.status = 'failed' then jsonb_build_object('message', new.error) end);
  return null;
end;
$$;

create trigger sent_emails_handoff_moved
  after update of status on public.sent_emails
  for each row when (old.status is distinct from new.status and new.status in ('sent', 'scheduled', 'failed'))
  execute function public.sent_emails_handoff_event();

-- Only the server calls it (as 20261122000600_hot_path_functions.sql says for the others).
do $$
declare
  f regprocedure;
  grantee text;
begin
  for f in
    select p.oid::regprocedure from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname = 'public' and p.proname in ('apply_email_event', 'sent_emails_handoff_event')
  loop
    for grantee in select 'public' union all select rolname from pg_roles where rolname in ('anon', 'authenticated') loop
      execute format('revoke execute on function %s from %s', f, grantee);
    end loop;
  end loop;
end $$;
