import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { AppError } from "@/lib/core/errors";
import { WRONG_CREDENTIALS_MESSAGE, type Credentials } from "@/lib/auth/credentials";
import { hashPassword, verifyPassword } from "@/lib/auth/passwords";
import { withNextPath } from "@/lib/auth/next-path";
import { getConfig } from "@/lib/core/config";
import { createAccount, findPersonByEmail, type Account, type Person } from "@/lib/auth/data/accounts";
import { findPendingSignUp, savePendingSignUp, takePendingSignUp } from "@/lib/auth/data/pending-sign-ups";
import { sendSystemEmail, type SystemEmailDelivery } from "@/lib/mail-transport/system";

// Local accounts (the embedded default): email + scrypt password hash in the people table, created only through a
// link mailed to the address. Cookie handling lives in lib/auth/provider.ts; these functions decide who the user is.

export const SIGN_UP_LINK_MAX_AGE_SECONDS = 24 * 60 * 60;

// A link's token (sign-up, password reset, email change): 32 random bytes in base64url, stored only as its SHA-256
// digest.
export const LINK_TOKEN = /^[A-Za-z0-9_-]{43}$/;
export const newLinkToken = () => randomBytes(32).toString("base64url");
export const digest = (token: string) => createHash("sha256").update(token).digest("hex");

/**
 * Sign-up answers every address alike and signs no one in: an address without an account is sent a link whose page
 * creates it (confirmLocalSignUp), an address with one is sent a notice to sign in instead. Both paths run
 * one scrypt and send one email, so neither the answer nor its timing tells which addresses have accounts. Answers
 * where the email went, the same for both paths. `next` (a path safeNextPath gave: an invitation's page, say) rides
 * in either email's link, so that following it ends where the sign-up began.
 */
export async function requestLocalSignUp(credentials: Credentials, next: string): Promise<SystemEmailDelivery> {
  const [passwordHash, account] = await Promise.all([
    hashPassword(credentials.password),
    findPersonByEmail(credentials.email),
  ]);
  const siteUrl = getConfig().siteUrl;
  if (account) {
    return sendSystemEmail({
      to: credentials.email,
      subject: "You already have a Letterpress account",
      paragraphs: [
        "Someone, probably you, asked to sign up to Letterpress with this address. You already have an account, so nothing was changed.",
        'If you forgot your password, choose "Forgot password?" on the sign-in page. If this was not you, you can ignore this email.',
      ],
      link: { label: "Sign in", url: `${siteUrl}${withNextPath("/signin", next)}` },
    });
  }
  const token = newLinkToken();
  await savePendingSignUp({
    email: credentials.email,
    passwordHash,
    tokenHash: digest(token),
    maxAgeSeconds: SIGN_UP_LINK_MAX_AGE_SECONDS,
  });
  return sendSystemEmail({
    to: credentials.email,
    subject: "Finish signing up to Letterpress",
    paragraphs: [
      "Follow the link below within 24 hours to create your Letterpress account. It works once.",
      "If you did not ask to sign up, you can ignore this email: no account is created without the link.",
    ],
    link: { label: "Finish signing up", url: `${siteUrl}${withNextPath(`/auth/confirm?token=${token}`, next)}` },
  });
}

export type SignUpConfirmation =
  { status: "created"; account: Account & { person: Person } } | { status: "invalid" } | { status: "address_taken" };

/**
 * What a sign-up link's page shows before anything is done: the address of the account the link would create, or null
 * for an unknown, used or expired token. The token stays usable.
 */
export async function findLocalSignUp(token: string): Promise<{ email: string } | null> {
  return LINK_TOKEN.test(token) ? findPendingSignUp(digest(token)) : null;
}

/**
 * Finishes a sign-up, from its link's page (app/(auth)/auth/confirm): an unexpired, unused token creates the account
 * with the password chosen at sign-up. The token is used up either way. `address_taken` when the address got an
 * account since (another link, or the CLI).
 */
export async function confirmLocalSignUp(token: string): Promise<SignUpConfirmation> {
  if (!LINK_TOKEN.test(token)) return { status: "invalid" };
  const pending = await takePendingSignUp(digest(token));
  if (!pending) return { status: "invalid" };
  try {
    return {
      status: "created",
      account: await createAccount({ email: pending.email, passwordHash: pending.password_hash }),
    };
  } catch (error) {
    if (error instanceof AppError && error.code === "EMAIL_TAKEN") return { status: "address_taken" };
    throw error;
  }
}

// Verifying against a fixed hash when the email is unknown keeps the response time the same for both failures, so
// timing does not reveal which emails have accounts.
let dummyHash: Promise<string> | undefined;

export async function authenticateLocalAccount(credentials: Credentials): Promise<Person> {
  const account = await findPersonByEmail(credentials.email);
  if (!account?.password_hash) {
    dummyHash ??= hashPassword("letterpress-timing-equaliser");
    await verifyPassword(credentials.password, await dummyHash);
    throw new AppError("INVALID_CREDENTIALS", { message: WRONG_CREDENTIALS_MESSAGE });
  }
  if (!(await verifyPassword(credentials.password, account.password_hash))) {
    throw new AppError("INVALID_CREDENTIALS", { message: WRONG_CREDENTIALS_MESSAGE });
  }
  const { password_hash: _omit, ...rest } = account;
  return rest;
}
