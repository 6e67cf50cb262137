-- The trigger template_versions_published: each version published (every insert into template_versions: a create,
-- a publish, a restore) is the account's webhook event template.published, in the same transaction:
-- { template_id, alias, version, published_by }, published_by { via: "api_key", api_key_id } | { via: "session" } |
-- { via: "cli" }, or null for a version recorded before publishers were. Catalogue templates belong to no account.
create or replace function public.template_versions_published_webhook()
returns trigger
language plpgsql
as $$
declare
  v_account uuid;
  v_alias text;
begin
  select t.owner_account_id, t.alias into v_account, v_alias from public.templates t where t.id = new.template_id;
  if v_account is not null then
    perform public.enqueue_webhook_event(
      v_account, 'template.published', null,
      jsonb_build_object('template_id', new.template_id, 'alias', v_alias, 'version', new.version, 'published_by',
                         case when new.published_via = 'api_key'
                                then jsonb_build_object('via', 'api_key', 'api_key_id', new.published_by_key_id)
                              when new.published_via is not null then jsonb_build_object('via', new.published_via)
                         end),
      now());
  end if;
  return null;
end;
$$;
