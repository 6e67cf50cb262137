-- Deleting a sign-in: the person's teams are locked (in id order, as other team changes lock them) so the last-admin
-- rule holds against concurrent role changes. Refused, changing nothing, while they are the last admin of a team with
-- other members: blocked_teams names those teams. Otherwise teams where they are the only member are deleted (as
-- delete_team), the others get a member.removed entry while they still exist, and the person goes (memberships and
-- sessions cascade).
create or replace function public.delete_person(
  p_person_id uuid,
  p_actor_type text,
  p_actor_id text,
  p_actor_label text,
  p_ip text
)
returns table (deleted boolean, blocked_teams text[], deleted_teams uuid[])
language plpgsql
as $$
declare
  v_email text;
  v_blocked text[];
  v_alone uuid[];
begin
  select email into v_email from public.people where id = p_person_id for update;
  if not found then
    return query select false, array[]::text[], array[]::uuid[];
    return;
  end if;
  perform 1 from public.accounts a
    where a.id in (select m.account_id from public.memberships m where m.person_id = p_person_id)
    order by a.id for update;

  select coalesce(array_agg(a.name order by a.name), array[]::text[]) into v_blocked
    from public.memberships m join public.accounts a on a.id = m.account_id
    where m.person_id = p_person_id and m.role = 'admin'
      and exists (select 1 from public.memberships o where o.account_id = m.account_id and o.person_id <> p_person_id)
      and not exists (select 1 from public.memberships o
                      where o.account_id = m.account_id and o.person_id <> p_person_id and o.role = 'admin');
  if cardinality(v_blocked) > 0 then
    return query select false, v_blocked, array[]::uuid[];
    return;
  end if;

  select coalesce(array_agg(m.account_id), array[]::uuid[]) into v_alone
    from public.memberships m
    where m.person_id = p_person_id
      and not exists (select 1 from public.memberships o where o.account_id = m.account_id and o.person_id <> p_person_id);

  insert into public.audit_log (account_id, action, actor_type, actor_id, actor_label, target_type, target_id,
                                target_label, ip, details)
    select m.account_id, 'member.removed', p_actor_type, p_actor_id, p_actor_label, 'person', p_person_id::text,
           v_email, p_ip, jsonb_build_object('reason', 'sign-in deleted')
    from public.memberships m
    where m.person_id = p_person_id and m.account_id <> all (v_alone);

  delete from public.accounts where id = any (v_alone);
  delete from public.people where id = p_person_id;
  return query select true, array[]::text[], v_alone;
end;
$$;
