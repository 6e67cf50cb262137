-- POST /webhooks: adds an endpoint to the account unless it has p_limit already; null then. The account's row is
-- locked first, so concurrent creations are counted one after another and never pass the limit (the count is a
-- statement of its own, which sees the endpoints a creation before it committed).
create or replace function public.create_webhook_endpoint(
  p_account_id uuid,
  p_url text,
  p_events text[],
  p_description text,
  p_secret text,
  p_limit integer
)
returns setof public.webhook_endpoints
language plpgsql
as $$
begin
  perform 1 from public.accounts a where a.id = p_account_id for update;
  if (select count(*) from public.webhook_endpoints e where e.account_id = p_account_id) >= p_limit then
    return;
  end if;
  return query
    insert into public.webhook_endpoints (account_id, url, events, description, secret)
    values (p_account_id, p_url, p_events, p_description, p_secret)
    returning *;
end;
$$;
