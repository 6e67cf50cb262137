-- Deleting a team: its accounts row goes and every table referencing it cascades (templates, emails, keys, domains,
-- webhooks, memberships, invitations, audit entries...), in this one statement. The row is locked first so a change
-- racing the delete waits for it, and then its webhook endpoints in id order, the order in which a statement
-- recording webhook attempts locks them (finish_webhook_attempts), so the cascade and such a statement never deadlock.
-- Returns whether the team existed.
create or replace function public.delete_team(p_account_id uuid)
returns boolean
language plpgsql
as $$
begin
  perform 1 from public.accounts where id = p_account_id for update;
  if not found then
    return false;
  end if;
  perform 1 from public.webhook_endpoints where account_id = p_account_id order by id for update;
  delete from public.accounts where id = p_account_id;
  return true;
end;
$$;
