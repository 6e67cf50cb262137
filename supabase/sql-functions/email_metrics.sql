-- GET /metrics: p_account_id's counts from p_from to p_to (UTC days, both included), by p_group_by ('day': every day
-- of the range, those without emails at 0; 'template', 'tag' (`name:value`), 'domain': those with emails, the most
-- sent first), of the emails of template p_template_id alone when given, of those with the tag p_tag (`name:value`)
-- alone when given, with test sends when p_test. Read from the daily tables count_email_event_metrics keeps (the tags' table
-- when a tag is asked for or grouped by), so its cost follows the days and keys of the range, not its emails. The
-- last row, key null and total true, is the whole range's (an email with two tags is in two tags' rows, once here).
create or replace function public.email_metrics(
  p_account_id uuid,
  p_from date,
  p_to date,
  p_group_by text,
  p_template_id uuid,
  p_tag text,
  p_test boolean
) returns table (
  key text,
  total boolean,
  sent bigint,
  delivered bigint,
  bounced bigint,
  complained bigint,
  failed bigint,
  opened bigint,
  clicked bigint
)
language sql
stable
as $$
  with counted as (
    select m.day, m.template_id, m.domain, null::text as tag, m.sent, m.delivered, m.bounced, m.complained, m.failed,
           m.opened, m.clicked
    from public.email_metrics_daily m
    where p_tag is null and m.account_id = p_account_id and m.day between p_from and p_to
      and (p_template_id is null or m.template_id = p_template_id) and (p_test or not m.test)
    union all
    select m.day, m.template_id, m.domain, m.tag, m.sent, m.delivered, m.bounced,
           m.complained, m.failed, m.opened, m.clicked
    from public.email_tag_metrics_daily m
    where p_tag is not null and m.account_id = p_account_id and m.tag = p_tag and m.day between p_from and p_to
      and (p_template_id is null or m.template_id = p_template_id) and (p_test or not m.test)
  ), by_tag as (
    select m.tag as key, sum(m.sent) as sent, sum(m.delivered) as delivered,
           sum(m.bounced) as bounced, sum(m.complained) as complained, sum(m.failed) as failed,
           sum(m.opened) as opened, sum(m.clicked) as clicked
    from public.email_tag_metrics_daily m
    where p_group_by = 'tag' and p_tag is null and m.account_id = p_account_id and m.day between p_from and p_to
      and (p_template_id is null or m.template_id = p_template_id) and (p_test or not m.test)
    group by m.tag
  ), grouped as (
    select case p_group_by when 'template' then c.template_id::text when 'domain' then c.domain else c.tag end as key,
           sum(c.sent) as sent, sum(c.delivered) as delivered, sum(c.bounced) as bounced,
           sum(c.complained) as complained, sum(c.failed) as failed, sum(c.opened) as opened,
           sum(c.clicked) as clicked
    from counted c
    where p_group_by in ('template', 'domain') or (p_group_by = 'tag' and p_tag is not null)
    group by 1
    union all
    select * from by_tag
  ), days as (
    select to_char(d.day, 'YYYY-MM-DD') as key, coalesce(sum(c.sent), 0) as sent,
           coalesce(sum(c.delivered), 0) as delivered, coalesce(sum(c.bounced), 0) as bounced,
           coalesce(sum(c.complained), 0) as complained, coalesce(sum(c.failed), 0) as failed,
           coalesce(sum(c.opened), 0) as opened, coalesce(sum(c.clicked), 0) as clicked
    from generate_series(p_from, p_to, interval '1 day') d (day)
      left join counted c on c.day = d.day::date
    where p_group_by = 'day'
    group by d.day
  )
  select r.key, r.total, r.sent, r.delivered, r.bounced, r.complained, r.failed, r.opened, r.clicked
  from (
    select g.key, false as total, 0 as place, g.sent, g.delivered, g.bounced, g.complained, g.failed, g.opened,
           g.clicked
    from days g
    union all
    select g.key, false, 1, g.sent, g.delivered, g.bounced, g.complained, g.failed, g.opened, g.clicked
    from grouped g
    union all
    select null, true, 2, coalesce(sum(c.sent), 0), coalesce(sum(c.delivered), 0), coalesce(sum(c.bounced), 0),
           coalesce(sum(c.complained), 0), coalesce(sum(c.failed), 0), coalesce(sum(c.opened), 0),
           coalesce(sum(c.clicked), 0)
    from counted c
  ) r
  -- Days in order; the other keys the most sent first (then by key, so an answer is always in the same order).
  order by r.place, case when r.place = 0 then r.key end, r.sent desc, r.key;
$$;
