-- A user's template may have an alias, a name of the account's choosing that every place taking a template id takes
-- too (lib/db/templates.ts `templateIdSql`, the SQL function template_id_by_alias). Unique within the account: the
-- index decides between two saves of one alias, and answers the lookup by alias. Catalogue templates answer to their
-- slug instead, so they have none. Every template saved before has none.
alter table public.templates add column alias text;
alter table public.templates add constraint templates_alias_check
  check (alias is null or (owner_account_id is not null and alias ~ '^[a-z0-9][a-z0-9._-]{0,63}$'));
create unique index templates_owner_alias_key on public.templates (owner_account_id, alias) where alias is not null;
