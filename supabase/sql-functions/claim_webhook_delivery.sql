-- Claims one delivery of the account's, by id, for an attempt at once (a test event: the API answers with its outcome),
-- as claim_webhook_deliveries claims due ones: pending, no lease running, whatever its next attempt's time, and
-- whether or not its endpoint is enabled (its owner asked for this one attempt, say to check the endpoint before
-- enabling it again); the same row shape, no row when it cannot be claimed.
create or replace function public.claim_webhook_delivery(
  p_account_id uuid,
  p_delivery_id uuid,
  p_now timestamptz,
  p_lease_seconds integer
) returns table (
  delivery_id uuid,
  claim_token uuid,
  attempt integer,
  url text,
  secrets text[],
  event_id uuid,
  payload text,
  created_at timestamptz,
  account_id uuid,
  endpoint_id uuid
)
language sql
as $$
  with claimed as (
    update public.webhook_deliveries d
    set claimed_until = p_now + make_interval(secs => p_lease_seconds), claim_token = gen_random_uuid()
    where d.id = (select d2.id from public.webhook_deliveries d2
                  where d2.id = p_delivery_id and d2.account_id = p_account_id and d2.status = 'pending'
                    and (d2.claimed_until is null or d2.claimed_until <= p_now)
                  for update of d2 skip locked)
    returning d.id, d.claim_token, d.attempts + 1 as attempt, d.endpoint_id, d.event_id, d.account_id
  )
  select c.id, c.claim_token, c.attempt, w.url,
         array[w.secret] || case when w.previous_secret is not null and w.previous_secret_expires_at > p_now
                                 then array[w.previous_secret] else '{}'::text[] end,
         c.event_id, e.payload::text, e.created_at, c.account_id, c.endpoint_id
  from claimed c
    join public.webhook_endpoints w on w.id = c.endpoint_id
    join public.webhook_events e on e.id = c.event_id;
$$;
