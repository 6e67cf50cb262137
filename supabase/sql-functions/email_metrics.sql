-- GET /metrics: p_account_id's counts from p_from to p_to (UTC days, both included), by p_group_by ('day': every day
-- of the range, those without emails at 0; 'template', 'tag' (`name:value`), 'domain': the p_max_keys most sent), of
-- the emails of template p_template_id alone when given, of those with the tag p_tag (`name:value`) alone when given,
-- with test sends when p_test. Read from the daily tables and the deltas not yet folded into them (fold_email_metrics),
-- so its cost follows the days and keys of the range, not its emails. The last row, key null and total true, is the
-- whole range's (an email with two tags is in two tags' rows, once here). clicked counts links (each link's first
-- click), clicked_emails the emails with one.
create or replace function public.email_metrics(
  p_account_id uuid,
  p_from date,
  p_to date,
  p_group_by text,
  p_template_id uuid,
  p_tag text,
  p_test boolean,
  p_max_keys integer
) returns table (
  key text,
  total boolean,
  sent bigint,
  delivered bigint,
  bounced bigint,
  complained bigint,
  failed bigint,
  opened bigint,
  clicked bigint,
  clicked_emails bigint
)
language sql
stable
as $$
  with deltas as (
    select d.day, d.template_id, d.domain, d.tags, (d.kind = 'sent')::int as sent,
           (d.kind = 'delivered')::int as delivered, (d.kind = 'bounced')::int as bounced,
           (d.kind = 'complained')::int as complained, (d.kind = 'failed')::int as failed,
           (d.kind = 'opened')::int as opened, (d.kind in ('clicked', 'clicked_first'))::int as clicked,
           (d.kind = 'clicked_first')::int as clicked_emails
    from public.email_metric_deltas d
    where d.account_id = p_account_id and d.day between p_from and p_to
      and (p_template_id is null or d.template_id = p_template_id) and (p_test or not d.test)
      and (p_tag is null or p_tag = any (d.tags))
  ), counted as (
    select m.day, m.template_id, m.domain, m.sent, m.delivered, m.bounced, m.complained, m.failed, m.opened,
           m.clicked, m.clicked_emails
    from public.email_metrics_daily m
    where p_tag is null and m.account_id = p_account_id and m.day between p_from and p_to
      and (p_template_id is null or m.template_id = p_template_id) and (p_test or not m.test)
    union all
    select m.day, m.template_id, m.domain, m.sent, m.delivered, m.bounced, m.complained, m.failed, m.opened,
           m.clicked, m.clicked_emails
    from public.email_tag_metrics_daily m
    where p_tag is not null and m.account_id = p_account_id and m.tag = p_tag and m.day between p_from and p_to
      and (p_template_id is null or m.template_id = p_template_id) and (p_test or not m.test)
    union all
    select d.day, d.template_id, d.domain, d.sent, d.delivered, d.bounced, d.complained, d.failed, d.opened,
           d.clicked, d.clicked_emails
    from deltas d
  ), tag_counted as (
    select m.tag, m.sent, m.delivered, m.bounced, m.complained, m.failed, m.opened, m.clicked, m.clicked_emails
    from public.email_tag_metrics_daily m
    where p_group_by = 'tag' and p_tag is null and m.account_id = p_account_id and m.day between p_from and p_to
      and (p_template_id is null or m.template_id = p_template_id) and (p_test or not m.test)
    union all
    select t.tag, d.sent, d.delivered, d.bounced, d.complained, d.failed, d.opened, d.clicked, d.clicked_emails
    from deltas d cross join unnest(d.tags) t (tag)
    where p_group_by = 'tag' and p_tag is null
  ), grouped as (
    select case p_group_by when 'template' then c.template_id::text when 'domain' then c.domain else p_tag end as key,
           sum(c.sent) as sent, sum(c.delivered) as delivered, sum(c.bounced) as bounced,
           sum(c.complained) as complained, sum(c.failed) as failed, sum(c.opened) as opened,
           sum(c.clicked) as clicked, sum(c.clicked_emails) as clicked_emails
    from counted c
    where p_group_by in ('template', 'domain') or (p_group_by = 'tag' and p_tag is not null)
    group by 1
    union all
    select t.tag, sum(t.sent), sum(t.delivered), sum(t.bounced), sum(t.complained), sum(t.failed), sum(t.opened),
           sum(t.clicked), sum(t.clicked_emails)
    from tag_counted t
    group by t.tag
  ), days as (
    select to_char(d.day, 'YYYY-MM-DD') as key, coalesce(sum(c.sent), 0) as sent,
           coalesce(sum(c.delivered), 0) as delivered, coalesce(sum(c.bounced), 0) as bounced,
           coalesce(sum(c.complained), 0) as complained, coalesce(sum(c.failed), 0) as failed,
           coalesce(sum(c.opened), 0) as opened, coalesce(sum(c.clicked), 0) as clicked,
           coalesce(sum(c.clicked_emails), 0) as clicked_emails
    -- Dates and integers: a series of timestamps would follow the session's time zone across a daylight saving change.
    from (select p_from + n as day from generate_series(0, p_to - p_from) n) d
      left join counted c on c.day = d.day
    where p_group_by = 'day'
    group by d.day
  )
  select r.key, r.total, r.sent, r.delivered, r.bounced, r.complained, r.failed, r.opened, r.clicked,
         r.clicked_emails
  from (
    select g.key, false as total, 0 as place, g.sent, g.delivered, g.bounced, g.complained, g.failed, g.opened,
           g.clicked, g.clicked_emails
    from days g
    union all
    (select g.key, false, 1, g.sent, g.delivered, g.bounced, g.complained, g.failed, g.opened, g.clicked,
            g.clicked_emails
     from grouped g
     order by g.sent desc, g.key
     limit p_max_keys)
    union all
    select null, true, 2, coalesce(sum(c.sent), 0), coalesce(sum(c.delivered), 0), coalesce(sum(c.bounced), 0),
           coalesce(sum(c.complained), 0), coalesce(sum(c.failed), 0), coalesce(sum(c.opened), 0),
           coalesce(sum(c.clicked), 0), coalesce(sum(c.clicked_emails), 0)
    from counted c
  ) r
  -- Days in order; the other keys the most sent first (then by key, so an answer is always in the same order).
  order by r.place, case when r.place = 0 then r.key end, r.sent desc, r.key;
$$;
