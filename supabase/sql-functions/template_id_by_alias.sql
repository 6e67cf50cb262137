-- The template an alias names for an account, wherever a template id is taken: its own template of that alias first,
-- then the catalogue template of that slug when it is in its library; null when neither. Both lookups are a unique
-- index's (templates_owner_alias_key, templates_catalogue_slug_key, then library_entries' key).
create or replace function public.template_id_by_alias(p_account_id uuid, p_alias text)
returns uuid
language sql stable
as $$
  select coalesce(
    (select t.id from public.templates t where t.owner_account_id = p_account_id and t.alias = p_alias),
    (select t.id from public.templates t
     join public.library_entries l on l.account_id = p_account_id and l.template_id = t.id
     where t.owner_account_id is null and t.slug = p_alias));
$$;
