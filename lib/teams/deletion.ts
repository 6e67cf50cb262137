import "server-only";
import { randomUUID } from "node:crypto";
import type { TeamSession } from "@/lib/auth/current";
import { getAuthProvider } from "@/lib/auth/provider";
import { getPaymentProcessor } from "@/lib/billing/payments";
import { AppError } from "@/lib/core/errors";
import { requireAdminArea } from "@/lib/teams/rights";
import { deletePersonRow, deleteTeamRow, personTeamsOnDeletion } from "@/lib/teams/data-deletion";
import { providerDomainsOf, removeProviderDomains, type ProviderDomain } from "@/lib/sending-domains/service";

/**
 * Deletes the signed-in admin's team once they typed its name. The subscription is cancelled first: a failure to cancel
 * refuses the deletion, so no team is gone while still billed. Its sending domains are removed at Resend after the
 * delete (forgetDomainsAtResend).
 */
export async function deleteTeam(account: TeamSession, confirmation: string): Promise<void> {
  requireAdminArea(account.role, "delete_team");
  if (confirmation.trim() !== account.name)
    throw new AppError("VALIDATION_ERROR", { message: `Type the team's name, ${account.name}, to delete it.` });
  const domains = await providerDomainsOf(account.id);
  await getPaymentProcessor()?.cancelSubscriptions?.(account.id);
  await deleteTeamRow(account.id);
  // An id for this deletion's log lines, as the API's requests have theirs.
  await forgetDomainsAtResend(domains, randomUUID());
}

/**
 * Removes a deleted team's domains at Resend. The team is gone and stays gone whatever Resend answers: a domain left
 * there is only an entry in the operator's Resend account, so a failure is logged (with an id of this request, for
 * the operator to find it) and never undoes the deletion nor refuses it.
 */
async function forgetDomainsAtResend(domains: ProviderDomain[], requestId: string): Promise<void> {
  if (domains.length === 0) return;
  const failed = await removeProviderDomains(domains);
  for (const { domain, providerId, error } of failed) {
    logDeletionFailure(requestId, "removing a deleted team's sending domain from Resend failed", {
      domain,
      providerDomainId: providerId,
      error,
    });
  }
}

function logDeletionFailure(requestId: string, message: string, details: Record<string, string>): void {
  console.error(JSON.stringify({ level: "error", requestId, message, ...details }));
}

const lastAdmin = (teams: string[]) =>
  new AppError("VALIDATION_ERROR", {
    message: `You are the last admin of ${teams.join(", ")}: make another member an admin or remove the other members first.`,
  });

/**
 * Deletes the signed-in person: refused while they are the last admin of a team with other members; the teams they
 * are alone in go with them, their subscriptions cancelled first (a failure to cancel refuses the deletion), their
 * sending domains removed at Resend after. With Supabase Auth, their Auth user is deleted after the row: a failure
 * there is logged with an id of this request (the operator deletes the user by hand) and does not undo the deletion.
 */
export async function deleteSignIn(personId: string): Promise<void> {
  const { alone, blocked } = await personTeamsOnDeletion(personId);
  if (blocked.length > 0) throw lastAdmin(blocked);
  const finishSignInDeletion = await getAuthProvider().prepareSignInDeletion(personId);
  // An id for this deletion's log lines, as the API's requests have theirs.
  const requestId = randomUUID();
  const processor = getPaymentProcessor();
  for (const teamId of alone) await processor?.cancelSubscriptions?.(teamId);
  const domains = await Promise.all(
    alone.map(async (teamId) => ({ teamId, domains: await providerDomainsOf(teamId) })),
  );
  const result = await deletePersonRow(personId);
  if (result.blocked_teams.length > 0) throw lastAdmin(result.blocked_teams);
  try {
    await finishSignInDeletion();
  } catch (error) {
    logDeletionFailure(requestId, "deleting a deleted person's sign-in at the auth provider failed", {
      personId,
      error: error instanceof Error ? error.message : String(error),
    });
  }
  // Only the teams that went: one that gained a member meanwhile stays, with its domains.
  await forgetDomainsAtResend(
    domains.filter(({ teamId }) => result.deleted_teams.includes(teamId)).flatMap((team) => team.domains),
    requestId,
  );
}
