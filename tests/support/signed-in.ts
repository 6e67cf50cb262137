import { getAccountByIdOrThrow } from "@/lib/auth/data/accounts";
import type { TeamSession } from "@/lib/auth/current";
import type { Role } from "@/lib/teams/rights";

// lib/auth/current.ts for a caller signed in as `signedIn.accountId`, which the test sets, without a session or cookie:
//   vi.mock("@/lib/auth/current", () => import("../support/signed-in"));
//   import { signedIn } from "../support/signed-in";
// The file's import and the mock are one module, so what the test sets is what the app's code reads.

/** The account the caller is signed in as, and their role in it. */
export const signedIn: { accountId: string; role: Role } = { accountId: "", role: "admin" };

// As lib/auth/current.ts answers today: the account's owner is the person (an admin, unless the test says otherwise).
async function teamSession(): Promise<TeamSession> {
  const account = await getAccountByIdOrThrow(signedIn.accountId);
  return { ...account, name: account.email, role: signedIn.role, person: { id: account.id, email: account.email } };
}

export const getCurrentAccount = teamSession;

export const requireAccount = teamSession;
