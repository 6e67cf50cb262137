import "server-only";
import { redirect } from "next/navigation";
import { cache } from "react";
import { getAuthProvider } from "@/lib/auth/provider";
import type { Account, Person, PersonTeam } from "@/lib/auth/data/accounts";
import type { Role } from "@/lib/teams/rights";

/**
 * The signed-in person in their current team: `id`, `plan` and `name` are the team's (an account is a team), `role`
 * the person's in it.
 */
export type TeamSession = Account & { role: Role; person: Person };

/**
 * The signed-in person and their current team for this request (memoised per render): the team the switcher chose
 * while they are still its member, else their first; `team` null for a person in no team. Null once the session ended.
 */
export const getCurrentSession = cache((): Promise<PersonTeam | null> => getAuthProvider().currentSession());

/** The signed-in person's current team for this request, or null once its session has ended (or they have no team). */
export async function getCurrentAccount(): Promise<TeamSession | null> {
  const session = await getCurrentSession();
  return session?.team ? { ...session.team, person: session.person } : null;
}

/**
 * For dashboard pages and actions: the signed-in person's current team, or a redirect to sign-in (or, for a person in
 * no team, to the page that offers to create one).
 */
export async function requireAccount(returnTo = "/dashboard"): Promise<TeamSession> {
  const session = await getCurrentSession();
  if (!session) redirect(`/signin?next=${encodeURIComponent(returnTo)}`);
  if (!session.team) redirect("/teams/new");
  return { ...session.team, person: session.person };
}
