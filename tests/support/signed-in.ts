import type { Account } from "@/lib/auth/data/accounts";
import { getAccountByIdOrThrow } from "@/lib/auth/data/accounts";

// lib/auth/current.ts for a caller signed in as `signedIn.accountId`, which the test sets, without a session or cookie:
//   vi.mock("@/lib/auth/current", () => import("../support/signed-in"));
//   import { signedIn } from "../support/signed-in";
// The file's import and the mock are one module, so what the test sets is what the app's code reads.

/** The account the caller is signed in as. */
export const signedIn = { accountId: "" };

export const getCurrentAccount = (): Promise<Account> => getAccountByIdOrThrow(signedIn.accountId);

export const requireAccount = (): Promise<Account> => getAccountByIdOrThrow(signedIn.accountId);
