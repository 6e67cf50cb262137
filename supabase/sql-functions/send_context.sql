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
