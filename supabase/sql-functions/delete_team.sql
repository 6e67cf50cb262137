-- Deleting a team: its accounts row goes and every table referencing it cascades (templates, emails, keys, domains,
-- webhooks, memberships, invitations, audit entries...), in this one statement. The row is locked first so a change
-- racing the delete waits for it. Returns whether the team existed.
create or replace function public.delete_team(p_account_id uuid)
returns boolean
language plpgsql
as $$
begin
  perform 1 from public.accounts where id = p_account_id for update;
  if not found then
    return false;
  end if;
  delete from public.accounts where id = p_account_id;
  return true;
end;
$$;
