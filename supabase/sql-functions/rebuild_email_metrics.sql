-- Counts p_account_id's email events again (every account's when null) into email_metrics_daily and
-- email_tag_metrics_daily, as count_email_event_metrics and fold_email_metrics count each: for the events recorded
-- before the tables existed, and for bulk loads made without the trigger (the bench's million emails). It holds
-- email_events in share row exclusive mode and fold_email_metrics' lock until the transaction ends, so no event is
-- appended, no delta folded and no template's counts moved while it counts: an operator's tool, which stops every
-- account's events meanwhile. Read committed only: a snapshot older than its locks would miss what they waited for.
create or replace function public.rebuild_email_metrics(p_account_id uuid default null) returns void
language plpgsql
as $$
begin
  if current_setting('transaction_isolation') <> 'read committed' then
    raise exception 'rebuild_email_metrics runs at read committed only' using errcode = '25001';
  end if;
  lock table public.email_events in share row exclusive mode;
  perform pg_advisory_xact_lock(hashtext('email_metrics'));
  delete from public.email_metric_deltas d where p_account_id is null or d.account_id = p_account_id;
  delete from public.email_metrics_daily m where p_account_id is null or m.account_id = p_account_id;
  delete from public.email_tag_metrics_daily m where p_account_id is null or m.account_id = p_account_id;
  create temporary table counted_email_events on commit drop as
    select ev.account_id, (ev.occurred_at at time zone 'UTC')::date as day, e.template_id,
           public.email_address_domain(e.from_address) as domain, e.test,
           coalesce((select array_agg(distinct (t.tag ->> 'name') || ':' || (t.tag ->> 'value'))
                     from jsonb_array_elements(e.tags) t (tag)), '{}') as tags,
           case when ev.type = 'clicked' and ev.nth_click = 1 then 'clicked_first' else ev.type end as kind
    from (select ev.*,
                 row_number() over (partition by ev.email_id, ev.type,
                                                 case when ev.type = 'clicked' then ev.detail ->> 'link' end
                                    order by ev.id) as nth,
                 row_number() over (partition by ev.email_id, ev.type order by ev.id) as nth_click
          from public.email_events ev
          where (p_account_id is null or ev.account_id = p_account_id)
            and ev.type in ('sent', 'delivered', 'bounced', 'complained', 'failed', 'opened', 'clicked')) ev
      join public.sent_emails e on e.id = ev.email_id
    where ev.nth = 1;
  insert into public.email_metrics_daily (account_id, day, template_id, domain, test, sent, delivered, bounced,
                                          complained, failed, opened, clicked, clicked_emails)
    select c.account_id, c.day, c.template_id, c.domain, c.test,
           count(*) filter (where c.kind = 'sent'), count(*) filter (where c.kind = 'delivered'),
           count(*) filter (where c.kind = 'bounced'), count(*) filter (where c.kind = 'complained'),
           count(*) filter (where c.kind = 'failed'), count(*) filter (where c.kind = 'opened'),
           count(*) filter (where c.kind in ('clicked', 'clicked_first')),
           count(*) filter (where c.kind = 'clicked_first')
    from counted_email_events c
    group by c.account_id, c.day, c.template_id, c.domain, c.test;
  insert into public.email_tag_metrics_daily (account_id, tag, day, template_id, domain, test, sent, delivered,
                                              bounced, complained, failed, opened, clicked, clicked_emails)
    select c.account_id, t.tag, c.day, c.template_id, c.domain, c.test,
           count(*) filter (where c.kind = 'sent'), count(*) filter (where c.kind = 'delivered'),
           count(*) filter (where c.kind = 'bounced'), count(*) filter (where c.kind = 'complained'),
           count(*) filter (where c.kind = 'failed'), count(*) filter (where c.kind = 'opened'),
           count(*) filter (where c.kind in ('clicked', 'clicked_first')),
           count(*) filter (where c.kind = 'clicked_first')
    from counted_email_events c cross join unnest(c.tags) t (tag)
    group by c.account_id, t.tag, c.day, c.template_id, c.domain, c.test;
  drop table counted_email_events;
end;
$$;
