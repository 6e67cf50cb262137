-- Counts p_account_id's email events again (every account's when null) into email_metrics_daily and
-- email_tag_metrics_daily, as count_email_event_metrics counts each as it is appended: for the events recorded before
-- the tables existed, and for bulk loads made without the trigger (the bench's million emails). email_events is held
-- in share row exclusive mode until the transaction ends, so no event is appended (and counted by the trigger) and no
-- other rebuild runs while it counts.
create or replace function public.rebuild_email_metrics(p_account_id uuid default null) returns void
language plpgsql
as $$
begin
  lock table public.email_events in share row exclusive mode;
  delete from public.email_metrics_daily m where p_account_id is null or m.account_id = p_account_id;
  delete from public.email_tag_metrics_daily m where p_account_id is null or m.account_id = p_account_id;
  create temporary table counted_email_events on commit drop as
    select ev.account_id, (ev.occurred_at at time zone 'UTC')::date as day, e.template_id,
           public.email_address_domain(e.from_address) as domain, e.test, e.tags, ev.type
    from (select ev.*,
                 row_number() over (partition by ev.email_id, ev.type,
                                                 case when ev.type = 'clicked' then ev.detail ->> 'link' end
                                    order by ev.id) as nth
          from public.email_events ev
          where (p_account_id is null or ev.account_id = p_account_id)
            and ev.type in ('sent', 'delivered', 'bounced', 'complained', 'failed', 'opened', 'clicked')) ev
      join public.sent_emails e on e.id = ev.email_id
    where ev.nth = 1;
  insert into public.email_metrics_daily (account_id, day, template_id, domain, test, shard, sent, delivered, bounced,
                                          complained, failed, opened, clicked)
    select c.account_id, c.day, c.template_id, c.domain, c.test, 0,
           count(*) filter (where c.type = 'sent'), count(*) filter (where c.type = 'delivered'),
           count(*) filter (where c.type = 'bounced'), count(*) filter (where c.type = 'complained'),
           count(*) filter (where c.type = 'failed'), count(*) filter (where c.type = 'opened'),
           count(*) filter (where c.type = 'clicked')
    from counted_email_events c
    group by c.account_id, c.day, c.template_id, c.domain, c.test;
  insert into public.email_tag_metrics_daily (account_id, tag, day, template_id, domain, test, shard, sent, delivered,
                                              bounced, complained, failed, opened, clicked)
    select c.account_id, t.tag, c.day, c.template_id, c.domain, c.test, 0,
           count(*) filter (where c.type = 'sent'), count(*) filter (where c.type = 'delivered'),
           count(*) filter (where c.type = 'bounced'), count(*) filter (where c.type = 'complained'),
           count(*) filter (where c.type = 'failed'), count(*) filter (where c.type = 'opened'),
           count(*) filter (where c.type = 'clicked')
    from counted_email_events c
      cross join lateral (select distinct (tag ->> 'name') || ':' || (tag ->> 'value') as tag
                          from jsonb_array_elements(c.tags) tag) t
    group by c.account_id, t.tag, c.day, c.template_id, c.domain, c.test;
  drop table counted_email_events;
end;
$$;
