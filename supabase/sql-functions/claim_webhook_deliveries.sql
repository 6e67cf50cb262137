-- Claims up to p_limit due webhook deliveries (pending, next attempt at or before p_now, no lease running, endpoint
-- enabled) for one attempt each, under a lease of p_lease_seconds: each gets a new claim token that
-- finish_webhook_attempt must show, and until the lease runs out no other call claims it; a process killed in the
-- middle of an attempt leaves a lease that runs out, and the attempt is claimed again (with the same attempt number).
-- At most p_per_account deliveries of one account are in flight (a lease running) at once, across every process:
-- accounts are claimed one at a time under a transaction's advisory lock (an account another call is claiming for is
-- skipped, as its rows would be), and the count is read after taking it. Accounts with the fewest in flight go first,
-- then those whose due deliveries are oldest (those with all of theirs in flight left out), each account's found
-- through webhook_deliveries_account_due_idx in the order they are taken, so one account's backlog slows no other's
-- claim; rows are locked `for update skip locked`, so concurrent calls never wait on each other or claim one twice.
-- An account's attempts in flight are counted in claimed_until's order, up to p_per_account: so the count reads
-- webhook_deliveries_account_claimed_idx (its leases alone), whatever the planner's statistics say of the account's
-- backlog, which the due index would have it read through.
-- With p_account_id, that account's alone: what a request that made the account's events claims after its answer,
-- so that no account's request does another's deliveries (a hanging endpoint's among them), and one account's
-- backlog costs no other account's requests a claim over it.
-- secrets: those valid at p_now, the newest first (the previous one during a rotation's overlap).
create or replace function public.claim_webhook_deliveries(
  p_now timestamptz,
  p_limit integer,
  p_per_account integer,
  p_lease_seconds integer,
  p_account_id uuid default null
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
language plpgsql
as $$
#variable_conflict use_column
declare
  v_account uuid;
  v_left integer := p_limit;
  v_take integer;
  v_claimed integer;
  v_accounts uuid[];
begin
  -- p_account_id's alone (what it has due is the claim's to find): a request's claim plans and runs no search of the
  -- others. Or the accounts with pending deliveries, one index lookup each (a skip scan), however many rows each has.
  if p_account_id is not null then
    v_accounts := array[p_account_id];
  else
    v_accounts := array(
      with recursive accounts (account_id) as (
        (select d.account_id from public.webhook_deliveries d
         where d.status = 'pending' order by d.account_id limit 1)
        union all
        select (select d.account_id from public.webhook_deliveries d
                where d.status = 'pending' and d.account_id > a.account_id order by d.account_id limit 1)
        from accounts a where a.account_id is not null
      )
      select a.account_id from accounts a
        cross join lateral (
          select d.next_attempt_at from public.webhook_deliveries d
            join public.webhook_endpoints w on w.id = d.endpoint_id and w.enabled
          where d.account_id = a.account_id and d.status = 'pending' and d.next_attempt_at <= p_now
            and (d.claimed_until is null or d.claimed_until <= p_now)
          order by d.next_attempt_at limit 1
        ) oldest
        cross join lateral (
          select count(*) as n from (
            select from public.webhook_deliveries d
            where d.account_id = a.account_id and d.status = 'pending' and d.claimed_until > p_now
            order by d.claimed_until limit p_per_account
          ) running
        ) in_flight
      -- An account with all its attempts in flight is left out, or its old backlog would fill the p_limit accounts read
      -- and starve the others (counted again under its lock below); those with fewer in flight go first, so hanging
      -- endpoints, whose attempts stay in flight, do not take each room a finished attempt frees before anyone else.
      where a.account_id is not null and in_flight.n < p_per_account
      order by in_flight.n, oldest.next_attempt_at
      limit p_limit);
  end if;
  foreach v_account in array v_accounts
  loop
    exit when v_left <= 0;
    continue when not pg_try_advisory_xact_lock(hashtext('webhook_deliveries'), hashtext(v_account::text));
    select p_per_account - count(*) into v_take from (
      select from public.webhook_deliveries d
      where d.account_id = v_account and d.status = 'pending' and d.claimed_until > p_now
      order by d.claimed_until limit p_per_account
    ) running;
    v_take := least(v_take, v_left);
    continue when v_take <= 0;
    return query
      with picked as (
        select d.id from public.webhook_deliveries d
          join public.webhook_endpoints w on w.id = d.endpoint_id and w.enabled
        where d.account_id = v_account and d.status = 'pending' and d.next_attempt_at <= p_now
          and (d.claimed_until is null or d.claimed_until <= p_now)
        order by d.next_attempt_at, d.created_at, d.id
        limit v_take
        for update of d skip locked
      ), claimed as (
        update public.webhook_deliveries d
        set claimed_until = p_now + make_interval(secs => p_lease_seconds), claim_token = gen_random_uuid()
        from picked where d.id = picked.id
        returning d.id, d.claim_token, d.attempts + 1 as attempt, d.endpoint_id, d.event_id, d.account_id,
                  d.next_attempt_at, d.created_at
      )
      select c.id, c.claim_token, c.attempt, w.url,
             array[w.secret] || case when w.previous_secret is not null and w.previous_secret_expires_at > p_now
                                     then array[w.previous_secret] else '{}'::text[] end,
             c.event_id, e.payload::text, e.created_at, c.account_id, c.endpoint_id
      from claimed c
        join public.webhook_endpoints w on w.id = c.endpoint_id
        join public.webhook_events e on e.id = c.event_id
      order by c.next_attempt_at, c.created_at, c.id;
    get diagnostics v_claimed = row_count;
    v_left := v_left - v_claimed;
  end loop;
end;
$$;
