import "server-only";
import type { TeamSession } from "@/lib/auth/current";
import { getPaymentProcessor } from "@/lib/billing/payments";
import { AppError } from "@/lib/core/errors";
import { requireAdminArea } from "@/lib/teams/rights";
import { deletePersonRow, deleteTeamRow, personTeamsOnDeletion } from "@/lib/teams/data-deletion";

/**
 * Deletes the signed-in admin's team once they typed its name. The subscription is cancelled first: a failure to cancel
 * refuses the deletion, so no team is gone while still billed.
 */
export async function deleteTeam(account: TeamSession, confirmation: string): Promise<void> {
  requireAdminArea(account.role, "delete_team");
  if (confirmation.trim() !== account.name)
    throw new AppError("VALIDATION_ERROR", { message: `Type the team's name, ${account.name}, to delete it.` });
  await getPaymentProcessor()?.cancelSubscriptions?.(account.id);
  await deleteTeamRow(account.id);
}

const lastAdmin = (teams: string[]) =>
  new AppError("VALIDATION_ERROR", {
    message: `You are the last admin of ${teams.join(", ")}: make another member an admin or remove the other members first.`,
  });

/**
 * Deletes the signed-in person: refused while they are the last admin of a team with other members; the teams they
 * are alone in go with them, their subscriptions cancelled first (a failure to cancel refuses the deletion).
 */
export async function deleteSignIn(personId: string): Promise<void> {
  const { alone, blocked } = await personTeamsOnDeletion(personId);
  if (blocked.length > 0) throw lastAdmin(blocked);
  const processor = getPaymentProcessor();
  for (const teamId of alone) await processor?.cancelSubscriptions?.(teamId);
  const result = await deletePersonRow(personId);
  if (result.blocked_teams.length > 0) throw lastAdmin(result.blocked_teams);
}
