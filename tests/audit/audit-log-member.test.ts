import { renderToStaticMarkup } from "react-dom/server";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { GET as listAuditLog } from "@/app/api/v1/audit-log/route";
import AuditLogPage from "@/app/dashboard/audit-log/page";
import { runAsActor } from "@/lib/audit/context";
import { acceptInvitationLink, inviteMember } from "@/lib/teams/service";
import { adminRequired } from "@/lib/teams/rights";
import { auth, call, ISO, personSessionCookie } from "../support/api";
import { signedIn } from "../support/signed-in";
import { withLoggedEmails } from "../support/sign-up";
import { createPerson, createTeam, type TestTeam } from "../support/teams";

// The audit log is the team's admins' (issue 48): a person who joined the team as a member through an invitation's
// link is refused it by the API with their own session, and the dashboard's page shows them that an admin is needed.
vi.mock("@/lib/auth/current", () => import("../support/signed-in"));

let team: TestTeam;
let member: { id: string; email: string };
let invitationId: string;

beforeAll(async () => {
  team = await createTeam();
  member = await createPerson();
  const as = (person: { id: string; email: string }) => ({
    actor: { type: "user" as const, id: person.id, label: person.email },
    ip: null,
  });
  const { result, emails } = await withLoggedEmails(() =>
    runAsActor(as(team.admin.person), () => inviteMember(team.admin, { email: member.email, role: "member" })),
  );
  invitationId = result.invitationId;
  const token = /\/invite\/([A-Za-z0-9_-]{43})$/.exec(emails[0].text)![1];
  expect(await runAsActor(as(member), () => acceptInvitationLink(token, member))).toEqual({
    teamId: team.accountId,
    role: "member",
  });
});

describe("the audit log for a member of the team", () => {
  it("GET /api/v1/audit-log answers the member's session 403 ADMIN_REQUIRED; the admin's session and the team's key read it", async () => {
    const asMember = await call(listAuditLog, "/api/v1/audit-log", {
      headers: { cookie: await personSessionCookie(member.id) },
    });
    expect({ status: asMember.status, body: asMember.body }).toEqual({
      status: 403,
      body: {
        success: false,
        error: "Team admin required",
        code: "ADMIN_REQUIRED",
        message: "Only an admin of this team can manage the audit log. Ask one of the team's admins.",
      },
    });
    expect(asMember.body.message).toBe(adminRequired("audit_log").message);

    const joined = {
      id: expect.any(String),
      action: "member.joined",
      actor: { type: "user", id: member.id, label: member.email },
      target: { type: "member", id: member.id, label: member.email },
      ip: null,
      created_at: ISO,
      details: { role: "member", invitation_id: invitationId },
    };
    const asAdmin = await call(listAuditLog, "/api/v1/audit-log?action=member.joined", {
      headers: { cookie: await personSessionCookie(team.personId) },
    });
    expect({ status: asAdmin.status, body: asAdmin.body }).toEqual({
      status: 200,
      body: { success: true, events: [joined], pagination: { limit: 50, offset: 0, total: 1 } },
    });
    const byKey = await call(listAuditLog, "/api/v1/audit-log?action=member.joined", { headers: auth(team) });
    expect({ status: byKey.status, body: byKey.body }).toEqual({ status: 200, body: asAdmin.body });
  });

  it("the dashboard's audit log page shows the member that an admin is needed, and the admin the entries", async () => {
    const text = async () =>
      renderToStaticMarkup(await AuditLogPage({ searchParams: Promise.resolve({}) }))
        .replace(/<[^>]+>/g, " ")
        .replace(/\s+/g, " ")
        .replaceAll("&#x27;", "'")
        .trim();
    signedIn.accountId = team.accountId;
    signedIn.personId = member.id;
    expect(await text()).toBe(
      "Audit log Who changed what in this team. An admin of this team is needed Only the team's admins read its audit log. Ask one of them if you need to know who changed what.",
    );
    signedIn.personId = team.personId;
    const asAdmin = await text();
    expect(asAdmin).not.toContain("An admin of this team is needed");
    expect(asAdmin).toContain(`${member.email} Person member.joined ${member.email}`);
  });
});
