import "server-only";
import { redirect } from "next/navigation";
import { cache } from "react";
import { getAuthProvider } from "@/lib/auth/provider";
import type { Account } from "@/lib/auth/data/accounts";
import type { Role } from "@/lib/teams/rights";

/**
 * The signed-in person in their current team: `id`, `plan` and `name` are the team's (an account is a team), `role`
 * the person's in it.
 */
export type TeamSession = Account & { name: string; role: Role; person: { id: string; email: string } };

/** The signed-in person's current team for this request (memoised per render), or null once its session has ended. */
export const getCurrentAccount = cache(async (): Promise<TeamSession | null> => {
  const account = await getAuthProvider().currentAccount();
  // Until sessions name a person (issue 48's identity step), the account's owner is its one admin.
  return account
    ? { ...account, name: account.email, role: "admin", person: { id: account.id, email: account.email } }
    : null;
});

/** For dashboard pages and actions: the signed-in person's current team, or a redirect to sign-in. */
export async function requireAccount(returnTo = "/dashboard"): Promise<TeamSession> {
  const account = await getCurrentAccount();
  if (!account) redirect(`/signin?next=${encodeURIComponent(returnTo)}`);
  return account;
}
