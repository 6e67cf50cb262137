-- Counts one sign-in attempt (or sign-up request) against every key of p_keys (lib/auth/throttle.ts), each in a fixed
-- window of p_window_seconds that starts at its first attempt, unless a key is at its limit in p_limits (a null limit
-- never refuses: that key is only counted): then none is counted, so an attempt refused on one key leaves the others
-- as they were. Answers each key with the attempts it holds in its window before this one, and whether this one was
-- counted. The keys' rows are locked in sorted order, so concurrent attempts count exactly and never wait on each
-- other in opposite orders. Up to 20 rows whose window has passed are dropped on the way, skipping rows another call
-- holds: the table stays about one window of attempts.
create or replace function public.claim_sign_in_attempt(p_keys text[], p_limits integer[], p_window_seconds integer)
returns table (key text, failures integer, counted boolean)
language plpgsql
as $$
#variable_conflict use_column
declare
  v_stale timestamptz := now() - p_window_seconds * interval '1 second';
  v_refused boolean;
begin
  delete from public.sign_in_throttles s where s.key in (
    select e.key from public.sign_in_throttles e
    where e.window_start <= v_stale and e.key <> all (p_keys)
    order by e.window_start limit 20
    for update skip locked);
  insert into public.sign_in_throttles (key, window_start, failures)
    select k, now(), 0 from unnest(p_keys) as k order by k
    on conflict on constraint sign_in_throttles_pkey do nothing;
  perform 1 from public.sign_in_throttles t where t.key = any (p_keys) order by t.key for update;

  select exists (
    select 1 from unnest(p_keys, p_limits) as l(key, max_failures)
    join public.sign_in_throttles t on t.key = l.key
    where l.max_failures is not null and t.window_start > v_stale and t.failures >= l.max_failures
  ) into v_refused;

  return query
    select t.key, case when t.window_start <= v_stale then 0 else t.failures end, not v_refused
    from public.sign_in_throttles t where t.key = any (p_keys) order by t.key;
  if not v_refused then
    update public.sign_in_throttles t set
      window_start = case when t.window_start <= v_stale then now() else t.window_start end,
      failures = case when t.window_start <= v_stale then 1 else t.failures + 1 end
    where t.key = any (p_keys);
  end if;
end;
$$;
