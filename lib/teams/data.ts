import "server-only";
import { currentAuditContext } from "@/lib/audit/context";
import type { PlanName } from "@/lib/core/plans";
import { getDb } from "@/lib/db/client";
import type { Role } from "@/lib/teams/rights";

// A team's members and invitations. Every change is one SQL function (supabase/sql-functions/) that locks the team's
// row, checks the seats and the last-admin rule, and writes its audit entry in the same transaction; the actor and the
// client address come from the request's audit context.

export type Member = { id: string; email: string; role: Role; joined_at: Date };
export type OpenInvitation = { id: string; email: string; role: Role; created_at: Date; expires_at: Date };
/** What the invitation page shows of an invitation, whatever its state. */
export type InvitationView = {
  id: string;
  account_id: string;
  team_name: string;
  email: string;
  role: Role;
  inviter_email: string | null;
  expires_at: Date;
  accepted_at: Date | null;
  revoked_at: Date | null;
};

export type CreateInvitationStatus = "created" | "not_found" | "already_member" | "no_seats";
export type AcceptInvitationStatus =
  "joined" | "not_found" | "revoked" | "accepted" | "expired" | "wrong_email" | "already_member";
export type RevokeInvitationStatus = "revoked" | "not_found" | "accepted" | "already_revoked";
export type ChangeRoleStatus = "changed" | "not_found" | "unchanged" | "last_admin";
export type RemoveMemberStatus = "removed" | "not_found" | "last_admin";

function actorParams() {
  const { actor, ip } = currentAuditContext();
  return { type: actor.type, id: actor.id, label: actor.label, ip };
}

export async function createInvitation(invitation: {
  accountId: string;
  email: string;
  role: Role;
  tokenHash: string;
  invitedBy: string | null;
  expiresAt: Date;
  seatLimit: number | null;
}): Promise<{ status: CreateInvitationStatus; invitationId: string | null }> {
  const db = getDb();
  const [row] = await db<{ status: CreateInvitationStatus; invitation_id: string | null }[]>`
    select * from create_invitation(${invitation.accountId}, ${invitation.email}, ${invitation.role},
      ${invitation.tokenHash}, ${invitation.invitedBy}, ${invitation.expiresAt}, ${invitation.seatLimit},
      ${db.json(actorParams())})`;
  return { status: row.status, invitationId: row.invitation_id };
}

export async function acceptInvitation(
  tokenHash: string,
  person: { id: string; email: string },
): Promise<{ status: AcceptInvitationStatus; teamId: string | null; role: Role | null }> {
  const a = actorParams();
  const [row] = await getDb()<{ status: AcceptInvitationStatus; team_id: string | null; team_role: Role | null }[]>`
    select * from accept_invitation(${tokenHash}, ${person.id}, ${person.email}, ${a.type}, ${a.id}, ${a.label},
      ${a.ip})`;
  return { status: row.status, teamId: row.team_id, role: row.team_role };
}

export async function revokeInvitation(accountId: string, invitationId: string): Promise<RevokeInvitationStatus> {
  const a = actorParams();
  const [row] = await getDb()<{ status: RevokeInvitationStatus }[]>`
    select revoke_invitation(${accountId}, ${invitationId}, ${a.type}, ${a.id}, ${a.label}, ${a.ip}) as status`;
  return row.status;
}

export async function changeMemberRole(accountId: string, personId: string, role: Role): Promise<ChangeRoleStatus> {
  const a = actorParams();
  const [row] = await getDb()<{ status: ChangeRoleStatus }[]>`
    select change_member_role(${accountId}, ${personId}, ${role}, ${a.type}, ${a.id}, ${a.label}, ${a.ip}) as status`;
  return row.status;
}

export async function removeMember(accountId: string, personId: string, leaving: boolean): Promise<RemoveMemberStatus> {
  const a = actorParams();
  const [row] = await getDb()<{ status: RemoveMemberStatus }[]>`
    select remove_member(${accountId}, ${personId}, ${leaving}, ${a.type}, ${a.id}, ${a.label}, ${a.ip}) as status`;
  return row.status;
}

/** The team's members, the longest-standing first. */
export async function listMembers(accountId: string): Promise<Member[]> {
  return getDb()<Member[]>`
    select p.id, p.email, m.role, m.joined_at
    from memberships m join people p on p.id = m.person_id
    where m.account_id = ${accountId}
    order by m.joined_at, p.email`;
}

/** The team's pending invitations (neither accepted, revoked nor expired), the newest first. */
export async function listOpenInvitations(accountId: string): Promise<OpenInvitation[]> {
  return getDb()<OpenInvitation[]>`
    select id, email, role, created_at, expires_at
    from invitations
    where account_id = ${accountId} and accepted_at is null and revoked_at is null and expires_at > now()
    order by created_at desc, id`;
}

export async function findInvitationByTokenHash(tokenHash: string): Promise<InvitationView | null> {
  const [row] = await getDb()<InvitationView[]>`
    select i.id, i.account_id, a.name as team_name, i.email, i.role, p.email as inviter_email, i.expires_at,
      i.accepted_at, i.revoked_at
    from invitations i join accounts a on a.id = i.account_id left join people p on p.id = i.invited_by
    where i.token_hash = ${tokenHash}`;
  return row ?? null;
}

export async function findTeam(
  accountId: string,
): Promise<{ id: string; name: string; plan: PlanName; created_at: Date } | null> {
  const [row] = await getDb()<{ id: string; name: string; plan: PlanName; created_at: Date }[]>`
    select id, name, plan, created_at from accounts where id = ${accountId}`;
  return row ?? null;
}
