import { describe, expect, it } from "vitest";
import { GET as getTeam } from "@/app/api/v1/team/route";
import { runAsActor } from "@/lib/audit/context";
import { getDb } from "@/lib/db/client";
import { inviteMember } from "@/lib/teams/service";
import { auth, call, counter, personSessionCookie, sessionCookie } from "../support/api";
import { withLoggedEmails } from "../support/sign-up";
import { addMember, createTeam } from "../support/teams";

const iso = (value: Date) => value.toISOString();

describe("GET /team", () => {
  it("answers the team, its members and only its pending invitations, not metered", async () => {
    const team = await createTeam("monthly");
    const member = await addMember(team);
    await withLoggedEmails(() =>
      runAsActor({ actor: { type: "user", id: team.personId, label: team.email }, ip: null }, async () => {
        await inviteMember(team.admin, { email: "pending@example.com", role: "admin" });
        await inviteMember(team.admin, { email: "late@example.com", role: "member" });
      }),
    );
    await getDb()`update invitations set expires_at = now() - interval '1 second'
      where account_id = ${team.accountId} and email = 'late@example.com'`;
    const [account] = await getDb()<
      { created_at: Date }[]
    >`select created_at from accounts where id = ${team.accountId}`;
    const joined = await getDb()<{ person_id: string; joined_at: Date }[]>`
      select person_id, joined_at from memberships where account_id = ${team.accountId} order by joined_at`;
    const [pending] = await getDb()<{ id: string; created_at: Date; expires_at: Date }[]>`
      select id, created_at, expires_at from invitations where account_id = ${team.accountId} and email = 'pending@example.com'`;

    const result = await call(getTeam, "/api/v1/team", { headers: auth(team) });
    expect([result.status, result.body]).toEqual([
      200,
      {
        success: true,
        team: { id: team.accountId, name: team.admin.name, plan: "monthly", created_at: iso(account.created_at) },
        members: [
          { id: team.personId, email: team.email, role: "admin", joined_at: iso(joined[0].joined_at) },
          { id: member.person.id, email: member.person.email, role: "member", joined_at: iso(joined[1].joined_at) },
        ],
        invitations: [
          {
            id: pending.id,
            email: "pending@example.com",
            role: "admin",
            created_at: iso(pending.created_at),
            expires_at: iso(pending.expires_at),
          },
        ],
      },
    ]);
    expect(await counter(team, "api_calls")).toBe(0);
    const session = await call(getTeam, "/api/v1/team", { headers: { cookie: await sessionCookie(team.accountId) } });
    expect([session.status, session.body]).toEqual([200, result.body]);
  });

  it("a member's session is refused with ADMIN_REQUIRED; the team's key reads it", async () => {
    const team = await createTeam();
    const member = await addMember(team);
    const refused = await call(getTeam, "/api/v1/team", {
      headers: { cookie: await personSessionCookie(member.person.id) },
    });
    expect([refused.status, refused.body]).toEqual([
      403,
      {
        success: false,
        error: "Team admin required",
        code: "ADMIN_REQUIRED",
        message: "Only an admin of this team can manage members and invitations. Ask one of the team's admins.",
      },
    ]);
    expect((await call(getTeam, "/api/v1/team", { headers: auth(team) })).status).toBe(200);
  });
});
