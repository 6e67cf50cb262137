-- Applies the held events (held_email_events: a provider's events about a message id no email has yet) whose email
-- now has the message id they name (one message's, or, with null, any), in order of receipt, through
-- apply_email_event (each once, by its provider event id), and drops them; with null it also drops those held longer
-- than a day. Returns how many were applied.
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
