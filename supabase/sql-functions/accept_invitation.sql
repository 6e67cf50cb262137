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
