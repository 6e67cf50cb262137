-- Written by `npm run db:functions` (scripts/db-functions.ts) from supabase/sql-functions/: the current
-- definition of each function the migrations before it define otherwise, as Supabase's tooling (supabase db push, the
-- GitHub integration, Branching) applies supabase/migrations/ alone. Not edited by hand: change the function's file
-- and run the command again.

-- supabase/sql-functions/change_member_role.sql
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

-- supabase/sql-functions/lock_member_change.sql
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

-- supabase/sql-functions/remove_member.sql
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

-- Only the server calls them: on Supabase, PostgREST would offer every function in public to the anon and
-- authenticated roles as an RPC (they get EXECUTE by default, as PUBLIC does everywhere). Functions of extensions are
-- theirs to grant.
do $$
declare
  f regprocedure;
  grantee text;
begin
  for f in
    select p.oid::regprocedure from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname = 'public'
      and not exists (select 1 from pg_depend d
                      where d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e')
  loop
    for grantee in select 'public' union all select rolname from pg_roles where rolname in ('anon', 'authenticated')
    loop
      execute format('revoke execute on function %s from %s', f, grantee);
    end loop;
  end loop;
end $$;
