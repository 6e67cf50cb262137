import { renderToStaticMarkup } from "react-dom/server";
import { beforeEach, describe, expect, it, vi } from "vitest";
import {
  changeRoleAction,
  inviteMemberAction,
  leaveTeamAction,
  removeMemberAction,
  revokeInvitationAction,
} from "@/app/dashboard/settings/team/actions";
import TeamPage from "@/app/dashboard/settings/team/page";
import type { ActionState } from "@/app/dashboard/_lib/action";
import type { TeamSession } from "@/lib/auth/current";
import { getDb } from "@/lib/db/client";
import type { TeamCaller } from "@/lib/teams/service";
import { LAST_ADMIN_MESSAGE } from "@/lib/teams/service";
import { newBrowser, submit } from "../support/next-headers";
import { withLoggedEmails } from "../support/sign-up";
import { addMember, createTeam, roles } from "../support/teams";

vi.mock("next/headers", () => import("../support/next-headers"));
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));
const session = vi.hoisted(() => ({ current: null as TeamSession | null }));
vi.mock("@/lib/auth/current", () => ({
  getCurrentAccount: async () => session.current,
  requireAccount: async () => session.current,
}));

const signInAs = (caller: TeamCaller) => {
  session.current = { ...caller, email: caller.person.email, created_at: new Date() } as TeamSession;
};
const text = async () =>
  renderToStaticMarkup(await TeamPage())
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
const invitationIds = (accountId: string) =>
  getDb()<{ id: string }[]>`select id from invitations where account_id = ${accountId} and revoked_at is null`;

beforeEach(() => {
  newBrowser();
});

describe("Settings → Team", () => {
  it("an admin invites, sees the invitation, revokes it, changes a role and removes a member", async () => {
    const team = await createTeam("monthly");
    const member = await addMember(team);
    signInAs(team.admin);
    const { result } = await withLoggedEmails(() =>
      submit<ActionState>(inviteMemberAction, { email: " New@Example.com ", role: "admin" }),
    );
    expect(result).toEqual({
      state: {
        status: "success",
        message:
          "No email provider is configured, so the invitation link for new@example.com was printed in the terminal running the app.",
      },
    });
    const page = await text();
    expect(page).toContain("Seats (members and pending invitations): 3 of 20.");
    expect(page).toContain("new@example.com Admin");
    const [{ id }] = await invitationIds(team.accountId);
    expect(await submit<ActionState>(revokeInvitationAction, { id })).toEqual({
      state: { status: "success", message: "Invitation revoked: its link no longer works." },
    });
    expect(await submit<ActionState>(changeRoleAction, { id: member.person.id, role: "admin" })).toEqual({
      state: { status: "success", message: "Role changed to admin." },
    });
    expect(await submit<ActionState>(removeMemberAction, { id: member.person.id })).toEqual({
      state: { status: "success", message: "Member removed: they no longer reach this team." },
    });
    expect(await roles(team.accountId)).toEqual([{ email: team.email, role: "admin" }]);
  });

  it("form errors and the last admin are refused with their message", async () => {
    const team = await createTeam();
    signInAs(team.admin);
    expect(await submit<ActionState>(inviteMemberAction, { email: "nope", role: "member" })).toEqual({
      state: {
        status: "error",
        message: "Enter a valid email address",
        fields: { email: "Enter a valid email address" },
        values: { email: "nope", role: "member" },
      },
    });
    expect(await submit<ActionState>(changeRoleAction, { id: "x", role: "member" })).toEqual({
      state: { status: "error", message: "Unknown member or invitation" },
    });
    expect(await submit<ActionState>(changeRoleAction, { id: team.personId, role: "member" })).toEqual({
      state: { status: "error", message: LAST_ADMIN_MESSAGE },
    });
    expect(await submit<ActionState>(leaveTeamAction, {})).toEqual({
      state: {
        status: "error",
        message: "You are this team's last admin: make another member an admin first, then leave.",
      },
    });
  });

  it("a member sees the list read-only with the note, cannot manage, and can leave", async () => {
    const team = await createTeam("monthly");
    const member = await addMember(team);
    signInAs(member);
    const page = await text();
    expect(page).toContain("An admin is needed to manage members: you can see who is in the team, and leave it.");
    expect(page).not.toContain("Pending invitations");
    expect(page).not.toContain("Make admin");
    const adminRequired = {
      state: {
        status: "error",
        message: "Only an admin of this team can manage members and invitations. Ask one of the team's admins.",
      },
    };
    expect(await submit<ActionState>(inviteMemberAction, { email: "x@example.com", role: "member" })).toEqual(
      adminRequired,
    );
    expect(await submit<ActionState>(changeRoleAction, { id: member.person.id, role: "admin" })).toEqual(adminRequired);
    expect(await submit<ActionState>(removeMemberAction, { id: team.personId })).toEqual(adminRequired);
    expect(await roles(team.accountId)).toHaveLength(2);
    expect(await submit<ActionState>(leaveTeamAction, {})).toEqual({ redirect: "/dashboard" });
    expect(await roles(team.accountId)).toEqual([{ email: team.email, role: "admin" }]);
  });
});
