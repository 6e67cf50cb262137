-- Written by `npm run db:functions` (scripts/db-functions.ts) from supabase/sql-functions/: the current
-- definition of each function the migrations before it define otherwise, as Supabase's tooling (supabase db push, the
-- GitHub integration, Branching) applies supabase/migrations/ alone. Not edited by hand: change the function's file
-- and run the command again.

-- supabase/sql-functions/delete_person.sql
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

-- supabase/sql-functions/delete_team.sql
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
