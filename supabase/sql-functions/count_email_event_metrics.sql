-- email_events' trigger: an event that counts is appended to email_metric_deltas, in the transaction that appends it,
-- with what GET /metrics keys it by (its UTC day, the email's template, sender domain, test or not, and its tags'
-- `name:value`s); fold_email_metrics folds the deltas into the daily tables. Counted once an email: sent, delivered,
-- bounced, complained, failed and opened (the hand-off's sent and the provider's email.sent are one send); clicked
-- once each link (detail.link), `clicked_first` for the email's first. "Once" is against the email's earlier events
-- (a smaller id): an email's events are appended under its row's lock, so none is being written at once.
-- Only ever an insert: a statement that counts many emails (a dispatch of a thousand scheduled ones, each event
-- appended by its own statement) waits on no row and updates none again and again.
create or replace function public.count_email_event_metrics() returns trigger
language plpgsql
as $$
declare
  v_kind text := new.type;
begin
  if new.type not in ('sent', 'delivered', 'bounced', 'complained', 'failed', 'opened', 'clicked') then
    return null;
  end if;
  if exists (select 1 from public.email_events e
             where e.email_id = new.email_id and e.id < new.id and e.type = new.type
               and (new.type <> 'clicked' or (e.detail ->> 'link') is not distinct from (new.detail ->> 'link'))) then
    return null;
  end if;
  if new.type = 'clicked' and not exists (select 1 from public.email_events e
                                          where e.email_id = new.email_id and e.id < new.id and e.type = 'clicked') then
    v_kind := 'clicked_first';
  end if;
  insert into public.email_metric_deltas (account_id, day, template_id, domain, test, tags, kind)
    select new.account_id, (new.occurred_at at time zone 'UTC')::date, e.template_id,
           public.email_address_domain(e.from_address), e.test,
           coalesce((select array_agg(distinct (t.tag ->> 'name') || ':' || (t.tag ->> 'value'))
                     from jsonb_array_elements(e.tags) t (tag)), '{}'),
           v_kind
    from public.sent_emails e where e.id = new.email_id;
  return null;
end;
$$;
