import { randomBytes } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { runAsActor } from "@/lib/audit/context";
import { AppError } from "@/lib/core/errors";
import { getDb } from "@/lib/db/client";
import {
  ACCEPT_REFUSALS,
  acceptInvitationLink,
  changeRole,
  inviteMember,
  LAST_ADMIN_MESSAGE,
  leaveTeam,
  removeTeamMember,
  revokeTeamInvitation,
  teamInvitations,
  teamMembers,
  type TeamCaller,
} from "@/lib/teams/service";
import { withLoggedEmails } from "../support/sign-up";
import { addMember, auditEntries, createPerson, createTeam, roles, type TestTeam } from "../support/teams";

const IP = "203.0.113.7";
const asUser = <T>(person: { id: string; email: string }, work: () => Promise<T>) =>
  runAsActor({ actor: { type: "user", id: person.id, label: person.email }, ip: IP }, work);

/** An invitation made by the team's admin: its id and the token of its link, read off the email in the log. */
async function invite(team: TestTeam, email: string, role: "admin" | "member" = "member") {
  const { result, emails } = await withLoggedEmails(() =>
    asUser(team.admin.person, () => inviteMember(team.admin, { email, role })),
  );
  expect(result.delivery).toBe("server_log");
  const token = /\/invite\/([A-Za-z0-9_-]{43})$/.exec(emails[0].text)?.[1];
  if (!token) throw new Error(`no invitation link in ${emails[0].text}`);
  return { id: result.invitationId, token, email: emails[0] };
}

async function refusal(work: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await work;
  } catch (error) {
    if (error instanceof AppError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error("not refused");
}

const refused = (message: string) => ({ code: "VALIDATION_ERROR", message });
const invitations = (accountId: string) =>
  getDb()<{ email: string; role: string; accepted: boolean; revoked: boolean }[]>`
    select email, role, accepted_at is not null as accepted, revoked_at is not null as revoked
    from invitations where account_id = ${accountId} order by created_at, id`;

describe("invitations", () => {
  it("an admin's invitation is mailed with a link to /invite/<token>, stored hashed, listed and audit-logged", async () => {
    const team = await createTeam();
    const email = `new-${randomBytes(4).toString("hex")}@example.com`;
    const { id, token, email: mail } = await invite(team, email, "admin");
    expect(mail).toEqual({
      level: "info",
      message: "sign-up email (no email provider configured)",
      to: email,
      subject: `Join ${team.admin.name} on Letterpress`,
      text: [
        `${team.email} invited you to join the team ${team.admin.name} on Letterpress as an admin.`,
        `The link works once, for 7 days, for a person signed in (or signing up) with ${email}. If you did not expect it, you can ignore this email.`,
        `Join ${team.admin.name}: http://localhost:3000/invite/${token}`,
      ].join("\n\n"),
    });
    const [row] = await getDb()<{ token_hash: string; invited_by: string; days: number }[]>`
      select token_hash, invited_by, round(extract(epoch from expires_at - created_at) / 86400) as days
      from invitations where id = ${id}`;
    expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.token_hash).not.toContain(token);
    expect([row.invited_by, Number(row.days)]).toEqual([team.personId, 7]);
    const listed = await teamInvitations(team.admin);
    expect(listed).toEqual([{ id, email, role: "admin", created_at: expect.any(Date), expires_at: expect.any(Date) }]);
    const entries = await auditEntries(team.accountId);
    expect(entries).toEqual([
      {
        action: "member.invited",
        actor_type: "user",
        actor_id: team.personId,
        actor_label: team.email,
        target_type: "invitation",
        target_id: id,
        target_label: email,
        ip: IP,
        details: { email, role: "admin" },
      },
    ]);
    expect(JSON.stringify(entries)).not.toContain(token);
  });

  it("the invited person joins once with the role; every later use is refused and changes nothing", async () => {
    const team = await createTeam();
    const person = await createPerson();
    const { id, token } = await invite(team, person.email);
    expect(await asUser(person, () => acceptInvitationLink(token, person))).toEqual({
      teamId: team.accountId,
      role: "member",
    });
    expect(await roles(team.accountId)).toEqual(
      [
        { email: team.email, role: "admin" },
        { email: person.email, role: "member" },
      ].sort((a, b) => a.email.localeCompare(b.email)),
    );
    expect((await auditEntries(team.accountId)).at(-1)).toEqual({
      action: "member.joined",
      actor_type: "user",
      actor_id: person.id,
      actor_label: person.email,
      target_type: "member",
      target_id: person.id,
      target_label: person.email,
      ip: IP,
      details: { role: "member", invitation_id: id },
    });
    expect(await refusal(acceptInvitationLink(token, person))).toEqual(refused(ACCEPT_REFUSALS.accepted));
    // Removed, the person cannot come back with the same link.
    await asUser(team.admin.person, () => removeTeamMember(team.admin, person.id));
    expect(await refusal(acceptInvitationLink(token, person))).toEqual(refused(ACCEPT_REFUSALS.accepted));
    expect(await roles(team.accountId)).toEqual([{ email: team.email, role: "admin" }]);
    expect((await auditEntries(team.accountId)).map((e) => e.action)).toEqual([
      "member.invited",
      "member.joined",
      "member.removed",
    ]);
  });

  it("an unknown, revoked, expired or another address's link is refused with its message and changes nothing", async () => {
    const team = await createTeam("monthly");
    const person = await createPerson();
    expect(await refusal(acceptInvitationLink(randomBytes(32).toString("base64url"), person))).toEqual(
      refused(ACCEPT_REFUSALS.not_found),
    );
    expect(await refusal(acceptInvitationLink("short", person))).toEqual(refused(ACCEPT_REFUSALS.not_found));

    const other = await invite(team, `other-${randomBytes(4).toString("hex")}@example.com`);
    expect(await refusal(acceptInvitationLink(other.token, person))).toEqual(refused(ACCEPT_REFUSALS.wrong_email));

    const revoked = await invite(team, person.email);
    await asUser(team.admin.person, () => revokeTeamInvitation(team.admin, revoked.id));
    expect(await refusal(acceptInvitationLink(revoked.token, person))).toEqual(refused(ACCEPT_REFUSALS.revoked));
    expect(await refusal(revokeTeamInvitation(team.admin, revoked.id))).toEqual(
      refused("That invitation was already revoked."),
    );

    const expired = await invite(team, person.email);
    await getDb()`update invitations set expires_at = now() - interval '1 second' where id = ${expired.id}`;
    expect(await refusal(acceptInvitationLink(expired.token, person))).toEqual(refused(ACCEPT_REFUSALS.expired));

    expect(await roles(team.accountId)).toEqual([{ email: team.email, role: "admin" }]);
    expect((await auditEntries(team.accountId)).map((e) => [e.action, e.target_label])).toEqual([
      ["member.invited", other.email.to],
      ["member.invited", person.email],
      ["invitation.revoked", person.email],
      ["member.invited", person.email],
    ]);
    expect((await auditEntries(team.accountId))[2]).toEqual({
      action: "invitation.revoked",
      actor_type: "user",
      actor_id: team.personId,
      actor_label: team.email,
      target_type: "invitation",
      target_id: revoked.id,
      target_label: person.email,
      ip: IP,
      details: { email: person.email, role: "member" },
    });
  });

  it("a person who became a member meanwhile is told so; inviting a member is refused", async () => {
    const team = await createTeam();
    const person = await createPerson();
    const { token } = await invite(team, person.email);
    await getDb()`insert into memberships (account_id, person_id, role) values (${team.accountId}, ${person.id}, 'admin')`;
    expect(await refusal(acceptInvitationLink(token, person))).toEqual(refused(ACCEPT_REFUSALS.already_member));
    expect(await refusal(inviteMember(team.admin, { email: person.email, role: "member" }))).toEqual(
      refused(`${person.email} is already a member of ${team.admin.name}.`),
    );
  });

  it("inviting an address again replaces its open invitation: the old link is revoked", async () => {
    const team = await createTeam();
    const person = await createPerson();
    const first = await invite(team, person.email, "admin");
    const second = await invite(team, person.email, "member");
    expect(await invitations(team.accountId)).toEqual([
      { email: person.email, role: "admin", accepted: false, revoked: true },
      { email: person.email, role: "member", accepted: false, revoked: false },
    ]);
    expect(await refusal(acceptInvitationLink(first.token, person))).toEqual(refused(ACCEPT_REFUSALS.revoked));
    expect(await acceptInvitationLink(second.token, person)).toEqual({ teamId: team.accountId, role: "member" });
  });

  it("seats count members and pending invitations: the free plan's 3 are refused past, expired ones free theirs", async () => {
    const team = await createTeam("free");
    const a = await invite(team, `a-${randomBytes(4).toString("hex")}@example.com`);
    await invite(team, `b-${randomBytes(4).toString("hex")}@example.com`);
    const full = refused(
      "Every seat of the free plan is taken (3, members and pending invitations): revoke an invitation, remove a member or change the plan.",
    );
    expect(await refusal(inviteMember(team.admin, { email: "c@example.com", role: "member" }))).toEqual(full);
    await getDb()`update invitations set expires_at = now() - interval '1 second' where id = ${a.id}`;
    await invite(team, `c-${randomBytes(4).toString("hex")}@example.com`);
    expect(await refusal(inviteMember(team.admin, { email: "d@example.com", role: "member" }))).toEqual(full);
    expect((await teamInvitations(team.admin)).length).toBe(2);
    expect((await auditEntries(team.accountId)).length).toBe(3);
  });

  it("a member can neither invite, revoke, change roles, remove nor list invitations", async () => {
    const team = await createTeam("monthly");
    const member = await addMember(team);
    const other = await addMember(team);
    const { id } = await invite(team, `x-${randomBytes(4).toString("hex")}@example.com`);
    const adminRequired = {
      code: "ADMIN_REQUIRED",
      message: "Only an admin of this team can manage members and invitations. Ask one of the team's admins.",
    };
    expect(await refusal(inviteMember(member, { email: "y@example.com", role: "member" }))).toEqual(adminRequired);
    expect(await refusal(revokeTeamInvitation(member, id))).toEqual(adminRequired);
    expect(await refusal(changeRole(member, member.person.id, "admin"))).toEqual(adminRequired);
    expect(await refusal(removeTeamMember(member, other.person.id))).toEqual(adminRequired);
    expect(await refusal(teamInvitations(member))).toEqual(adminRequired);
    expect((await teamMembers(team.accountId)).length).toBe(3);
    expect((await auditEntries(team.accountId)).length).toBe(1);
  });
});

describe("roles, removal and the last admin", () => {
  it("the last admin can be neither demoted, removed nor leave; with a second admin each works", async () => {
    const team = await createTeam("monthly");
    const member = await addMember(team);
    const admin = team.admin;
    expect(await refusal(changeRole(admin, admin.person.id, "member"))).toEqual(refused(LAST_ADMIN_MESSAGE));
    expect(await refusal(removeTeamMember(admin, admin.person.id))).toEqual(refused(LAST_ADMIN_MESSAGE));
    expect(await refusal(leaveTeam(admin))).toEqual(
      refused("You are this team's last admin: make another member an admin first, then leave."),
    );
    expect(await refusal(changeRole(admin, member.person.id, "member"))).toEqual(
      refused("That member is already a member."),
    );

    await asUser(admin.person, () => changeRole(admin, member.person.id, "admin"));
    await asUser(admin.person, () => changeRole(admin, admin.person.id, "member"));
    const promoted: TeamCaller = { ...member, role: "admin" };
    await asUser(member.person, () => removeTeamMember(promoted, admin.person.id));
    expect(await refusal(leaveTeam(promoted))).toEqual(
      refused("You are this team's last admin: make another member an admin first, then leave."),
    );
    expect(await teamMembers(team.accountId)).toEqual([
      { id: member.person.id, email: member.person.email, role: "admin", joined_at: expect.any(Date) },
    ]);
    const target = (p: { id: string; email: string }) => ({
      target_type: "member",
      target_id: p.id,
      target_label: p.email,
    });
    const by = (p: { id: string; email: string }) => ({
      actor_type: "user",
      actor_id: p.id,
      actor_label: p.email,
      ip: IP,
    });
    expect(await auditEntries(team.accountId)).toEqual([
      {
        action: "member.role_changed",
        ...by(admin.person),
        ...target(member.person),
        details: { from: "member", to: "admin" },
      },
      {
        action: "member.role_changed",
        ...by(admin.person),
        ...target(admin.person),
        details: { from: "admin", to: "member" },
      },
      {
        action: "member.removed",
        ...by(member.person),
        ...target(admin.person),
        details: { role: "member", reason: "removed" },
      },
    ]);
  });

  it("a member leaves; the entry says so; removing someone not in the team is refused", async () => {
    const team = await createTeam();
    const member = await addMember(team);
    await asUser(member.person, () => leaveTeam(member));
    expect(await refusal(leaveTeam(member))).toEqual(refused("You are no longer a member of this team."));
    expect(await refusal(removeTeamMember(team.admin, member.person.id))).toEqual(
      refused("That person is not a member of this team."),
    );
    expect(await auditEntries(team.accountId)).toEqual([
      {
        action: "member.removed",
        actor_type: "user",
        actor_id: member.person.id,
        actor_label: member.person.email,
        target_type: "member",
        target_id: member.person.id,
        target_label: member.person.email,
        ip: IP,
        details: { role: "member", reason: "left" },
      },
    ]);
  });

  it("another team's member or invitation is out of reach", async () => {
    const team = await createTeam("monthly");
    const theirs = await createTeam("monthly");
    const theirMember = await addMember(theirs);
    const { id } = await invite(theirs, `z-${randomBytes(4).toString("hex")}@example.com`);
    expect(await refusal(removeTeamMember(team.admin, theirMember.person.id))).toEqual(
      refused("That person is not a member of this team."),
    );
    expect(await refusal(changeRole(team.admin, theirMember.person.id, "admin"))).toEqual(
      refused("That person is not a member of this team."),
    );
    expect(await refusal(revokeTeamInvitation(team.admin, id))).toEqual(
      refused("That invitation is not one of this team's."),
    );
    expect((await teamMembers(theirs.accountId)).length).toBe(2);
  });
});

// PGlite runs one statement at a time, so only PostgreSQL can show the team's lock at work.
describe.runIf(inject("databaseKind") === "postgresql")("concurrency on PostgreSQL", () => {
  it("two admins demoting each other at once leave the team one admin", async () => {
    for (let round = 0; round < 5; round++) {
      const team = await createTeam("monthly");
      const second: TeamCaller = await addMember(team, "admin");
      const results = await Promise.allSettled([
        changeRole(team.admin, second.person.id, "member"),
        changeRole(second, team.admin.person.id, "member"),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
      expect((await roles(team.accountId)).filter((r) => r.role === "admin").length).toBe(1);
      expect((await auditEntries(team.accountId)).length).toBe(1);
    }
  });

  it("two admins removing each other at once leave the team one admin", async () => {
    const team = await createTeam("monthly");
    const second: TeamCaller = await addMember(team, "admin");
    const results = await Promise.allSettled([
      removeTeamMember(team.admin, second.person.id),
      removeTeamMember(second, team.admin.person.id),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect((await roles(team.accountId)).map((r) => r.role)).toEqual(["admin"]);
  });

  it("concurrent uses of one link join once", async () => {
    const team = await createTeam("monthly");
    const person = await createPerson();
    const { token } = await invite(team, person.email);
    const results = await Promise.allSettled(Array.from({ length: 4 }, () => acceptInvitationLink(token, person)));
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected", "rejected", "rejected"]);
    expect((await roles(team.accountId)).length).toBe(2);
    expect((await auditEntries(team.accountId)).map((e) => e.action)).toEqual(["member.invited", "member.joined"]);
  });

  it("concurrent invitations never exceed the seats", async () => {
    const team = await createTeam("free");
    const results = await withLoggedEmails(() =>
      Promise.allSettled(
        Array.from({ length: 8 }, (_, i) =>
          inviteMember(team.admin, {
            email: `seat-${i}-${randomBytes(4).toString("hex")}@example.com`,
            role: "member",
          }),
        ),
      ),
    );
    expect(results.result.filter((r) => r.status === "fulfilled").length).toBe(2);
    expect((await teamInvitations(team.admin)).length).toBe(2);
    expect((await auditEntries(team.accountId)).length).toBe(2);
  });
});
