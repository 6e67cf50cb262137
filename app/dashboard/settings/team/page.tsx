import type { Metadata } from "next";
import { requireAccount } from "@/lib/auth/current";
import { PLANS } from "@/lib/core/plans";
import { canUseAdminArea } from "@/lib/teams/rights";
import { teamInvitations, teamMembers } from "@/lib/teams/service";
import { formatDate } from "../../../_components/format";
import { CardSection } from "../../../_components/card-section";
import { DataTable } from "../../_components/data-table";
import { PageHeader } from "../../_components/page-header";
import {
  changeRoleAction,
  inviteMemberAction,
  leaveTeamAction,
  removeMemberAction,
  revokeInvitationAction,
} from "./actions";
import { ActionButton, InviteForm } from "./team-forms";

export const metadata: Metadata = { title: "Team" };

// Settings → Team: every member sees who is in the team and may leave it; admins also invite, revoke, change roles and
// remove (the service checks the role again for each change).
export default async function TeamPage() {
  const account = await requireAccount("/dashboard/settings/team");
  const admin = canUseAdminArea(account.role);
  const [members, invitations] = await Promise.all([
    teamMembers(account.id),
    admin ? teamInvitations(account) : Promise.resolve([]),
  ]);
  const seats = PLANS[account.plan].seats;
  return (
    <>
      <PageHeader
        title="Team"
        intro={`The people of ${account.name}, their roles, and pending invitations. Seats (members and pending invitations): ${seats === null ? "unlimited" : `${members.length + invitations.length} of ${seats}`}.`}
      />
      <div className="stack">
        {admin ? null : (
          <div className="alert alert-info" role="status">
            <p>An admin is needed to manage members: you can see who is in the team, and leave it.</p>
          </div>
        )}
        <CardSection headingId="members-title" title="Members">
          <DataTable columns={[{ label: "Email" }, { label: "Role" }, { label: "Joined" }]}>
            {members.map((member) => (
              <tr key={member.id}>
                <td>
                  {member.email}
                  {member.id === account.person.id ? " (you)" : null}
                </td>
                <td>{member.role === "admin" ? "Admin" : "Member"}</td>
                <td>{formatDate(member.joined_at)}</td>
                <td>
                  {admin ? (
                    <div className="row">
                      <ActionButton
                        action={changeRoleAction}
                        fields={{ id: member.id, role: member.role === "admin" ? "member" : "admin" }}
                        label={member.role === "admin" ? "Make member" : "Make admin"}
                      />
                      {member.id === account.person.id ? null : (
                        <ActionButton
                          action={removeMemberAction}
                          fields={{ id: member.id }}
                          label="Remove"
                          className="btn btn-danger-outline btn-sm"
                        />
                      )}
                    </div>
                  ) : null}
                </td>
              </tr>
            ))}
          </DataTable>
          <div className="card-footer row-between">
            <span className="muted small">A team always keeps an admin.</span>
            <ActionButton
              action={leaveTeamAction}
              fields={{}}
              label={`Leave ${account.name}`}
              className="btn btn-danger-outline btn-sm"
            />
          </div>
        </CardSection>
        {admin ? (
          <CardSection headingId="invitations-title" title="Pending invitations">
            <div className="card-body">
              <InviteForm action={inviteMemberAction} />
            </div>
            {invitations.length > 0 ? (
              <DataTable columns={[{ label: "Email" }, { label: "Role" }, { label: "Expires" }]}>
                {invitations.map((invitation) => (
                  <tr key={invitation.id}>
                    <td>{invitation.email}</td>
                    <td>{invitation.role === "admin" ? "Admin" : "Member"}</td>
                    <td>{formatDate(invitation.expires_at)}</td>
                    <td>
                      <ActionButton action={revokeInvitationAction} fields={{ id: invitation.id }} label="Revoke" />
                    </td>
                  </tr>
                ))}
              </DataTable>
            ) : null}
          </CardSection>
        ) : null}
      </div>
    </>
  );
}
