-- Folds up to p_limit of email_metric_deltas (the oldest) into email_metrics_daily and email_tag_metrics_daily, and
-- answers how many it folded: the dispatch step runs it (its cron route, and after sends). One fold at a time (the
-- transaction's advisory lock; a call that finds one running folds nothing), so the daily rows have one writer and no
-- two transactions wait on each other's. A delta still being written is not yet visible, and is folded by a later call;
-- so is one of an account being deleted (its row locked: the fold waits on no deletion's cascade, which deadlocked).
create or replace function public.fold_email_metrics(p_limit integer) returns integer
language plpgsql
as $$
declare
  v_folded integer;
begin
  if not pg_try_advisory_xact_lock(hashtext('email_metrics')) then
    return 0;
  end if;
  with moved as (
    delete from public.email_metric_deltas d
    where d.id in (select x.id from public.email_metric_deltas x join public.accounts a on a.id = x.account_id
                   order by x.id
                   limit p_limit
                   for update of x skip locked for key share of a skip locked)
    returning d.*
  ), emails as (
    insert into public.email_metrics_daily as m (account_id, day, template_id, domain, test, sent, delivered, bounced,
                                                 complained, failed, opened, clicked, clicked_emails)
      select v.account_id, v.day, v.template_id, v.domain, v.test,
             count(*) filter (where v.kind = 'sent'), count(*) filter (where v.kind = 'delivered'),
             count(*) filter (where v.kind = 'bounced'), count(*) filter (where v.kind = 'complained'),
             count(*) filter (where v.kind = 'failed'), count(*) filter (where v.kind = 'opened'),
             count(*) filter (where v.kind in ('clicked', 'clicked_first')),
             count(*) filter (where v.kind = 'clicked_first')
      from moved v
      group by v.account_id, v.day, v.template_id, v.domain, v.test
      on conflict (account_id, day, template_id, domain, test) do update
      set sent = m.sent + excluded.sent, delivered = m.delivered + excluded.delivered,
          bounced = m.bounced + excluded.bounced, complained = m.complained + excluded.complained,
          failed = m.failed + excluded.failed, opened = m.opened + excluded.opened,
          clicked = m.clicked + excluded.clicked, clicked_emails = m.clicked_emails + excluded.clicked_emails
  ), tagged as (
    insert into public.email_tag_metrics_daily as m (account_id, tag, day, template_id, domain, test, sent, delivered,
                                                     bounced, complained, failed, opened, clicked, clicked_emails)
      select v.account_id, t.tag, v.day, v.template_id, v.domain, v.test,
             count(*) filter (where v.kind = 'sent'), count(*) filter (where v.kind = 'delivered'),
             count(*) filter (where v.kind = 'bounced'), count(*) filter (where v.kind = 'complained'),
             count(*) filter (where v.kind = 'failed'), count(*) filter (where v.kind = 'opened'),
             count(*) filter (where v.kind in ('clicked', 'clicked_first')),
             count(*) filter (where v.kind = 'clicked_first')
      from moved v cross join unnest(v.tags) t (tag)
      group by v.account_id, t.tag, v.day, v.template_id, v.domain, v.test
      on conflict (account_id, tag, day, template_id, domain, test) do update
      set sent = m.sent + excluded.sent, delivered = m.delivered + excluded.delivered,
          bounced = m.bounced + excluded.bounced, complained = m.complained + excluded.complained,
          failed = m.failed + excluded.failed, opened = m.opened + excluded.opened,
          clicked = m.clicked + excluded.clicked, clicked_emails = m.clicked_emails + excluded.clicked_emails
  )
  select count(*) into v_folded from moved;
  return v_folded;
end;
$$;
