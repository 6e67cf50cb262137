-- An event of the account for its webhook endpoints (API v1.3): one webhook_events row (the signed body
-- { type, created_at, data }, created_at p_now in ISO 8601 as the API writes times) and one pending delivery, due at
-- p_now, per enabled endpoint of the account whose events hold p_type. Nothing when none does: the event id, or null.
-- Called in the transaction of what the event tells (an email's event, a publish), so a rollback makes none.
create or replace function public.enqueue_webhook_event(
  p_account_id uuid,
  p_type text,
  p_email_id uuid,
  p_data jsonb,
  p_now timestamptz
) returns uuid
language plpgsql
as $$
declare
  v_id uuid;
begin
  -- The common case (no endpoint hears it) costs one index lookup.
  if not exists (select 1 from public.webhook_endpoints w
                 where w.account_id = p_account_id and w.enabled and p_type = any (w.events)) then
    return null;
  end if;
  insert into public.webhook_events (account_id, type, email_id, payload, created_at)
    values (p_account_id, p_type, p_email_id,
            jsonb_build_object('type', p_type,
                               'created_at', to_char(p_now at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                               'data', p_data),
            p_now)
    returning id into v_id;
  insert into public.webhook_deliveries (account_id, endpoint_id, event_id, next_attempt_at, created_at)
    select p_account_id, w.id, v_id, p_now, p_now from public.webhook_endpoints w
    where w.account_id = p_account_id and w.enabled and p_type = any (w.events)
    order by w.created_at, w.id;
  return v_id;
end;
$$;
