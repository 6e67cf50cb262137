-- The triggers audit_log_refuse_update, _delete and _truncate: no UPDATE, DELETE or TRUNCATE reaches an audit entry,
-- whatever the role. An entry goes only with its team: the cascade of the account's delete, which runs once the
-- account row is gone.
create or replace function public.audit_log_refuse_change()
returns trigger
language plpgsql
as $$
begin
  if tg_op = 'DELETE' and not exists (select 1 from public.accounts where id = old.account_id) then
    return old;
  end if;
  raise exception 'audit_log entries cannot be changed or deleted' using errcode = '42501';
end;
$$;
