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
