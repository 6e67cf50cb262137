-- Engagement metrics (API v1.3, GET /metrics): each email event that counts (an email's first sent, delivered,
-- bounced, complained, failed and opened; each link's first click) is added to its UTC day's row of these tables in
-- the transaction that appends it (the trigger below: every path that records an event goes through email_events), so
-- a query over any range reads days, not emails. A row is keyed by the email's template, its sender's domain and
-- whether it was a test send, and by the backend that counted it (shard: count_email_event_metrics), so that
-- transactions counting at once never wait on each other's rows. The tag table has a row per `name:value` of the
-- email's tags (an email with several tags is in several).

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
  shard integer not null,
  sent integer not null default 0,
  delivered integer not null default 0,
  bounced integer not null default 0,
  complained integer not null default 0,
  failed integer not null default 0,
  opened integer not null default 0,
  clicked integer not null default 0
);
create unique index email_metrics_daily_key on public.email_metrics_daily
  (account_id, day, template_id, domain, test, shard) nulls not distinct;
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
  shard integer not null,
  sent integer not null default 0,
  delivered integer not null default 0,
  bounced integer not null default 0,
  complained integer not null default 0,
  failed integer not null default 0,
  opened integer not null default 0,
  clicked integer not null default 0
);
create unique index email_tag_metrics_daily_key on public.email_tag_metrics_daily
  (account_id, tag, day, template_id, domain, test, shard) nulls not distinct;
create index email_tag_metrics_daily_day_idx on public.email_tag_metrics_daily (account_id, day);
create index email_tag_metrics_daily_template_idx on public.email_tag_metrics_daily (template_id)
  where template_id is not null;

do $$
declare
  t text;
  role_name text;
begin
  foreach t in array array['email_metrics_daily', 'email_tag_metrics_daily'] loop
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

-- supabase/sql-functions/move_deleted_template_metrics.sql
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

-- supabase/sql-functions/rebuild_email_metrics.sql
-- Counts p_account_id's email events again (every account's when null) into email_metrics_daily and
-- email_tag_metrics_daily, as count_email_event_metrics counts each as it is appended: for the events recorded before
-- the tables existed, and for bulk loads made without the trigger (the bench's million emails). email_events is held
-- in share row exclusive mode until the transaction ends, so no event is appended (and counted by the trigger) and no
-- other rebuild runs while it counts.
create or replace function public.rebuild_email_metrics(p_account_id uuid default null) returns void
language plpgsql
as $$
begin
  lock table public.email_events in share row exclusive mode;
  delete from public.email_metrics_daily m where p_account_id is null or m.account_id = p_account_id;
  delete from public.email_tag_metrics_daily m where p_account_id is null or m.account_id = p_account_id;
  create temporary table counted_email_events on commit drop as
    select ev.account_id, (ev.occurred_at at time zone 'UTC')::date as day, e.template_id,
           public.email_address_domain(e.from_address) as domain, e.test, e.tags, ev.type
    from (select ev.*,
                 row_number() over (partition by ev.email_id, ev.type,
                                                 case when ev.type = 'clicked' then ev.detail ->> 'link' end
                                    order by ev.id) as nth
          from public.email_events ev
          where (p_account_id is null or ev.account_id = p_account_id)
            and ev.type in ('sent', 'delivered', 'bounced', 'complained', 'failed', 'opened', 'clicked')) ev
      join public.sent_emails e on e.id = ev.email_id
    where ev.nth = 1;
  insert into public.email_metrics_daily (account_id, day, template_id, domain, test, shard, sent, delivered, bounced,
                                          complained, failed, opened, clicked)
    select c.account_id, c.day, c.template_id, c.domain, c.test, 0,
           count(*) filter (where c.type = 'sent'), count(*) filter (where c.type = 'delivered'),
           count(*) filter (where c.type = 'bounced'), count(*) filter (where c.type = 'complained'),
           count(*) filter (where c.type = 'failed'), count(*) filter (where c.type = 'opened'),
           count(*) filter (where c.type = 'clicked')
    from counted_email_events c
    group by c.account_id, c.day, c.template_id, c.domain, c.test;
  insert into public.email_tag_metrics_daily (account_id, tag, day, template_id, domain, test, shard, sent, delivered,
                                              bounced, complained, failed, opened, clicked)
    select c.account_id, t.tag, c.day, c.template_id, c.domain, c.test, 0,
           count(*) filter (where c.type = 'sent'), count(*) filter (where c.type = 'delivered'),
           count(*) filter (where c.type = 'bounced'), count(*) filter (where c.type = 'complained'),
           count(*) filter (where c.type = 'failed'), count(*) filter (where c.type = 'opened'),
           count(*) filter (where c.type = 'clicked')
    from counted_email_events c
      cross join lateral (select distinct (tag ->> 'name') || ':' || (tag ->> 'value') as tag
                          from jsonb_array_elements(c.tags) tag) t
    group by c.account_id, t.tag, c.day, c.template_id, c.domain, c.test;
  drop table counted_email_events;
end;
$$;

-- supabase/sql-functions/email_metrics.sql
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

create trigger email_events_count_metrics after insert on public.email_events
  for each row execute function public.count_email_event_metrics();
-- Named to fire after the foreign keys' own triggers ("RI_…"), which set the emails' template_id null.
create trigger templates_move_deleted_metrics after delete on public.templates
  for each row execute function public.move_deleted_template_metrics();

-- The events recorded before this migration.
select public.rebuild_email_metrics();

-- Only the server calls them (as for every function: 20261122000600_hot_path_functions.sql).
do $$
declare
  grantee text;
begin
  for grantee in select 'public' union all select rolname from pg_roles where rolname in ('anon', 'authenticated') loop
    execute format('revoke execute on function public.email_address_domain(text) from %s', grantee);
    execute format('revoke execute on function public.count_email_event_metrics() from %s', grantee);
    execute format('revoke execute on function public.move_deleted_template_metrics() from %s', grantee);
    execute format('revoke execute on function public.rebuild_email_metrics(uuid) from %s', grantee);
    execute format('revoke execute on function public.email_metrics(uuid, date, date, text, uuid, text, boolean) from %s', grantee);
  end loop;
end $$;
