-- Webhook history is kept 30 days (the delivery log's promise): events created before p_now - 30 days are deleted,
-- with their deliveries and attempts (on delete cascade), up to p_limit events a call so no call holds locks long (the
-- duty runs again). An old event is kept while one of its deliveries is younger than 30 days (a replay: it stays in the
-- log as long as any delivery, and its retries go on) or has an attempt in flight (whose outcome is still to be
-- recorded). Returns how many events went.
create or replace function public.delete_expired_webhook_rows(p_now timestamptz, p_limit integer)
returns integer
language sql
as $$
  with gone as (
    delete from public.webhook_events e
    where e.id in (select e2.id from public.webhook_events e2
                   where e2.created_at < p_now - interval '30 days'
                     and not exists (select 1 from public.webhook_deliveries d
                                     where d.event_id = e2.id
                                       and (d.created_at >= p_now - interval '30 days'
                                            or (d.status = 'pending' and d.claimed_until > p_now)))
                   order by e2.created_at limit p_limit for update of e2 skip locked)
    returning 1
  )
  select count(*)::integer from gone;
$$;
