import "server-only";
import { AuthError, WRONG_CREDENTIALS_MESSAGE, type Credentials } from "@/lib/auth/credentials";
import { hashPassword, verifyPassword } from "@/lib/auth/passwords";
import { createAccount, EmailTakenError, findAccountByEmail, type Account } from "@/lib/db/accounts";

// Local accounts (the embedded default): email + scrypt password hash in the accounts table. Cookie handling lives in
// lib/auth/provider.ts; these functions only decide who the user is.

// Verifying against a fixed hash when the email is unknown keeps the response time the same for both failures, so
// timing does not reveal which emails have accounts.
let dummyHash: Promise<string> | undefined;

export async function registerLocalAccount(credentials: Credentials): Promise<Account> {
  const passwordHash = await hashPassword(credentials.password);
  try {
    return await createAccount({ email: credentials.email, passwordHash });
  } catch (error) {
    if (error instanceof EmailTakenError) {
      throw new AuthError("EMAIL_TAKEN", "An account with this email already exists. Sign in instead.", {
        email: "An account with this email already exists",
      });
    }
    throw error;
  }
}

export async function authenticateLocalAccount(credentials: Credentials): Promise<Account> {
  const account = await findAccountByEmail(credentials.email);
  if (!account?.password_hash) {
    dummyHash ??= hashPassword("letterpress-timing-equaliser");
    await verifyPassword(credentials.password, await dummyHash);
    throw new AuthError("INVALID_CREDENTIALS", WRONG_CREDENTIALS_MESSAGE);
  }
  if (!(await verifyPassword(credentials.password, account.password_hash))) {
    throw new AuthError("INVALID_CREDENTIALS", WRONG_CREDENTIALS_MESSAGE);
  }
  const { password_hash: _omit, ...rest } = account;
  return rest;
}
