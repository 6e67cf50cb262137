-- templates' trigger: a deleted template's counts (its daily rows and deltas not yet folded) move to those of emails
-- without a template, as its emails do (sent_emails.template_id is set null first, which locked them, so none of their
-- events is being counted meanwhile). Under fold_email_metrics' lock, so no fold writes the daily rows at once.
create or replace function public.move_deleted_template_metrics() returns trigger
language plpgsql
as $$
begin
  perform pg_advisory_xact_lock(hashtext('email_metrics'));
  update public.email_metric_deltas d set template_id = null where d.template_id = old.id;
  with moved as (
    delete from public.email_metrics_daily m where m.template_id = old.id returning m.*
  )
  insert into public.email_metrics_daily as m (account_id, day, template_id, domain, test, sent, delivered, bounced,
                                               complained, failed, opened, clicked, clicked_emails)
    select v.account_id, v.day, null, v.domain, v.test, sum(v.sent), sum(v.delivered), sum(v.bounced),
           sum(v.complained), sum(v.failed), sum(v.opened), sum(v.clicked), sum(v.clicked_emails)
    from moved v
    group by v.account_id, v.day, v.domain, v.test
    on conflict (account_id, day, template_id, domain, test) do update
    set sent = m.sent + excluded.sent, delivered = m.delivered + excluded.delivered,
        bounced = m.bounced + excluded.bounced, complained = m.complained + excluded.complained,
        failed = m.failed + excluded.failed, opened = m.opened + excluded.opened,
        clicked = m.clicked + excluded.clicked, clicked_emails = m.clicked_emails + excluded.clicked_emails;
  with moved as (
    delete from public.email_tag_metrics_daily m where m.template_id = old.id returning m.*
  )
  insert into public.email_tag_metrics_daily as m (account_id, tag, day, template_id, domain, test, sent, delivered,
                                                   bounced, complained, failed, opened, clicked, clicked_emails)
    select v.account_id, v.tag, v.day, null, v.domain, v.test, sum(v.sent), sum(v.delivered), sum(v.bounced),
           sum(v.complained), sum(v.failed), sum(v.opened), sum(v.clicked), sum(v.clicked_emails)
    from moved v
    group by v.account_id, v.tag, v.day, v.domain, v.test
    on conflict (account_id, tag, day, template_id, domain, test) do update
    set sent = m.sent + excluded.sent, delivered = m.delivered + excluded.delivered,
        bounced = m.bounced + excluded.bounced, complained = m.complained + excluded.complained,
        failed = m.failed + excluded.failed, opened = m.opened + excluded.opened,
        clicked = m.clicked + excluded.clicked, clicked_emails = m.clicked_emails + excluded.clicked_emails;
  return null;
end;
$$;
