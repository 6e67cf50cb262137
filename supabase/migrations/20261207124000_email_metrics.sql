-- Engagement metrics (API v1.3, GET /metrics). Each email event that counts (an email's first sent, delivered,
-- bounced, complained, failed and opened; each link's first click) is appended to email_metric_deltas in the
-- transaction that appends it (count_email_event_metrics, the trigger below: every path that records an event goes
-- through email_events). fold_email_metrics, run by the dispatch step, folds the deltas into a row a UTC day of the
-- daily tables, keyed by the email's template, its sender's domain and whether it was a test send (and in the tag
-- table by each `name:value` of its tags), so a query over any range reads days, not emails: the daily rows and the
-- deltas not yet folded.

-- A database that applied this migration's draft (20261207084000_email_metrics, on main for an hour) had its tables
-- keyed otherwise.
drop trigger if exists email_events_count_metrics on public.email_events;
drop function if exists public.email_metrics(uuid, date, date, text, uuid, text, text, boolean);
drop table if exists public.email_metrics_daily, public.email_tag_metrics_daily;
delete from supabase_migrations.schema_migrations where version = '20261207084000';

create table public.email_metrics_daily (
  account_id uuid not null references public.accounts (id) on delete cascade,
  day date not null,
  -- No reference: a deleted template's counts move to null (move_deleted_template_metrics), as its emails' key does.
  template_id uuid,
  domain text not null,
  test boolean not null,
  sent integer not null default 0,
  delivered integer not null default 0,
  bounced integer not null default 0,
  complained integer not null default 0,
  failed integer not null default 0,
  opened integer not null default 0,
  -- Links clicked (each link's first click in an email), and emails with a click (the click rate's).
  clicked integer not null default 0,
  clicked_emails integer not null default 0
);
create unique index email_metrics_daily_key on public.email_metrics_daily
  (account_id, day, template_id, domain, test) nulls not distinct;
create index email_metrics_daily_template_idx on public.email_metrics_daily (template_id)
  where template_id is not null;

create table public.email_tag_metrics_daily (
  account_id uuid not null references public.accounts (id) on delete cascade,
  -- `name:value`, the key GET /metrics groups and filters by.
  tag text not null,
  day date not null,
  template_id uuid,
  domain text not null,
  test boolean not null,
  sent integer not null default 0,
  delivered integer not null default 0,
  bounced integer not null default 0,
  complained integer not null default 0,
  failed integer not null default 0,
  opened integer not null default 0,
  -- Links clicked (each link's first click in an email), and emails with a click (the click rate's).
  clicked integer not null default 0,
  clicked_emails integer not null default 0
);
create unique index email_tag_metrics_daily_key on public.email_tag_metrics_daily
  (account_id, tag, day, template_id, domain, test) nulls not distinct;
create index email_tag_metrics_daily_day_idx on public.email_tag_metrics_daily (account_id, day);
create index email_tag_metrics_daily_template_idx on public.email_tag_metrics_daily (template_id)
  where template_id is not null;

-- One row an event that counts, until fold_email_metrics folds it: appended only, so counting waits on no row.
create table public.email_metric_deltas (
  id bigint generated always as identity primary key,
  account_id uuid not null references public.accounts (id) on delete cascade,
  day date not null,
  template_id uuid,
  domain text not null,
  test boolean not null,
  -- The email's tags' distinct `name:value`s.
  tags text[] not null,
  kind text not null check (kind in ('sent', 'delivered', 'bounced', 'complained', 'failed', 'opened', 'clicked',
                                     'clicked_first'))
);
create index email_metric_deltas_account_day_idx on public.email_metric_deltas (account_id, day);

do $$
declare
  t text;
  role_name text;
begin
  foreach t in array array['email_metrics_daily', 'email_tag_metrics_daily', 'email_metric_deltas'] loop
    execute format('alter table public.%I enable row level security', t);
    for role_name in select rolname from pg_roles where rolname in ('anon', 'authenticated') loop
      execute format('revoke all on public.%I from %I', t, role_name);
    end loop;
  end loop;
end $$;

-- supabase/sql-functions/email_address_domain.sql
-- The domain of an address as a sender writes it (`hi@acme.com` or `Acme <hi@acme.com>`), in lower case; '' when it
-- has none. What GET /metrics groups by domain.
create or replace function public.email_address_domain(p_address text) returns text
language sql
immutable
as $$
  select coalesce(lower(substring(p_address from '@([^@<>[:space:]]+)>?[[:space:]]*$')), '');
$$;

-- supabase/sql-functions/count_email_event_metrics.sql
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

-- supabase/sql-functions/fold_email_metrics.sql
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

-- supabase/sql-functions/move_deleted_template_metrics.sql
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

-- supabase/sql-functions/rebuild_email_metrics.sql
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

-- supabase/sql-functions/email_metrics.sql
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

create trigger email_events_count_metrics after insert on public.email_events
  for each row execute function public.count_email_event_metrics();
-- Named to fire after the foreign keys' own triggers ("RI_…"), which set the emails' template_id null.
create trigger templates_move_deleted_metrics after delete on public.templates
  for each row execute function public.move_deleted_template_metrics();

-- The events recorded before this migration (email_events is held meanwhile: a deploy's pause).
select public.rebuild_email_metrics();

-- Only the server calls them (as for every function: 20261122000600_hot_path_functions.sql).
do $$
declare
  grantee text;
begin
  for grantee in select 'public' union all select rolname from pg_roles where rolname in ('anon', 'authenticated') loop
    execute format('revoke execute on function public.email_address_domain(text) from %s', grantee);
    execute format('revoke execute on function public.count_email_event_metrics() from %s', grantee);
    execute format('revoke execute on function public.fold_email_metrics(integer) from %s', grantee);
    execute format('revoke execute on function public.move_deleted_template_metrics() from %s', grantee);
    execute format('revoke execute on function public.rebuild_email_metrics(uuid) from %s', grantee);
    execute format('revoke execute on function public.email_metrics(uuid, date, date, text, uuid, text, boolean, integer) from %s', grantee);
  end loop;
end $$;
