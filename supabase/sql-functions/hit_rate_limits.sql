-- Counts one hit in each bucket's current window of p_window_seconds (windows aligned on the Unix epoch) in one
-- statement, so concurrent calls never lose a hit, and returns each bucket's hits in this window (this one included)
-- and the whole seconds until the window ends. Buckets are counted in sorted order, so two calls never wait on each
-- other's rows in opposite orders. A hit that opens a window also deletes up to 1,000 rows of ended windows, skipping
-- rows another call is deleting: the table holds about one window's rows, and no call waits on the cleanup.
create or replace function public.hit_rate_limits(p_buckets text[], p_window_seconds integer)
returns table (bucket text, hits integer, retry_after_seconds integer)
language plpgsql
as $$
#variable_conflict use_column
declare
  v_window_end timestamptz :=
    to_timestamp((floor(extract(epoch from now()) / p_window_seconds) + 1) * p_window_seconds);
  v_opened boolean := false;
  v_hit record;
begin
  for v_hit in
    insert into public.rate_limit_windows as w (bucket, window_end, hits)
      select distinct b, v_window_end, 1 from unnest(p_buckets) as b order by b
      on conflict (bucket, window_end) do update set hits = w.hits + 1
      returning w.bucket, w.hits
  loop
    v_opened := v_opened or v_hit.hits = 1;
    bucket := v_hit.bucket;
    hits := v_hit.hits;
    retry_after_seconds := greatest(1, ceil(extract(epoch from v_window_end - now())))::integer;
    return next;
  end loop;
  if v_opened then
    delete from public.rate_limit_windows
      where (bucket, window_end) in (
        select e.bucket, e.window_end from public.rate_limit_windows e
        where e.window_end <= now()
        limit 1000
        for update skip locked);
  end if;
end;
$$;
