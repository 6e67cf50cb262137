-- The trigger sent_emails_handoff_moved: every later change of the hand-off's state is an event, in the statement
-- that makes it: accepted by a provider (pending → sent or scheduled), delivered by the dispatcher (scheduled → sent),
-- or failed (fail_counted_email, with its error). An email's first events are written by the statement that records
-- it (record_email_first_events).
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
