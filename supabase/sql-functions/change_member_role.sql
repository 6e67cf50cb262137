-- Settings → Team's role change. Answers changed, or why not: not_found (not a member), unchanged (already that
-- role), last_admin (the team would be left without an admin), checked under the team's lock by lock_member_change,
-- so two admins demoting each other at once are taken in turn and the second sees the first's demotion.
create or replace function public.change_member_role(
  p_account_id uuid,
  p_person_id uuid,
  p_role text,
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
  from public.lock_member_change(p_account_id, p_person_id, p_role) c;
  if v_refusal is not null then
    return v_refusal;
  end if;
  update public.memberships m set role = p_role where m.account_id = p_account_id and m.person_id = p_person_id;
  insert into public.audit_log
    (account_id, action, actor_type, actor_id, actor_label, target_type, target_id, target_label, ip, details)
  values (p_account_id, 'member.role_changed', p_actor_type, p_actor_id, p_actor_label, 'member', p_person_id::text,
    v_email, p_ip, jsonb_build_object('from', v_role, 'to', p_role));
  return 'changed';
end;
$$;
