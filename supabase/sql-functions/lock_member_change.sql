-- What change_member_role and remove_member check first, under the team's row lock (held until their transaction
-- ends), so two admins demoting or removing each other at once are taken in turn and the second sees the first's
-- change: the member's role and email, and why the change is refused, or null. p_new_role is the role the member
-- would have (null: removed). Refusals: not_found (not a member), unchanged (already that role), last_admin (the
-- team would be left without an admin).
create or replace function public.lock_member_change(
  p_account_id uuid,
  p_person_id uuid,
  p_new_role text,
  out member_role text,
  out member_email text,
  out refusal text
)
language plpgsql
as $$
begin
  perform 1 from public.accounts a where a.id = p_account_id for update;
  select m.role, p.email into member_role, member_email
  from public.memberships m join public.people p on p.id = m.person_id
  where m.account_id = p_account_id and m.person_id = p_person_id;
  if not found then
    refusal := 'not_found';
  elsif member_role = p_new_role then
    refusal := 'unchanged';
  elsif member_role = 'admin' and (
    select count(*) from public.memberships m where m.account_id = p_account_id and m.role = 'admin'
  ) = 1 then
    refusal := 'last_admin';
  end if;
end;
$$;
