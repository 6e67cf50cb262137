-- templates' trigger: a deleted template's counts in email_metrics_daily and email_tag_metrics_daily move to the rows
-- of emails without a template, as its emails do (sent_emails.template_id is set null, which has locked them first, so
-- none of their events is being counted meanwhile). Moved into this backend's rows (count_email_event_metrics).
create or replace function public.move_deleted_template_metrics() returns trigger
language plpgsql
as $$
begin
  with moved as (
    delete from public.email_metrics_daily m where m.template_id = old.id returning m.*
  )
  insert into public.email_metrics_daily as m (account_id, day, template_id, domain, test, shard, sent, delivered,
                                               bounced, complained, failed, opened, clicked)
    select v.account_id, v.day, null, v.domain, v.test, pg_backend_pid(), sum(v.sent), sum(v.delivered),
           sum(v.bounced), sum(v.complained), sum(v.failed), sum(v.opened), sum(v.clicked)
    from moved v
    group by v.account_id, v.day, v.domain, v.test
    on conflict (account_id, day, template_id, domain, test, shard) do update
    set sent = m.sent + excluded.sent, delivered = m.delivered + excluded.delivered,
        bounced = m.bounced + excluded.bounced, complained = m.complained + excluded.complained,
        failed = m.failed + excluded.failed, opened = m.opened + excluded.opened, clicked = m.clicked + excluded.clicked;
  with moved as (
    delete from public.email_tag_metrics_daily m where m.template_id = old.id returning m.*
  )
  insert into public.email_tag_metrics_daily as m (account_id, tag, day, template_id, domain, test, shard, sent,
                                                   delivered, bounced, complained, failed, opened, clicked)
    select v.account_id, v.tag, v.day, null, v.domain, v.test, pg_backend_pid(), sum(v.sent), sum(v.delivered),
           sum(v.bounced), sum(v.complained), sum(v.failed), sum(v.opened), sum(v.clicked)
    from moved v
    group by v.account_id, v.tag, v.day, v.domain, v.test
    on conflict (account_id, tag, day, template_id, domain, test, shard) do update
    set sent = m.sent + excluded.sent, delivered = m.delivered + excluded.delivered,
        bounced = m.bounced + excluded.bounced, complained = m.complained + excluded.complained,
        failed = m.failed + excluded.failed, opened = m.opened + excluded.opened, clicked = m.clicked + excluded.clicked;
  return null;
end;
$$;
