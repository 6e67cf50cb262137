-- POST /webhooks/{id}/test: a `webhook.test` event for the account's endpoint alone, with one delivery of one attempt
-- (max_attempts 1), due at p_now, whatever the event types it hears. At most p_per_account of the account's test events
-- are in flight at once (made within p_lease_seconds and not finished), counted under a transaction's advisory lock of
-- the account, so that concurrent calls cannot have our server hold more connections to an endpoint than that: past
-- it nothing is made and busy is true. No row when the account has no such endpoint.
create or replace function public.create_webhook_test_event(
  p_account_id uuid,
  p_endpoint_id uuid,
  p_now timestamptz,
  p_per_account integer,
  p_lease_seconds integer
) returns table (event_id uuid, delivery_id uuid, busy boolean)
language plpgsql
as $$
#variable_conflict use_column
declare
  v_event uuid;
begin
  if not exists (select 1 from public.webhook_endpoints w where w.id = p_endpoint_id and w.account_id = p_account_id)
  then
    return;
  end if;
  perform pg_advisory_xact_lock(hashtext('webhook_test_events'), hashtext(p_account_id::text));
  if (select count(*) from public.webhook_deliveries d
      where d.account_id = p_account_id and d.status = 'pending' and d.max_attempts = 1
        -- A test delivery's next attempt is its creation until it is finished: a range of the account's due index.
        and d.next_attempt_at > p_now - make_interval(secs => p_lease_seconds)
        and d.created_at > p_now - make_interval(secs => p_lease_seconds)) >= p_per_account then
    return query select null::uuid, null::uuid, true;
    return;
  end if;
  insert into public.webhook_events (account_id, type, payload, created_at)
    values (p_account_id, 'webhook.test',
            jsonb_build_object('type', 'webhook.test',
                               'created_at', to_char(p_now at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                               'data', jsonb_build_object('webhook_id', p_endpoint_id)),
            p_now)
    returning id into v_event;
  return query
    insert into public.webhook_deliveries (account_id, endpoint_id, event_id, max_attempts, next_attempt_at, created_at)
    values (p_account_id, p_endpoint_id, v_event, 1, p_now, p_now)
    returning event_id, id, false;
end;
$$;
