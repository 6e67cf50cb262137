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
