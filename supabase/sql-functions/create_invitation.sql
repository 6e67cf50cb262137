-- Settings → Team's invite: a pending invitation of p_email to the team, unless the address is already a member's or
-- the team's seats (members plus pending invitations, p_seat_limit from lib/core/plans.ts; null is unlimited) are
-- taken. An open invitation to the same address is replaced (revoked, freeing its seat, then made anew). The team's
-- row is locked first, so concurrent invitations are counted one after another and never pass the seats; the entry
-- member.invited is written in the same transaction and never holds the token. p_actor is the entry's
-- { type, id, label, ip } (lib/audit/context.ts).
create or replace function public.create_invitation(
  p_account_id uuid,
  p_email text,
  p_role text,
  p_token_hash text,
  p_invited_by uuid,
  p_expires_at timestamptz,
  p_seat_limit integer,
  p_actor jsonb
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
  values (p_account_id, 'member.invited', p_actor ->> 'type', p_actor ->> 'id', p_actor ->> 'label', 'invitation',
    v_id::text, p_email, p_actor ->> 'ip', jsonb_build_object('email', p_email, 'role', p_role));
  return query select 'created'::text, v_id;
end;
$$;
