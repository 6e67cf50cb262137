import "server-only";
import { redirect } from "next/navigation";
import { cache } from "react";
import { getAuthProvider } from "@/lib/auth/provider";
import type { Account } from "@/lib/auth/data/accounts";

/** The signed-in account for this request (memoised per render), or null once its session has ended. */
export const getCurrentAccount = cache((): Promise<Account | null> => getAuthProvider().currentAccount());

/** For dashboard pages and actions: the signed-in account, or a redirect to sign-in. */
export async function requireAccount(returnTo = "/dashboard"): Promise<Account> {
  const account = await getCurrentAccount();
  if (!account) redirect(`/signin?next=${encodeURIComponent(returnTo)}`);
  return account;
}
