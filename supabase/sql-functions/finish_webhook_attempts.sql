-- Records the attempts of several claims in one statement (an account's attempts that ended together): each element
-- of p_attempts is { delivery_id, claim_token, now, outcome, jitter }, recorded by finish_webhook_attempt as it would
-- be alone, and answered by a row with its item number (its place in p_attempts, from 1). Every endpoint's row is
-- locked first, in id order (as delete_team locks a team's), so two calls, or a call and a deletion of an endpoint or
-- a team (its endpoints, then their deliveries), wait for each other instead of deadlocking: every lock a call takes
-- on a delivery it takes holding that delivery's endpoint. The attempts are then finished in the order they ended,
-- so a success and a failure of one endpoint leave it as they would have one after the other. An error (a jitter out
-- of range) records none of them.
-- Its answer once had an account_email column, which create or replace cannot remove: that form is dropped first.
do $$
begin
  if 'account_email' = any (select unnest(p.proargnames) from pg_proc p
                            where p.oid = to_regprocedure('public.finish_webhook_attempts(jsonb)')) then
    drop function public.finish_webhook_attempts(jsonb);
  end if;
end;
$$;
create or replace function public.finish_webhook_attempts(
  p_attempts jsonb
) returns table (
  item integer,
  recorded boolean,
  status text,
  attempts integer,
  next_attempt_at timestamptz,
  endpoint_disabled boolean,
  endpoint_id uuid,
  endpoint_url text
)
language plpgsql
as $$
#variable_conflict use_column
declare
  v_attempt jsonb;
  v_item integer;
begin
  perform 1 from public.webhook_endpoints w
    where w.id = any (array(select d.endpoint_id from public.webhook_deliveries d
                            where d.id = any (array(select (a ->> 'delivery_id')::uuid
                                                    from jsonb_array_elements(p_attempts) a))))
    order by w.id
    for no key update;
  for v_attempt, v_item in
    select a, n from jsonb_array_elements(p_attempts) with ordinality x (a, n) order by (a ->> 'now')::timestamptz, n
  loop
    return query
      select v_item, f.*
      from public.finish_webhook_attempt((v_attempt ->> 'delivery_id')::uuid, (v_attempt ->> 'claim_token')::uuid,
                                         (v_attempt ->> 'now')::timestamptz, v_attempt -> 'outcome',
                                         (v_attempt ->> 'jitter')::double precision) f;
  end loop;
end;
$$;
