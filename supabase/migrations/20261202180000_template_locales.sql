-- Localized templates (lib/templates/messages.ts): a saved content's locales, `[{ "tag", "subject"? }]` in
-- alphabetical order (each locale's top-level `subject` message after its fallbacks, for a send without a subject),
-- and its default locale, on the template (what renders and sends use by default), each version and the draft; null
-- for content without messages/<tag>.json files. Each email records the locale it was rendered in (null: none).
alter table public.templates add column locales jsonb, add column default_locale text;
alter table public.template_versions add column locales jsonb, add column default_locale text;
alter table public.template_drafts add column locales jsonb, add column default_locale text;
alter table public.sent_emails add column locale text;

-- The functions that read or write them, as supabase/sql-functions/ now holds them. send_context answers the
-- content's locales and default locale: a change of its result columns, which create or replace refuses, so the old
-- one is dropped first.
drop function if exists public.send_context(uuid, uuid, text, text[], integer, boolean);

-- supabase/sql-functions/send_context.sql
-- POST /send's lookup before rendering, in one round trip: the account's sending domains (oldest first, as JSON, each
-- with Resend's status: with Resend configured only its verification counts), which of p_recipients (lower-cased) the
-- account has suppressed, and, when it is in the library, what rendering the template needs (one row; the template
-- columns are null when it is not in the library). The template is named by its id or, that null, by an alias
-- (template_id_by_alias): the caller decides which. A function for its kept plans, as library_page.
--
-- The template is rendered in the version p_version names, or its draft with p_draft, else in its own content (its
-- published version's, or its draft's before a first publish), as lib/templates/data/templates.ts findTemplateForAccount resolves
-- it: content_key names that content for the sandbox's warm contexts, template_version is what the email records (a
-- number, or 'draft'), null when the template has no such version. locales and default_locale are that content's
-- (null without messages), so a send resolves its locale and subject with no round trip more.
drop function if exists public.send_context(uuid, uuid, text[]);
create or replace function public.send_context(p_account_id uuid, p_template_id uuid, p_template_alias text,
                                               p_recipients text[], p_version integer, p_draft boolean)
returns table (sender_domains json, suppressed json, id uuid, owner_account_id uuid, slug text, compiled_code text,
               variables json, content_key text, template_version text, locales jsonb, default_locale text)
language plpgsql stable
as $$
#variable_conflict use_column
begin
  return query
    select d.sender_domains, s.suppressed, tl.* from (
      select coalesce(json_agg(json_build_object(
               'id', s.id, 'domain', s.domain, 'verified', s.verified, 'default_sender', s.default_sender,
               'created_at', s.created_at, 'verified_at', s.verified_at, 'provider_status', s.provider_status)
               order by s.created_at), '[]'::json) as sender_domains
      from public.sending_domains s where s.account_id = p_account_id
    ) d cross join (
      select coalesce(json_agg(json_build_object('email', x.email, 'reason', x.reason, 'created_at', x.created_at)),
                      '[]'::json) as suppressed
      from public.email_suppressions x where x.account_id = p_account_id and x.email = any(p_recipients)
    ) s left join lateral (
      select t.id, t.owner_account_id, t.slug, t.compiled_code, t.variables, t.version::text,
             coalesce(t.published_version::text, 'draft'), t.locales, t.default_locale
      from public.library_entries l join public.templates t on t.id = l.template_id
      where l.account_id = p_account_id
        and l.template_id = coalesce(p_template_id, public.template_id_by_alias(p_account_id, p_template_alias))
        and p_version is null and not p_draft
      union all
      select t.id, t.owner_account_id, t.slug, r.compiled_code, r.variables, r.content_key, r.template_version,
             r.locales, r.default_locale
      from public.library_entries l join public.templates t on t.id = l.template_id
      left join lateral (
        select v.compiled_code, v.variables, 'v' || v.version as content_key, v.version::text as template_version,
               v.locales, v.default_locale
        from public.template_versions v where v.template_id = t.id and v.version = p_version
        union all
        select t.compiled_code, t.variables, t.version::text, '1', t.locales, t.default_locale
        where t.owner_account_id is null and p_version = 1
        union all
        select d.compiled_code, d.variables, 'draft:' || d.revision, 'draft', d.locales, d.default_locale
        from public.template_drafts d where d.template_id = t.id and p_draft
      ) r on true
      where l.account_id = p_account_id
        and l.template_id = coalesce(p_template_id, public.template_id_by_alias(p_account_id, p_template_alias))
        and (p_version is not null or p_draft)
    ) tl on true;
end;
$$;

-- supabase/sql-functions/record_counted_email.sql
-- POST /send: counts one email against its quota and records it, in one statement and one transaction, so the message
-- exists before anyone hands it to a provider and concurrent sends never exceed the limit.
--
-- p_quota: { period_start, monthly_limit, overage, test_daily_limit }, from the application's plan table. Without
-- overage, a send past the monthly limit is refused (allowed = false) and nothing is counted or recorded. With
-- overage, it is counted, flagged is_overage and written to the billing ledger. test_daily_limit is null for a live
-- send; for a test key's send it is the most test emails the account may send in a UTC day: the email is recorded
-- (test = true) and counted against today's test sends instead, refused past that limit, and leaves the month's
-- emails, the daily emails and the overage ledger alone (`used` is still the month's emails, as the answer reports
-- them).
--
-- p_status is 'pending' for an external provider, or 'sent' / 'scheduled' for the embedded outbox, whose record is the
-- delivery. p_email is the message without its body: its sent_emails columns (template_id, template_version, locale,
-- from_address, to_addresses, cc_addresses, bcc_addresses, reply_to, subject, headers, attachments, tags, scheduled_at)
-- and, for a message the embedded outbox records as sent, what the outbox reports of it (delivery_type,
-- delivery_detail). The body, p_html and p_text, comes as text: inside the JSON the database would parse it too
-- (75 µs more a send of the 8 KB welcome email, measured on PostgreSQL 15). The email starts in its status with its first events (record_email_first_events), not
-- in a second write of the row.
--
-- One email per p_provider_idempotency_key: the email is recorded first and counted after, so a key already held by a
-- pending, sent or scheduled email of the account returns that email (existing_status set) and counts nothing; the
-- unique index sent_emails_provider_key_idx decides between racing requests. An email still holding the key past its
-- 24-hour replay window lets go of it first (its request's record has expired).

-- As 20261124007000_test_sends.sql made it, it took the quota's and the message's 23 values one by one: that goes.
drop function if exists public.record_counted_email(uuid, timestamptz, integer, boolean, text, text, uuid, text, text[],
                                                     text[], text[], text[], text, text, text, jsonb, jsonb, jsonb,
                                                     timestamptz, text, text, jsonb, integer);

create or replace function public.record_counted_email(
  p_account_id uuid,
  p_quota jsonb,
  p_status text,
  p_provider text,
  p_email jsonb,
  p_html text,
  p_text text,
  p_provider_idempotency_key text
) returns table (email_id uuid, allowed boolean, used integer, is_overage boolean, billing_usage_reported boolean,
                 created_at timestamptz, existing_status text, provider_message_id text, from_address text,
                 to_addresses text[], subject text, scheduled_at timestamptz)
language plpgsql
as $$
#variable_conflict use_column
declare
  q record;
  m record;
  v_test boolean;
  v_used integer;
  v_test_used integer;
  v_overage boolean;
  v_id uuid;
  v_created timestamptz;
  v_reported timestamptz;
begin
  select * into q from jsonb_to_record(p_quota)
    as x (period_start timestamptz, monthly_limit integer, overage boolean, test_daily_limit integer);
  select * into m from jsonb_to_record(p_email)
    as x (template_id uuid, template_version text, locale text, from_address text, to_addresses text[], cc_addresses text[], bcc_addresses text[],
          reply_to text[], subject text, headers jsonb, attachments jsonb, tags jsonb, scheduled_at timestamptz,
          delivery_type text, delivery_detail jsonb);
  v_test := q.test_daily_limit is not null;

  if p_provider_idempotency_key is not null then
    update public.sent_emails e set provider_idempotency_key = null
      where e.account_id = p_account_id and e.provider_idempotency_key = p_provider_idempotency_key
        and e.status in ('pending', 'sent', 'scheduled') and e.created_at <= now() - interval '24 hours';
  end if;

  insert into public.sent_emails as e (account_id, template_id, template_version, locale, status, delivery_status, provider, from_address,
                                       to_addresses, cc_addresses, bcc_addresses, reply_to, subject, html, text_body,
                                       headers, attachments, tags, scheduled_at, sent_at, is_overage,
                                       usage_period_start, provider_idempotency_key, test)
    values (p_account_id, m.template_id, m.template_version, m.locale, p_status,
            coalesce(m.delivery_type, case when p_status = 'pending' then 'queued' else p_status end), p_provider,
            m.from_address, m.to_addresses, coalesce(m.cc_addresses, '{}'), coalesce(m.bcc_addresses, '{}'),
            coalesce(m.reply_to, '{}'), m.subject, p_html, p_text, coalesce(m.headers, '{}'::jsonb),
            coalesce(m.attachments, '[]'::jsonb), coalesce(m.tags, '[]'::jsonb), m.scheduled_at,
            case when p_status = 'sent' then now() end, false, case when not v_test then q.period_start end,
            p_provider_idempotency_key, v_test)
    on conflict (account_id, provider_idempotency_key)
      where provider_idempotency_key is not null and status in ('pending', 'sent', 'scheduled')
      do nothing
    returning e.id, e.created_at into v_id, v_created;

  if v_id is null then
    select c.count into v_used from public.usage_counters c
      where c.account_id = p_account_id and c.metric = 'emails' and c.period_start = q.period_start;
    return query
      select e.id, true, coalesce(v_used, 0), e.is_overage, l.reported_at is not null, e.created_at, e.status,
             e.provider_message_id, e.from_address, e.to_addresses, e.subject, e.scheduled_at
      from public.sent_emails e left join public.email_overage_ledger l on l.email_id = e.id
      where e.account_id = p_account_id and e.provider_idempotency_key = p_provider_idempotency_key
        and e.status in ('pending', 'sent', 'scheduled');
    return;
  end if;

  if v_test then
    insert into public.usage_daily as d (account_id, metric, day, count)
      select p_account_id, 'test_emails', (now() at time zone 'utc')::date, 1 where q.test_daily_limit >= 1
      on conflict (account_id, metric, day) do update set count = d.count + 1 where d.count < q.test_daily_limit
      returning d.count into v_test_used;
    select c.count into v_used from public.usage_counters c
      where c.account_id = p_account_id and c.metric = 'emails' and c.period_start = q.period_start;
    if v_test_used is null then
      delete from public.sent_emails e where e.id = v_id;
      return query select null::uuid, false, coalesce(v_used, 0), false, false, null::timestamptz, null::text,
                          null::text, null::text, null::text[], null::text, null::timestamptz;
      return;
    end if;
    perform public.record_email_first_events(v_id, p_account_id, p_status, m.delivery_type, m.delivery_detail,
                                             m.to_addresses || coalesce(m.cc_addresses, '{}')
                                               || coalesce(m.bcc_addresses, '{}'));
    return query select v_id, true, coalesce(v_used, 0), false, false, v_created, null::text, null::text, null::text,
                        null::text[], null::text, null::timestamptz;
    return;
  end if;

  insert into public.usage_counters as c (account_id, metric, period_start, count)
    values (p_account_id, 'emails', q.period_start, 1)
    on conflict (account_id, metric, period_start) do update set count = c.count + 1
      where q.overage or c.count < q.monthly_limit
    returning c.count into v_used;

  if v_used is null then
    delete from public.sent_emails e where e.id = v_id;
    select c.count into v_used from public.usage_counters c
      where c.account_id = p_account_id and c.metric = 'emails' and c.period_start = q.period_start;
    return query select null::uuid, false, coalesce(v_used, 0), false, false, null::timestamptz, null::text, null::text,
                        null::text, null::text[], null::text, null::timestamptz;
    return;
  end if;

  insert into public.usage_daily as d (account_id, metric, day, count)
    values (p_account_id, 'emails', (now() at time zone 'utc')::date, 1)
    on conflict (account_id, metric, day) do update set count = d.count + 1;

  perform public.record_email_first_events(v_id, p_account_id, p_status, m.delivery_type, m.delivery_detail,
                                           m.to_addresses || coalesce(m.cc_addresses, '{}')
                                             || coalesce(m.bcc_addresses, '{}'));

  v_overage := q.overage and v_used > q.monthly_limit;

  if v_overage then
    update public.sent_emails e set is_overage = true where e.id = v_id;
    insert into public.email_overage_ledger (account_id, email_id, period_start)
      values (p_account_id, v_id, q.period_start)
      returning reported_at into v_reported;
  end if;

  return query select v_id, true, v_used, v_overage, v_reported is not null, v_created, null::text, null::text,
                      null::text, null::text[], null::text, null::timestamptz;
end;
$$;

-- supabase/sql-functions/record_counted_emails.sql
-- POST /send/batch: counts p_emails (a JSON array of messages, in the request's order) against the quota and records
-- them, atomically, as record_counted_email does one: p_quota, p_status and p_provider as there, and each message with
-- the keys of record_counted_email's p_email and its body as html and text_body (batches carry no attachments and no
-- delivery time).
--
-- Live: without overage the whole batch fits in what is left of the month or nothing is counted or recorded
-- (allowed = false, one row); with overage, the items past the limit are overage, each with its ledger entry. Test: the
-- batch counts one test send per item against today's, all or none, and leaves the month's emails alone (`used` is
-- still the month's count). test_used: today's test sends after this call (null for a live batch, and when the batch
-- was recorded already under its provider key).
--
-- The emails are handed to the provider together, under one key (the first email's id is the batch's, batch_id), so
-- an interrupted hand-off is retried together. p_provider_idempotency_key (derived from the caller's Idempotency-Key)
-- keys item i as `<key>-<i>`: when the account still holds those emails (the first attempt of a retried request
-- recorded them), they are returned (existing_status set) and nothing is counted or recorded. One row per email, in
-- the request's order.

-- As 20261124007000_test_sends.sql made it, it took the quota's values one by one, nine parameters: that goes.
drop function if exists public.record_counted_emails(uuid, timestamptz, integer, boolean, text, text, jsonb, text,
                                                      integer);

create or replace function public.record_counted_emails(
  p_account_id uuid,
  p_quota jsonb,
  p_status text,
  p_provider text,
  p_emails jsonb,
  p_provider_idempotency_key text
) returns table (email_id uuid, allowed boolean, used integer, is_overage boolean, created_at timestamptz,
                 existing_status text, provider_message_id text, test_used integer)
language plpgsql
as $$
#variable_conflict use_column
declare
  q record;
  v_test boolean;
  v_count integer := jsonb_array_length(p_emails);
  v_keys text[];
  v_ids uuid[];
  v_used integer;
  v_test_used integer;
  v_first integer;
begin
  select * into q from jsonb_to_record(p_quota)
    as x (period_start timestamptz, monthly_limit integer, overage boolean, test_daily_limit integer);
  v_test := q.test_daily_limit is not null;

  if p_provider_idempotency_key is not null then
    v_keys := array(select p_provider_idempotency_key || '-' || (i - 1) from generate_series(1, v_count) i);
    update public.sent_emails e set provider_idempotency_key = null
      where e.account_id = p_account_id and e.provider_idempotency_key = any(v_keys)
        and e.status in ('pending', 'sent', 'scheduled') and e.created_at <= now() - interval '24 hours';
    if exists (select 1 from public.sent_emails e
               where e.account_id = p_account_id and e.provider_idempotency_key = v_keys[1]
                 and e.status in ('pending', 'sent', 'scheduled')) then
      select c.count into v_used from public.usage_counters c
        where c.account_id = p_account_id and c.metric = 'emails' and c.period_start = q.period_start;
      return query
        select e.id, true, coalesce(v_used, 0), e.is_overage, e.created_at, e.status, e.provider_message_id,
               null::integer
        from unnest(v_keys) with ordinality k (key, i)
          join public.sent_emails e on e.account_id = p_account_id and e.provider_idempotency_key = k.key
                                   and e.status in ('pending', 'sent', 'scheduled')
        order by k.i;
      return;
    end if;
  end if;

  if v_test then
    insert into public.usage_daily as d (account_id, metric, day, count)
      select p_account_id, 'test_emails', (now() at time zone 'utc')::date, v_count where v_count <= q.test_daily_limit
      on conflict (account_id, metric, day) do update set count = d.count + v_count
        where d.count + v_count <= q.test_daily_limit
      returning d.count into v_test_used;
    select c.count into v_used from public.usage_counters c
      where c.account_id = p_account_id and c.metric = 'emails' and c.period_start = q.period_start;
    v_used := coalesce(v_used, 0);
    if v_test_used is null then
      select d.count into v_test_used from public.usage_daily d
        where d.account_id = p_account_id and d.metric = 'test_emails' and d.day = (now() at time zone 'utc')::date;
      return query select null::uuid, false, v_used, false, null::timestamptz, null::text, null::text,
                          coalesce(v_test_used, 0);
      return;
    end if;
  else
    insert into public.usage_counters as c (account_id, metric, period_start, count)
      select p_account_id, 'emails', q.period_start, v_count where q.overage or v_count <= q.monthly_limit
      on conflict (account_id, metric, period_start) do update set count = c.count + v_count
        where q.overage or c.count + v_count <= q.monthly_limit
      returning c.count into v_used;
    if v_used is null then
      select c.count into v_used from public.usage_counters c
        where c.account_id = p_account_id and c.metric = 'emails' and c.period_start = q.period_start;
      return query select null::uuid, false, coalesce(v_used, 0), false, null::timestamptz, null::text, null::text,
                          null::integer;
      return;
    end if;
    -- The batch's items are the counter's (v_first + 1)th to v_used-th emails of the period.
    v_first := v_used - v_count;

    insert into public.usage_daily as d (account_id, metric, day, count)
      values (p_account_id, 'emails', (now() at time zone 'utc')::date, v_count)
      on conflict (account_id, metric, day) do update set count = d.count + v_count;
  end if;

  v_ids := array(select gen_random_uuid() from generate_series(1, v_count));
  insert into public.sent_emails (id, account_id, template_id, template_version, locale, status, delivery_status,
                                  provider,
                                  from_address,
                                  to_addresses, cc_addresses, bcc_addresses, reply_to, subject, html, text_body,
                                  headers, tags, sent_at, is_overage, usage_period_start, provider_idempotency_key,
                                  batch_id, batch_index, test)
    select v_ids[x.i], p_account_id, (x.m ->> 'template_id')::uuid, x.m ->> 'template_version', x.m ->> 'locale',
           p_status,
           coalesce(x.m ->> 'delivery_type', case when p_status = 'pending' then 'queued' else p_status end),
           p_provider, x.m ->> 'from_address',
           array(select jsonb_array_elements_text(x.m -> 'to_addresses')),
           array(select jsonb_array_elements_text(coalesce(x.m -> 'cc_addresses', '[]'))),
           array(select jsonb_array_elements_text(coalesce(x.m -> 'bcc_addresses', '[]'))),
           array(select jsonb_array_elements_text(coalesce(x.m -> 'reply_to', '[]'))),
           x.m ->> 'subject', x.m ->> 'html', x.m ->> 'text_body', coalesce(x.m -> 'headers', '{}'),
           coalesce(x.m -> 'tags', '[]'), case when p_status = 'sent' then now() end,
           not v_test and q.overage and v_first + x.i > q.monthly_limit, case when not v_test then q.period_start end,
           v_keys[x.i], v_ids[1], x.i - 1, v_test
    from jsonb_array_elements(p_emails) with ordinality x (m, i)
    order by x.i;

  perform public.record_email_first_events(
            v_ids[x.i], p_account_id, p_status, x.m ->> 'delivery_type', x.m -> 'delivery_detail',
            array(select jsonb_array_elements_text(x.m -> 'to_addresses'))
              || array(select jsonb_array_elements_text(coalesce(x.m -> 'cc_addresses', '[]')))
              || array(select jsonb_array_elements_text(coalesce(x.m -> 'bcc_addresses', '[]'))))
    from jsonb_array_elements(p_emails) with ordinality x (m, i);

  insert into public.email_overage_ledger (account_id, email_id, period_start)
    select p_account_id, v_ids[i], q.period_start from generate_series(1, v_count) i
    where not v_test and q.overage and v_first + i > q.monthly_limit
    order by i;

  return query
    select e.id, true, v_used, e.is_overage, e.created_at, null::text, null::text, v_test_used
    from unnest(v_ids) with ordinality k (id, i) join public.sent_emails e on e.id = k.id
    order by k.i;
end;
$$;

-- supabase/sql-functions/enqueue_email_webhook_event.sql
-- An email's event (a row apply_email_event or record_email_first_events adds to email_events) as the webhook event
-- `email.<type>`, in the same transaction: its data is the email as GET /emails/{id} describes it (email_id is the id
-- POST /send answered with; times in ISO 8601; template_version a number, "draft" or null), `status` the email's status
-- after the event (p_status: the caller knows it, the row may not say it yet), `scheduled_at` and `locale` only when
-- it has one,
-- and what the event adds: a bounce's { type, message }, a click's { link }, an unsubscribe's { group }. The event id,
-- or null when no endpoint of the account hears the type (then no more than one index lookup is spent).
create or replace function public.enqueue_email_webhook_event(
  p_email_id uuid,
  p_type text,
  p_detail jsonb,
  p_status text,
  p_occurred_at timestamptz
) returns uuid
language plpgsql
as $$
declare
  v_account uuid;
  v_type text := 'email.' || p_type;
  v_data jsonb;
begin
  select e.account_id into v_account from public.sent_emails e where e.id = p_email_id;
  if v_account is null or not exists (select 1 from public.webhook_endpoints w
                                      where w.account_id = v_account and w.enabled and v_type = any (w.events)) then
    return null;
  end if;
  select jsonb_build_object(
           'email_id', coalesce(e.provider_message_id, e.id::text),
           'from', e.from_address,
           'to', to_jsonb(e.to_addresses),
           'cc', to_jsonb(e.cc_addresses),
           'bcc', to_jsonb(e.bcc_addresses),
           'subject', e.subject,
           'template_id', e.template_id,
           'template_version', case when e.template_version ~ '^[0-9]+$' then to_jsonb(e.template_version::integer)
                                    else to_jsonb(e.template_version) end,
           'tags', e.tags,
           'status', p_status,
           'test', e.test)
         || case when e.scheduled_at is null then '{}'::jsonb
                 else jsonb_build_object('scheduled_at',
                                         to_char(e.scheduled_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
            end
         || case when e.locale is null then '{}'::jsonb else jsonb_build_object('locale', e.locale) end
         || case p_type
              when 'bounced' then jsonb_build_object('bounce', jsonb_build_object(
                'type', p_detail ->> 'bounce_type', 'message', p_detail ->> 'message'))
              when 'clicked' then jsonb_build_object('click', jsonb_build_object('link', p_detail ->> 'link'))
              when 'unsubscribed' then jsonb_build_object('unsubscribe', jsonb_strip_nulls(jsonb_build_object(
                'group', p_detail ->> 'group')))
              else '{}'::jsonb
            end
    into v_data
    from public.sent_emails e where e.id = p_email_id;
  return public.enqueue_webhook_event(v_account, v_type, p_email_id, v_data, p_occurred_at);
end;
$$;

do $$
declare
  f regprocedure;
  grantee text;
begin
  for f in
    select p.oid::regprocedure from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname = 'public'
      and not exists (select 1 from pg_depend d
                      where d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e')
  loop
    for grantee in select 'public' union all select rolname from pg_roles where rolname in ('anon', 'authenticated')
    loop
      execute format('revoke execute on function %s from %s', f, grantee);
    end loop;
  end loop;
end $$;
