-- One-click unsubscribe (API v1.3, Engagement; RFC 8058). A send with `unsubscribe` carries a signed link to /u/<token>
-- naming the account, the address and the group; a POST to it suppresses the address for that group's sends alone.

-- Keys the server signs with, made once (lib/unsubscribe/data.ts): every instance reads the same one, and no
-- deployment has to be given it.
create table public.signing_keys (
  purpose text primary key,
  key bytea not null,
  created_at timestamptz not null default now()
);

-- An unsubscribe is a suppression of its group: null for a bounce or complaint (every send), '' for the unnamed list
-- of `"unsubscribe": true`, else the group's name. An address keeps one entry a group.
alter table public.email_suppressions add column unsubscribe_group text;
alter table public.email_suppressions drop constraint email_suppressions_reason_check;
alter table public.email_suppressions add constraint email_suppressions_reason_check
  check (reason in ('bounced', 'complained', 'unsubscribed'));
alter table public.email_suppressions add constraint email_suppressions_group_check
  check ((reason = 'unsubscribed') = (unsubscribe_group is not null) and length(unsubscribe_group) <= 64);
alter table public.email_suppressions drop constraint email_suppressions_pkey;
create unique index email_suppressions_key on public.email_suppressions (account_id, email, unsubscribe_group)
  nulls not distinct;

-- The emails an unsubscribe link was sent in, found by the link (unsubscribe_recipient).
create index sent_emails_list_unsubscribe_idx on public.sent_emails (account_id, (headers ->> 'List-Unsubscribe'))
  where headers ? 'List-Unsubscribe';

do $$
declare
  role_name text;
begin
  alter table public.signing_keys enable row level security;
  for role_name in select rolname from pg_roles where rolname in ('anon', 'authenticated') loop
    execute format('revoke all on public.signing_keys from %I', role_name);
  end loop;
end $$;

-- supabase/sql-functions/suppress_email_recipients.sql
-- Suppresses the recipient of a hard bounce or a complaint: the one the event names (detail.recipient), else the
-- email's only recipient. A provider reporting an email with several recipients bounced does not say which one did
-- (Resend's event lists the whole `to`), so none is suppressed: only an address known to have bounced is. A soft
-- bounce (detail.bounce_type other than 'hard') suppresses nothing. An address suppressed already keeps its first
-- entry (the date users are told); its unsubscribes from groups (unsubscribe_recipient) are entries of their own.
create or replace function public.suppress_email_recipients(
  p_account_id uuid,
  p_email_id uuid,
  p_type text,
  p_detail jsonb,
  p_recipients text[]
) returns void
language sql
as $$
  insert into public.email_suppressions (account_id, email, reason, email_id)
    select p_account_id, lower(r), p_type, p_email_id
    from (select case
            when jsonb_typeof(p_detail -> 'recipient') = 'string' then p_detail ->> 'recipient'
            when cardinality(p_recipients) = 1 then p_recipients[1]
          end as r) x
    where (p_type = 'complained' or (p_type = 'bounced' and coalesce(p_detail ->> 'bounce_type', 'hard') = 'hard'))
      and length(r) between 3 and 320
    on conflict (account_id, email, unsubscribe_group) do nothing;
$$;

-- supabase/sql-functions/send_context.sql
-- POST /send's lookup before rendering, in one round trip: the account's sending domains (oldest first, as JSON, each
-- with Resend's status: with Resend configured only its verification counts), which of p_recipients (lower-cased) the
-- account has suppressed (with the unsubscribe group of each, null for a bounce or complaint: the caller knows the
-- send's group), and, when it is in the library, what rendering the template needs (one row; the template
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
      select coalesce(json_agg(json_build_object('email', x.email, 'reason', x.reason, 'created_at', x.created_at,
                                                 'group', x.unsubscribe_group)), '[]'::json) as suppressed
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

-- supabase/sql-functions/unsubscribe_recipient.sql
-- A one-click unsubscribe (POST /u/<token>): suppresses p_address for p_account_id's sends of p_group ('' the unnamed
-- list of `"unsubscribe": true`), and, the first time, emits email.unsubscribed for the latest email that carried
-- p_list_unsubscribe (its List-Unsubscribe header: the same address and group give the same link). applied: the address
-- was not unsubscribed from that group yet. Nothing for an account that is gone.
create or replace function public.unsubscribe_recipient(
  p_account_id uuid,
  p_address text,
  p_group text,
  p_list_unsubscribe text
) returns boolean
language plpgsql
as $$
declare
  v_email uuid;
  v_status text;
begin
  if not exists (select 1 from public.accounts a where a.id = p_account_id) then
    return false;
  end if;
  select e.id, e.delivery_status into v_email, v_status
    from public.sent_emails e
    where e.account_id = p_account_id and e.headers ? 'List-Unsubscribe'
      and (e.headers ->> 'List-Unsubscribe') = p_list_unsubscribe
    order by e.created_at desc
    limit 1;
  insert into public.email_suppressions (account_id, email, reason, email_id, unsubscribe_group)
    values (p_account_id, lower(p_address), 'unsubscribed', v_email, p_group)
    on conflict (account_id, email, unsubscribe_group) do nothing;
  if not found then
    return false;
  end if;
  if v_email is not null then
    perform public.enqueue_email_webhook_event(v_email, 'unsubscribed',
                                               jsonb_strip_nulls(jsonb_build_object('group', nullif(p_group, ''))),
                                               v_status, now());
  end if;
  return true;
end;
$$;

-- Only the server calls it (as for every function: 20261122000600_hot_path_functions.sql).
do $$
declare
  grantee text;
begin
  for grantee in select 'public' union all select rolname from pg_roles where rolname in ('anon', 'authenticated') loop
    execute format('revoke execute on function public.unsubscribe_recipient(uuid, text, text, text) from %s', grantee);
  end loop;
end $$;
