import type { TeamSession } from "@/lib/auth/current";
import type { Role } from "@/lib/teams/rights";
import { getDb } from "@/lib/db/client";

// lib/auth/current.ts for a caller signed in to the team `signedIn.accountId`, which the test sets, without a session
// or cookie: as `signedIn.personId` when set (a member, say), else as the team's first admin (its creator).
//   vi.mock("@/lib/auth/current", () => import("../support/signed-in"));
//   import { signedIn } from "../support/signed-in";
// The file's import and the mock are one module, so what the test sets is what the app's code reads.

/** The team and (optionally) the person the caller is signed in as; `role` overrides the membership's. */
export const signedIn: { accountId: string; personId?: string; role?: Role } = { accountId: "" };

export async function getCurrentAccount(): Promise<TeamSession> {
  const [row] = await getDb()<
    { id: string; name: string; plan: TeamSession["plan"]; created_at: Date; role: Role; pid: string; email: string }[]
  >`
    select a.id, a.name, a.plan, a.created_at, m.role, p.id as pid, p.email
    from accounts a join memberships m on m.account_id = a.id join people p on p.id = m.person_id
    where a.id = ${signedIn.accountId}
      and (${signedIn.personId ?? null}::uuid is null and m.role = 'admin' or m.person_id = ${signedIn.personId ?? null}::uuid)
    order by m.joined_at, m.person_id limit 1`;
  if (!row) throw new Error(`No member ${signedIn.personId ?? "admin"} of ${signedIn.accountId}`);
  const { pid, email, ...team } = row;
  return { ...team, role: signedIn.role ?? team.role, person: { id: pid, email } };
}

export const requireAccount = getCurrentAccount;
