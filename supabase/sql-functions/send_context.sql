-- POST /send's lookup before rendering, in one round trip: the account's sending domains (oldest first, as JSON, each
-- with Resend's status: with Resend configured only its verification counts), which of p_recipients (lower-cased) the
-- account has suppressed, and, when it is in the library, what rendering the template needs (one row; the template
-- columns are null when it is not in the library). The template is named by its id or, that null, by an alias
-- (template_id_by_alias): the caller decides which. A function for its kept plans, as library_page.
drop function if exists public.send_context(uuid, uuid, text[]);
create or replace function public.send_context(p_account_id uuid, p_template_id uuid, p_template_alias text,
                                               p_recipients text[])
returns table (sender_domains json, suppressed json, id uuid, owner_account_id uuid, slug text, version integer,
               compiled_code text, variables json)
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
      select t.id, t.owner_account_id, t.slug, t.version, t.compiled_code, t.variables
      from public.library_entries l join public.templates t on t.id = l.template_id
      where l.account_id = p_account_id
        and l.template_id = coalesce(p_template_id, public.template_id_by_alias(p_account_id, p_template_alias))
    ) tl on true;
end;
$$;
