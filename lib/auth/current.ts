import "server-only";
import { redirect } from "next/navigation";
import { cache } from "react";
import { getAuthProvider } from "@/lib/auth/provider";
import { AccountNotFoundError, getAccountByIdOrThrow, type Account } from "@/lib/db/accounts";

/** The signed-in account for this request (memoised per render), or null. */
export const getCurrentAccount = cache(async (): Promise<Account | null> => {
  const accountId = await getAuthProvider().currentAccountId();
  if (!accountId) return null;
  try {
    return await getAccountByIdOrThrow(accountId);
  } catch (error) {
    if (error instanceof AccountNotFoundError) return null;
    throw error;
  }
});

/** For dashboard pages and actions: the signed-in account, or a redirect to sign-in. */
export async function requireAccount(returnTo = "/dashboard"): Promise<Account> {
  const account = await getCurrentAccount();
  if (!account) redirect(`/signin?next=${encodeURIComponent(returnTo)}`);
  return account;
}
