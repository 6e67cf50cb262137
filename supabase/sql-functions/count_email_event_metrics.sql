-- email_events' trigger: adds the event to its UTC day's rows of email_metrics_daily and email_tag_metrics_daily (one
-- per distinct `name:value` of the email's tags), in the transaction that appends it. Counted once an email: sent,
-- delivered, bounced, complained, failed and opened (the hand-off's sent and the provider's email.sent are one send);
-- clicked once each link (detail.link). An email's events are appended under its row's lock, so the earlier one
-- looked for is never being written at once.
-- The rows written are the ones of this backend (shard = pg_backend_pid()): no two transactions running at once are
-- on one backend, so they never wait on each other's rows, whatever order a statement of many emails counts them in.
create or replace function public.count_email_event_metrics() returns trigger
language plpgsql
as $$
declare
  v_email record;
  v_shard integer := pg_backend_pid();
  v_day date := (new.occurred_at at time zone 'UTC')::date;
begin
  if new.type not in ('sent', 'delivered', 'bounced', 'complained', 'failed', 'opened', 'clicked') then
    return null;
  end if;
  if exists (select 1 from public.email_events e
             where e.email_id = new.email_id and e.type = new.type and e.id <> new.id
               and (new.type <> 'clicked' or (e.detail ->> 'link') is not distinct from (new.detail ->> 'link'))) then
    return null;
  end if;
  select e.template_id, e.test, e.tags, public.email_address_domain(e.from_address) as domain into v_email
    from public.sent_emails e where e.id = new.email_id;
  insert into public.email_metrics_daily as m (account_id, day, template_id, domain, test, shard, sent, delivered,
                                               bounced, complained, failed, opened, clicked)
    values (new.account_id, v_day, v_email.template_id, v_email.domain, v_email.test, v_shard,
            (new.type = 'sent')::int, (new.type = 'delivered')::int, (new.type = 'bounced')::int,
            (new.type = 'complained')::int, (new.type = 'failed')::int, (new.type = 'opened')::int,
            (new.type = 'clicked')::int)
    on conflict (account_id, day, template_id, domain, test, shard) do update
    set sent = m.sent + excluded.sent, delivered = m.delivered + excluded.delivered,
        bounced = m.bounced + excluded.bounced, complained = m.complained + excluded.complained,
        failed = m.failed + excluded.failed, opened = m.opened + excluded.opened, clicked = m.clicked + excluded.clicked;
  if jsonb_array_length(v_email.tags) > 0 then
    insert into public.email_tag_metrics_daily as m (account_id, tag, day, template_id, domain, test, shard, sent,
                                                     delivered, bounced, complained, failed, opened, clicked)
      select distinct new.account_id, (t.tag ->> 'name') || ':' || (t.tag ->> 'value'), v_day, v_email.template_id,
             v_email.domain, v_email.test, v_shard, (new.type = 'sent')::int, (new.type = 'delivered')::int,
             (new.type = 'bounced')::int, (new.type = 'complained')::int, (new.type = 'failed')::int,
             (new.type = 'opened')::int, (new.type = 'clicked')::int
      from jsonb_array_elements(v_email.tags) t (tag)
      on conflict (account_id, tag, day, template_id, domain, test, shard) do update
      set sent = m.sent + excluded.sent, delivered = m.delivered + excluded.delivered,
          bounced = m.bounced + excluded.bounced, complained = m.complained + excluded.complained,
          failed = m.failed + excluded.failed, opened = m.opened + excluded.opened,
          clicked = m.clicked + excluded.clicked;
  end if;
  return null;
end;
$$;
