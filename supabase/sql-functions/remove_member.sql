-- Settings → Team's remove, and a member's leave (p_leaving: the person removes themself). Answers removed, or why
-- not: not_found (not a member), last_admin (the team would be left without an admin). Under the team's lock
-- (lock_member_change, as role changes), so concurrent removals and demotions never leave a team without an admin.
-- The removed person's sessions lose the team at once: each request resolves its team against memberships.
create or replace function public.remove_member(
  p_account_id uuid,
  p_person_id uuid,
  p_leaving boolean,
  p_actor_type text,
  p_actor_id text,
  p_actor_label text,
  p_ip text
)
returns text
language plpgsql
as $$
declare
  v_role text;
  v_email text;
  v_refusal text;
begin
  select c.member_role, c.member_email, c.refusal into v_role, v_email, v_refusal
  from public.lock_member_change(p_account_id, p_person_id, null) c;
  if v_refusal is not null then
    return v_refusal;
  end if;
  delete from public.memberships m where m.account_id = p_account_id and m.person_id = p_person_id;
  insert into public.audit_log
    (account_id, action, actor_type, actor_id, actor_label, target_type, target_id, target_label, ip, details)
  values (p_account_id, 'member.removed', p_actor_type, p_actor_id, p_actor_label, 'member', p_person_id::text,
    v_email, p_ip, jsonb_build_object('role', v_role, 'reason', case when p_leaving then 'left' else 'removed' end));
  return 'removed';
end;
$$;
