import "server-only";
import { digest, LINK_TOKEN, newLinkToken } from "@/lib/auth/local";
import { getConfig } from "@/lib/core/config";
import { AppError } from "@/lib/core/errors";
import { PLANS, type PlanName } from "@/lib/core/plans";
import { sendSystemEmail, type SystemEmailDelivery } from "@/lib/mail-transport/system";
import {
  acceptInvitation,
  changeMemberRole,
  createInvitation,
  findInvitationByTokenHash,
  findTeam,
  listMembers,
  listOpenInvitations,
  removeMember,
  revokeInvitation,
  type AcceptInvitationStatus,
  type InvitationView,
  type Member,
  type OpenInvitation,
} from "@/lib/teams/data";
import { requireAdminArea, type Role } from "@/lib/teams/rights";
import { INVITATION_DAYS } from "@/lib/teams/schemas";

// Members and invitations of a team, for Settings → Team and the invitation page. Admin-only changes check the
// caller's role here; the seats and the last-admin rule are checked in SQL, under the team's lock.

/** Who asks: the signed-in person in their current team (lib/auth/current.ts's TeamSession has these). */
export type TeamCaller = {
  id: string;
  name: string;
  plan: PlanName;
  role: Role;
  person: { id: string; email: string };
};

const refused = (message: string) => new AppError("VALIDATION_ERROR", { message });

export const LAST_ADMIN_MESSAGE = "A team always keeps an admin: make another member an admin first, then try again.";

export async function inviteMember(
  caller: TeamCaller,
  invitation: { email: string; role: Role },
): Promise<{ invitationId: string; delivery: SystemEmailDelivery }> {
  requireAdminArea(caller.role, "team");
  const token = newLinkToken();
  const seats = PLANS[caller.plan].seats;
  const { status, invitationId } = await createInvitation({
    accountId: caller.id,
    email: invitation.email,
    role: invitation.role,
    tokenHash: digest(token),
    invitedBy: caller.person.id,
    expiresAt: new Date(Date.now() + INVITATION_DAYS * 24 * 3600_000),
    seatLimit: seats,
  });
  if (status === "already_member") throw refused(`${invitation.email} is already a member of ${caller.name}.`);
  if (status === "no_seats") {
    throw refused(
      `Every seat of the ${caller.plan} plan is taken (${seats}, members and pending invitations): revoke an invitation, remove a member or change the plan.`,
    );
  }
  if (status === "not_found" || !invitationId) throw new AppError("NOT_FOUND");
  const delivery = await sendSystemEmail({
    to: invitation.email,
    subject: `Join ${caller.name} on Letterpress`,
    paragraphs: [
      `${caller.person.email} invited you to join the team ${caller.name} on Letterpress as ${invitation.role === "admin" ? "an admin" : "a member"}.`,
      `The link works once, for ${INVITATION_DAYS} days, for a person signed in (or signing up) with ${invitation.email}. If you did not expect it, you can ignore this email.`,
    ],
    link: { label: `Join ${caller.name}`, url: `${getConfig().siteUrl}/invite/${token}` },
  });
  return { invitationId, delivery };
}

/** Why an invitation link cannot be used, in the words the invitation page shows. */
export const ACCEPT_REFUSALS: Record<Exclude<AcceptInvitationStatus, "joined">, string> = {
  not_found: "This invitation link is not valid: check that you copied all of it, or ask for a new invitation.",
  revoked: "This invitation was revoked by an admin of the team: ask them for a new one.",
  accepted: "This invitation was already used: an invitation link works once. Ask an admin for a new one.",
  expired: `This invitation has expired: links work for ${INVITATION_DAYS} days. Ask an admin of the team for a new one.`,
  wrong_email: "This invitation is for another email address: sign in with the address it was sent to.",
  already_member: "You are already a member of this team.",
};

/** The invitation a link names, whatever its state; null for a malformed or unknown token. */
export async function findInvitation(token: string): Promise<InvitationView | null> {
  return LINK_TOKEN.test(token) ? findInvitationByTokenHash(digest(token)) : null;
}

/** Joins the team as the signed-in person: the team's id and the role, or a refusal with its message. */
export async function acceptInvitationLink(
  token: string,
  person: { id: string; email: string },
): Promise<{ teamId: string; role: Role }> {
  if (!LINK_TOKEN.test(token)) throw refused(ACCEPT_REFUSALS.not_found);
  const { status, teamId, role } = await acceptInvitation(digest(token), person);
  if (status !== "joined" || !teamId || !role)
    throw refused(ACCEPT_REFUSALS[status === "joined" ? "not_found" : status]);
  return { teamId, role };
}

export async function revokeTeamInvitation(caller: TeamCaller, invitationId: string): Promise<void> {
  requireAdminArea(caller.role, "team");
  const status = await revokeInvitation(caller.id, invitationId);
  if (status === "not_found") throw refused("That invitation is not one of this team's.");
  if (status === "accepted") throw refused("That invitation was already accepted: remove the member instead.");
  if (status === "already_revoked") throw refused("That invitation was already revoked.");
}

export async function changeRole(caller: TeamCaller, personId: string, role: Role): Promise<void> {
  requireAdminArea(caller.role, "team");
  const status = await changeMemberRole(caller.id, personId, role);
  if (status === "not_found") throw refused("That person is not a member of this team.");
  if (status === "unchanged") throw refused(`That member is already ${role === "admin" ? "an admin" : "a member"}.`);
  if (status === "last_admin") throw refused(LAST_ADMIN_MESSAGE);
}

export async function removeTeamMember(caller: TeamCaller, personId: string): Promise<void> {
  requireAdminArea(caller.role, "team");
  const status = await removeMember(caller.id, personId, personId === caller.person.id);
  if (status === "not_found") throw refused("That person is not a member of this team.");
  if (status === "last_admin") throw refused(LAST_ADMIN_MESSAGE);
}

/** Any member leaves the team they are in, unless they are its last admin. */
export async function leaveTeam(caller: TeamCaller): Promise<void> {
  const status = await removeMember(caller.id, caller.person.id, true);
  if (status === "not_found") throw refused("You are no longer a member of this team.");
  if (status === "last_admin") {
    throw refused("You are this team's last admin: make another member an admin first, then leave.");
  }
}

export async function teamMembers(accountId: string): Promise<Member[]> {
  return listMembers(accountId);
}

export async function teamInvitations(caller: TeamCaller): Promise<OpenInvitation[]> {
  requireAdminArea(caller.role, "team");
  return listOpenInvitations(caller.id);
}

/** GET /team: the caller's team, its members and pending invitations; a member's session is refused. */
export async function teamOverview(caller: { accountId: string; role: Role | null }) {
  requireAdminArea(caller.role, "team");
  const [team, members, invitations] = await Promise.all([
    findTeam(caller.accountId),
    listMembers(caller.accountId),
    listOpenInvitations(caller.accountId),
  ]);
  if (!team) throw new AppError("NOT_FOUND");
  return {
    team: { ...team, created_at: team.created_at.toISOString() },
    members: members.map((m) => ({ ...m, joined_at: m.joined_at.toISOString() })),
    invitations: invitations.map((i) => ({
      ...i,
      created_at: i.created_at.toISOString(),
      expires_at: i.expires_at.toISOString(),
    })),
  };
}
