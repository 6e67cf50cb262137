-- template.published (API v1.3 webhooks): every version published is an event in the transaction that publishes it,
-- whichever path inserts the version (a create, a publish, a restore). The function's current definition is
-- supabase/sql-functions/template_versions_published_webhook.sql; this creates what the trigger needs on a database
-- that has not had that file applied yet (it meets enqueue_webhook_event only when a version is inserted).
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

create trigger template_versions_published
  after insert on public.template_versions
  for each row execute function public.template_versions_published_webhook();
