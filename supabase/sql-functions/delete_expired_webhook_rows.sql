-- Webhook history is kept 30 days (the delivery log's promise): events created before p_now - 30 days are deleted,
-- with their deliveries and attempts (on delete cascade; a delivery is never older than its event), up to p_limit
-- events a call so no call holds locks long (the duty runs again). Returns how many events went.
create or replace function public.delete_expired_webhook_rows(p_now timestamptz, p_limit integer)
returns integer
language sql
as $$
  with gone as (
    delete from public.webhook_events e
    where e.id in (select e2.id from public.webhook_events e2 where e2.created_at < p_now - interval '30 days'
                   order by e2.created_at limit p_limit for update skip locked)
    returning 1
  )
  select count(*)::integer from gone;
$$;
