-- An email's first events, in order, written by the statement that records it (record_counted_email and
-- record_counted_emails): its hand-off's (sent or scheduled; none while pending), then what the embedded outbox reports
-- of it (delivered, bounced or complained), which may suppress its recipients; each is also the account's webhook
-- event email.<type> (enqueue_email_webhook_event).
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
  -- Each also the account's webhook event, in the same order; each of these moves the status to its own type.
  if p_status in ('sent', 'scheduled') then
    perform public.enqueue_email_webhook_event(p_email_id, p_status, null, p_status, now());
  end if;
  if p_delivery_type is not null then
    perform public.enqueue_email_webhook_event(p_email_id, p_delivery_type, p_delivery_detail, p_delivery_type, now());
  end if;
  if p_delivery_type in ('bounced', 'complained') then
    perform public.suppress_email_recipients(p_account_id, p_email_id, p_delivery_type, p_delivery_detail,
                                             p_recipients);
  end if;
end;
$$;
