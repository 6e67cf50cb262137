-- Appends an event to an email and moves its status, atomically (the email's row is locked, so events of one email
-- are applied one at a time, in order of arrival). Every event is kept; the status moves forward only:
-- queued → scheduled → sent → delivery_delayed → a final state (delivered, bounced, complained, failed, canceled).
-- A final state never moves, except delivered → bounced or complained, as providers report; canceled comes only from
-- scheduled; opened and clicked are events only. An event whose provider event id was applied already changes nothing.
-- A hard bounce or complaint suppresses its recipient for the email's account (suppress_email_recipients), whatever
-- the status became (a bounce reported after a failure still bounced). Each event appended is also the account's
-- webhook event email.<type> (enqueue_email_webhook_event), with the status it left the email in.
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
  v_recipients text[];
  v_next text;
  v_rank constant text[] := array['queued', 'scheduled', 'sent', 'delivery_delayed'];
begin
  if p_type is null or p_type not in ('scheduled', 'sent', 'delivered', 'delivery_delayed', 'bounced', 'complained',
                                      'failed', 'canceled', 'opened', 'clicked') then
    raise exception 'unknown email event type: %', p_type using errcode = '22023';
  end if;
  select e.delivery_status, e.account_id, e.to_addresses || e.cc_addresses || e.bcc_addresses
    into v_status, v_account, v_recipients
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

  if p_type in ('bounced', 'complained') then
    perform public.suppress_email_recipients(v_account, p_email_id, p_type, p_detail, v_recipients);
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
  perform public.enqueue_email_webhook_event(p_email_id, p_type, p_detail, v_next, coalesce(p_occurred_at, now()));
  return query select true, v_next;
end;
$$;
