import { randomUUID } from "node:crypto";
import { getDb } from "@/lib/db/client";
import type { PlanName } from "@/lib/core/plans";
import type { Role } from "@/lib/teams/rights";
import type { TeamCaller } from "@/lib/teams/service";
import { createUser, type TestUser } from "./api";

// Teams for tests: a team as sign-up makes it (its creator is its admin), and people added as members directly.

export type TestTeam = TestUser & { admin: TeamCaller };

export async function createTeam(plan: PlanName = "free"): Promise<TestTeam> {
  const user = await createUser(plan);
  const [{ name }] = await getDb()<{ name: string }[]>`select name from accounts where id = ${user.accountId}`;
  return {
    ...user,
    admin: { id: user.accountId, name, plan, role: "admin", person: { id: user.personId, email: user.email } },
  };
}

/** A person of their own (no team), signed up with `email`. */
export async function createPerson(
  email = `person-${randomUUID()}@example.com`,
): Promise<{ id: string; email: string }> {
  const [person] = await getDb()<{ id: string; email: string }[]>`
    insert into people (email) values (${email}) returning id, email`;
  return person;
}

/** A person who is a member of the team with `role`, as the caller they would be in it. */
export async function addMember(team: TestTeam, role: Role = "member"): Promise<TeamCaller> {
  const person = await createPerson();
  await getDb()`insert into memberships (account_id, person_id, role) values (${team.accountId}, ${person.id}, ${role})`;
  return { ...team.admin, role, person };
}

export type AuditRow = {
  action: string;
  actor_type: string;
  actor_id: string | null;
  actor_label: string;
  target_type: string;
  target_id: string | null;
  target_label: string | null;
  ip: string | null;
  details: unknown;
};

/** The team's entries of members and invitations (the key every test team is made with has its own entry). */
export async function auditEntries(accountId: string): Promise<AuditRow[]> {
  return getDb()<AuditRow[]>`
    select action, actor_type, actor_id, actor_label, target_type, target_id, target_label, ip, details
    from audit_log where account_id = ${accountId} and (action like 'member.%' or action like 'invitation.%')
    order by created_at, seq`;
}

export async function roles(accountId: string): Promise<{ email: string; role: string }[]> {
  return getDb()<{ email: string; role: string }[]>`
    select p.email, m.role from memberships m join people p on p.id = m.person_id
    where m.account_id = ${accountId} order by p.email`;
}
