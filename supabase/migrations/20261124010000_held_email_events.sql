-- A provider's event about an email it has not told us the id of yet: the hand-off of a message Resend accepted is
-- recorded a moment after Resend answers (and, for a hand-off recovered after a crash, minutes after). Such events are
-- held, by the message id they name, and applied to the email once it has that id: before the next event about it,
-- or by the dispatcher. Held events older than a day are dropped (Resend's retries stop long before). Core SQL only.
create table public.held_email_events (
  provider_event_id text primary key,
  provider text not null,
  provider_message_id text not null,
  type text not null,
  detail jsonb,
  occurred_at timestamptz,
  received_at timestamptz not null default now()
);
create index held_email_events_message_idx on public.held_email_events (provider, provider_message_id, received_at);

do $$
begin
  alter table public.held_email_events enable row level security;
  if exists (select 1 from pg_roles where rolname = 'anon') then
    revoke all on public.held_email_events from anon;
  end if;
  if exists (select 1 from pg_roles where rolname = 'authenticated') then
    revoke all on public.held_email_events from authenticated;
  end if;
end $$;

-- Applies the held events whose email now has the message id they name (one message's, or, with null, any), in order
-- of receipt, through apply_email_event (each once, by its provider event id), and drops them; with null it also drops
-- those held longer than a day. Returns how many were applied.
create or replace function public.apply_held_email_events(p_provider text, p_provider_message_id text default null)
returns integer
language plpgsql
as $$
declare
  v_held record;
  v_applied integer := 0;
begin
  for v_held in
    select e.id as email_id, h.provider_event_id, h.type, h.detail, h.occurred_at
    from public.held_email_events h
      join public.sent_emails e on e.provider = p_provider and e.provider_message_id = h.provider_message_id
    where h.provider = p_provider and (p_provider_message_id is null or h.provider_message_id = p_provider_message_id)
    order by h.received_at, h.provider_event_id
    limit 1000
  loop
    -- Whoever deletes a held event applies it: two dispatchers never apply one twice.
    delete from public.held_email_events h where h.provider_event_id = v_held.provider_event_id;
    if found then
      perform public.apply_email_event(v_held.email_id, v_held.type, v_held.detail, v_held.provider_event_id,
                                       v_held.occurred_at);
      v_applied := v_applied + 1;
    end if;
  end loop;
  if p_provider_message_id is null then
    delete from public.held_email_events h where h.received_at < now() - interval '1 day';
  end if;
  return v_applied;
end;
$$;

-- Only the server calls it (as 20261122000600_hot_path_functions.sql says for the others).
do $$
declare
  grantee text;
begin
  for grantee in select 'public' union all select rolname from pg_roles where rolname in ('anon', 'authenticated') loop
    execute format('revoke execute on function public.apply_held_email_events(text, text) from %s', grantee);
  end loop;
end $$;
