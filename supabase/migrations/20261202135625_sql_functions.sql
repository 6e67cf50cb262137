-- Written by `npm run db:functions` (scripts/db-functions.ts) from supabase/sql-functions/: the current
-- definition of each function the migrations before it define otherwise, as Supabase's tooling (supabase db push, the
-- GitHub integration, Branching) applies supabase/migrations/ alone. Not edited by hand: change the function's file
-- and run the command again.

-- supabase/sql-functions/accept_invitation.sql
-- The invitation page's "Join": the signed-in person (p_person_id, p_person_email) joins the team of the invitation
-- whose token hashes to p_token_hash, once, before it expires, and only with the invited address. Each refusal is a
-- status and changes nothing: not_found, revoked, accepted, expired, wrong_email, already_member. The team's row is
-- locked first, as every change of its members is, so an acceptance and a revocation or removal are taken in turn.
create or replace function public.accept_invitation(
  p_token_hash text,
  p_person_id uuid,
  p_person_email text,
  p_actor_type text,
  p_actor_id text,
  p_actor_label text,
  p_ip text
)
returns table (status text, team_id uuid, team_role text)
language plpgsql
as $$
declare
  v_invitation public.invitations;
begin
  select i.* into v_invitation from public.invitations i where i.token_hash = p_token_hash;
  if not found then
    return query select 'not_found'::text, null::uuid, null::text;
    return;
  end if;
  perform 1 from public.accounts a where a.id = v_invitation.account_id for update;
  -- Read again under the lock: a revocation or acceptance that committed meanwhile is seen.
  select i.* into v_invitation from public.invitations i where i.id = v_invitation.id;
  if not found then
    return query select 'not_found'::text, null::uuid, null::text;
  elsif v_invitation.revoked_at is not null then
    return query select 'revoked'::text, v_invitation.account_id, v_invitation.role;
  elsif v_invitation.accepted_at is not null then
    return query select 'accepted'::text, v_invitation.account_id, v_invitation.role;
  elsif v_invitation.expires_at <= now() then
    return query select 'expired'::text, v_invitation.account_id, v_invitation.role;
  elsif lower(v_invitation.email) <> lower(p_person_email) then
    return query select 'wrong_email'::text, v_invitation.account_id, v_invitation.role;
  elsif exists (
    select 1 from public.memberships m where m.account_id = v_invitation.account_id and m.person_id = p_person_id
  ) then
    return query select 'already_member'::text, v_invitation.account_id, v_invitation.role;
  else
    insert into public.memberships (account_id, person_id, role)
    values (v_invitation.account_id, p_person_id, v_invitation.role);
    update public.invitations i set accepted_at = now(), accepted_by = p_person_id where i.id = v_invitation.id;
    insert into public.audit_log
      (account_id, action, actor_type, actor_id, actor_label, target_type, target_id, target_label, ip, details)
    values (v_invitation.account_id, 'member.joined', p_actor_type, p_actor_id, p_actor_label, 'member',
      p_person_id::text, p_person_email, p_ip,
      jsonb_build_object('role', v_invitation.role, 'invitation_id', v_invitation.id));
    return query select 'joined'::text, v_invitation.account_id, v_invitation.role;
  end if;
end;
$$;

-- supabase/sql-functions/change_member_role.sql
-- Settings → Team's role change. Answers changed, or why not: not_found (not a member), unchanged (already that
-- role), last_admin (the team would be left without an admin). The team's row is locked first, so two admins
-- demoting each other at once are taken in turn and the second sees the first's demotion: one admin stays.
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
begin
  perform 1 from public.accounts a where a.id = p_account_id for update;
  select m.role, p.email into v_role, v_email
  from public.memberships m join public.people p on p.id = m.person_id
  where m.account_id = p_account_id and m.person_id = p_person_id;
  if not found then
    return 'not_found';
  elsif v_role = p_role then
    return 'unchanged';
  elsif v_role = 'admin' and (
    select count(*) from public.memberships m where m.account_id = p_account_id and m.role = 'admin'
  ) = 1 then
    return 'last_admin';
  end if;
  update public.memberships m set role = p_role where m.account_id = p_account_id and m.person_id = p_person_id;
  insert into public.audit_log
    (account_id, action, actor_type, actor_id, actor_label, target_type, target_id, target_label, ip, details)
  values (p_account_id, 'member.role_changed', p_actor_type, p_actor_id, p_actor_label, 'member', p_person_id::text,
    v_email, p_ip, jsonb_build_object('from', v_role, 'to', p_role));
  return 'changed';
end;
$$;

-- supabase/sql-functions/create_invitation.sql
-- Settings → Team's invite: a pending invitation of p_email to the team, unless the address is already a member's or
-- the team's seats (members plus pending invitations, p_seat_limit from lib/core/plans.ts; null is unlimited) are
-- taken. An open invitation to the same address is replaced (revoked, freeing its seat, then made anew). The team's
-- row is locked first, so concurrent invitations are counted one after another and never pass the seats; the entry
-- member.invited is written in the same transaction and never holds the token.
create or replace function public.create_invitation(
  p_account_id uuid,
  p_email text,
  p_role text,
  p_token_hash text,
  p_invited_by uuid,
  p_expires_at timestamptz,
  p_seat_limit integer,
  p_actor_type text,
  p_actor_id text,
  p_actor_label text,
  p_ip text
)
returns table (status text, invitation_id uuid)
language plpgsql
as $$
declare
  v_id uuid;
begin
  perform 1 from public.accounts a where a.id = p_account_id for update;
  if not found then
    return query select 'not_found'::text, null::uuid;
    return;
  end if;
  if exists (
    select 1 from public.memberships m join public.people p on p.id = m.person_id
    where m.account_id = p_account_id and lower(p.email) = lower(p_email)
  ) then
    return query select 'already_member'::text, null::uuid;
    return;
  end if;
  -- Expired invitations hold no seat (their link no longer works), nor does the one this call replaces.
  if p_seat_limit is not null
    and (select count(*) from public.memberships m where m.account_id = p_account_id)
      + (select count(*) from public.invitations i
         where i.account_id = p_account_id and i.accepted_at is null and i.revoked_at is null
           and i.expires_at > now() and lower(i.email) <> lower(p_email))
      >= p_seat_limit then
    return query select 'no_seats'::text, null::uuid;
    return;
  end if;
  update public.invitations i set revoked_at = now()
  where i.account_id = p_account_id and lower(i.email) = lower(p_email)
    and i.accepted_at is null and i.revoked_at is null;
  insert into public.invitations (account_id, email, role, token_hash, invited_by, expires_at)
  values (p_account_id, p_email, p_role, p_token_hash, p_invited_by, p_expires_at)
  returning id into v_id;
  insert into public.audit_log
    (account_id, action, actor_type, actor_id, actor_label, target_type, target_id, target_label, ip, details)
  values (p_account_id, 'member.invited', p_actor_type, p_actor_id, p_actor_label, 'invitation', v_id::text, p_email,
    p_ip, jsonb_build_object('email', p_email, 'role', p_role));
  return query select 'created'::text, v_id;
end;
$$;

-- supabase/sql-functions/remove_member.sql
-- Settings → Team's remove, and a member's leave (p_leaving: the person removes themself). Answers removed, or why
-- not: not_found (not a member), last_admin (the team would be left without an admin). Under the team's lock, as
-- role changes, so concurrent removals and demotions never leave a team without an admin. The removed person's
-- sessions lose the team at once: each request resolves its team against memberships.
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
begin
  perform 1 from public.accounts a where a.id = p_account_id for update;
  select m.role, p.email into v_role, v_email
  from public.memberships m join public.people p on p.id = m.person_id
  where m.account_id = p_account_id and m.person_id = p_person_id;
  if not found then
    return 'not_found';
  elsif v_role = 'admin' and (
    select count(*) from public.memberships m where m.account_id = p_account_id and m.role = 'admin'
  ) = 1 then
    return 'last_admin';
  end if;
  delete from public.memberships m where m.account_id = p_account_id and m.person_id = p_person_id;
  insert into public.audit_log
    (account_id, action, actor_type, actor_id, actor_label, target_type, target_id, target_label, ip, details)
  values (p_account_id, 'member.removed', p_actor_type, p_actor_id, p_actor_label, 'member', p_person_id::text,
    v_email, p_ip, jsonb_build_object('role', v_role, 'reason', case when p_leaving then 'left' else 'removed' end));
  return 'removed';
end;
$$;

-- supabase/sql-functions/revoke_invitation.sql
-- Settings → Team's revoke: the team's pending invitation stops working (its link then answers "revoked"). Answers
-- revoked, or why not: not_found (not this team's), accepted, already_revoked. Under the team's lock, as acceptance.
create or replace function public.revoke_invitation(
  p_account_id uuid,
  p_invitation_id uuid,
  p_actor_type text,
  p_actor_id text,
  p_actor_label text,
  p_ip text
)
returns text
language plpgsql
as $$
declare
  v_invitation public.invitations;
begin
  perform 1 from public.accounts a where a.id = p_account_id for update;
  select i.* into v_invitation from public.invitations i
  where i.id = p_invitation_id and i.account_id = p_account_id;
  if not found then
    return 'not_found';
  elsif v_invitation.accepted_at is not null then
    return 'accepted';
  elsif v_invitation.revoked_at is not null then
    return 'already_revoked';
  end if;
  update public.invitations i set revoked_at = now() where i.id = p_invitation_id;
  insert into public.audit_log
    (account_id, action, actor_type, actor_id, actor_label, target_type, target_id, target_label, ip, details)
  values (p_account_id, 'invitation.revoked', p_actor_type, p_actor_id, p_actor_label, 'invitation',
    p_invitation_id::text, v_invitation.email, p_ip,
    jsonb_build_object('email', v_invitation.email, 'role', v_invitation.role));
  return 'revoked';
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
