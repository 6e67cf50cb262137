import "server-only";
import { getDb } from "@/lib/db/client";
import { currentAuditContext } from "@/lib/audit/context";

/** Deletes the team and, by cascade, everything of it in one statement; false when there was no such team. */
export async function deleteTeamRow(accountId: string): Promise<boolean> {
  const [row] = await getDb()<{ deleted: boolean }[]>`select public.delete_team(${accountId}) as deleted`;
  return row.deleted;
}

export type PersonDeletion = { deleted: boolean; blocked_teams: string[]; deleted_teams: string[] };

/** Deletes the person unless they are the last admin of a team with others (blocked_teams names those teams). */
export async function deletePersonRow(personId: string): Promise<PersonDeletion> {
  const { actor, ip } = currentAuditContext();
  const [row] = await getDb()<PersonDeletion[]>`
    select deleted, blocked_teams, deleted_teams
    from public.delete_person(${personId}, ${actor.type}, ${actor.id}, ${actor.label}, ${ip})`;
  return row;
}

/**
 * Before deleting a person, for the subscriptions to cancel first: the teams they are the only member of, and the
 * names of the teams whose last admin they are while others remain (delete_person checks again, atomically).
 */
export async function personTeamsOnDeletion(personId: string): Promise<{ alone: string[]; blocked: string[] }> {
  const rows = await getDb()<{ id: string; name: string; others: number; other_admins: number; role: string }[]>`
    select a.id, a.name, m.role,
      (select count(*)::int from memberships o where o.account_id = a.id and o.person_id <> ${personId}) as others,
      (select count(*)::int from memberships o
       where o.account_id = a.id and o.person_id <> ${personId} and o.role = 'admin') as other_admins
    from memberships m join accounts a on a.id = m.account_id
    where m.person_id = ${personId}
    order by a.name`;
  return {
    alone: rows.filter((row) => row.others === 0).map((row) => row.id),
    blocked: rows
      .filter((row) => row.role === "admin" && row.others > 0 && row.other_admins === 0)
      .map((row) => row.name),
  };
}
