-- email_events' trigger: adds the event to its UTC day's rows of email_metrics_daily and email_tag_metrics_daily (one
-- a tag of the email), in the transaction that appends it. Counted: sent, delivered, bounced, complained and failed;
-- an email's first open, and each link's first click (detail.link), once (an email's events are appended under its
-- row's lock, so the one looked for is never being written at once).
create or replace function public.count_email_event_metrics() returns trigger
language plpgsql
as $$
declare
  v_email record;
  v_shard smallint := abs(hashtext(new.email_id::text)) % 8;
  v_day date := (new.occurred_at at time zone 'UTC')::date;
begin
  if new.type not in ('sent', 'delivered', 'bounced', 'complained', 'failed', 'opened', 'clicked') then
    return null;
  end if;
  if new.type = 'opened' and exists (select 1 from public.email_events e
                                     where e.email_id = new.email_id and e.type = 'opened' and e.id <> new.id) then
    return null;
  end if;
  if new.type = 'clicked' and exists (select 1 from public.email_events e
                                      where e.email_id = new.email_id and e.type = 'clicked' and e.id <> new.id
                                        and (e.detail ->> 'link') is not distinct from (new.detail ->> 'link')) then
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
    insert into public.email_tag_metrics_daily as m (account_id, tag_name, tag_value, day, template_id, domain, test,
                                                     shard, sent, delivered, bounced, complained, failed, opened,
                                                     clicked)
      select distinct on (t.tag ->> 'name', t.tag ->> 'value')
             new.account_id, t.tag ->> 'name', t.tag ->> 'value', v_day, v_email.template_id, v_email.domain,
             v_email.test, v_shard, (new.type = 'sent')::int, (new.type = 'delivered')::int,
             (new.type = 'bounced')::int, (new.type = 'complained')::int, (new.type = 'failed')::int,
             (new.type = 'opened')::int, (new.type = 'clicked')::int
      from jsonb_array_elements(v_email.tags) t (tag)
      on conflict (account_id, tag_name, tag_value, day, template_id, domain, test, shard) do update
      set sent = m.sent + excluded.sent, delivered = m.delivered + excluded.delivered,
          bounced = m.bounced + excluded.bounced, complained = m.complained + excluded.complained,
          failed = m.failed + excluded.failed, opened = m.opened + excluded.opened,
          clicked = m.clicked + excluded.clicked;
  end if;
  return null;
end;
$$;
