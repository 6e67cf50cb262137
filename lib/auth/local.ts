import "server-only";
import { AuthError, SIGN_UP_FAILED_MESSAGE, WRONG_CREDENTIALS_MESSAGE, type Credentials } from "@/lib/auth/credentials";
import { hashPassword, verifyPassword } from "@/lib/auth/passwords";
import { createAccount, EmailTakenError, findAccountByEmail, type Account } from "@/lib/db/accounts";

// Local accounts (the embedded default): email + scrypt password hash in the accounts table. Cookie handling lives in
// lib/auth/provider.ts; these functions only decide who the user is.

// Verifying against a fixed hash when the email is unknown keeps the response time the same for both failures, so
// timing does not reveal which emails have accounts.
let dummyHash: Promise<string> | undefined;

/**
 * Sign-up never says whether an address has an account: a new address gets an account; an address that has one, with
 * that account's own password, is simply signed in (what someone who forgot they had signed up wants); with another
 * password the answer names no account, and counts as a failed sign-in where throttled. Either way one scrypt runs.
 */
export async function registerLocalAccount(credentials: Credentials): Promise<Account> {
  if (!(await findAccountByEmail(credentials.email))) {
    const passwordHash = await hashPassword(credentials.password);
    try {
      return await createAccount({ email: credentials.email, passwordHash });
    } catch (error) {
      // Another sign-up for the same address won the race: answered as for an address that had an account.
      if (!(error instanceof EmailTakenError)) throw error;
    }
  }
  return authenticateLocalAccount(credentials, SIGN_UP_FAILED_MESSAGE);
}

export async function authenticateLocalAccount(credentials: Credentials, failureMessage = WRONG_CREDENTIALS_MESSAGE): Promise<Account> {
  const account = await findAccountByEmail(credentials.email);
  if (!account?.password_hash) {
    dummyHash ??= hashPassword("letterpress-timing-equaliser");
    await verifyPassword(credentials.password, await dummyHash);
    throw new AuthError("INVALID_CREDENTIALS", failureMessage);
  }
  if (!(await verifyPassword(credentials.password, account.password_hash))) {
    throw new AuthError("INVALID_CREDENTIALS", failureMessage);
  }
  const { password_hash: _omit, ...rest } = account;
  return rest;
}
