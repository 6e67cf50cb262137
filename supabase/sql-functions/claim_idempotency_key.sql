-- Claims an Idempotency-Key for one request, or reports who holds it. A record older than p_ttl is expired and is
-- claimed afresh; so is an in-flight claim older than p_stale (its request died without finishing).
-- claimed = true: the caller owns the key (with p_token) and must complete or release it.
-- claimed = false: the current record, to compare request_hash and replay or wait.
create or replace function public.claim_idempotency_key(
  p_account_id uuid,
  p_scope text,
  p_key text,
  p_request_hash text,
  p_token uuid,
  p_ttl interval,
  p_stale interval
) returns table (claimed boolean, request_hash text, status text, response_status integer, response_body json)
language plpgsql
as $$
#variable_conflict use_column
declare
  v_row public.idempotency_keys%rowtype;
begin
  for attempt in 1..5 loop
    insert into public.idempotency_keys as k (account_id, scope, key, request_hash, token, status)
      values (p_account_id, p_scope, p_key, p_request_hash, p_token, 'in_flight')
      on conflict (account_id, scope, key) do update set
        request_hash = excluded.request_hash, token = excluded.token, status = 'in_flight',
        response_status = null, response_body = null, created_at = now(), completed_at = null
        where k.created_at <= now() - p_ttl or (k.status = 'in_flight' and k.created_at <= now() - p_stale)
      returning k.* into v_row;
    if found then
      return query select true, v_row.request_hash, v_row.status, null::integer, null::json;
      return;
    end if;
    select k.* into v_row from public.idempotency_keys k
      where k.account_id = p_account_id and k.scope = p_scope and k.key = p_key;
    if found then
      return query select false, v_row.request_hash, v_row.status, v_row.response_status, v_row.response_body;
      return;
    end if;
    -- Released between the two statements: try to claim it again.
  end loop;
  raise exception 'could not claim idempotency key %', p_key;
end;
$$;
