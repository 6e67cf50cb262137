import "server-only";
import { createHash } from "node:crypto";
import { AuthError } from "@/lib/auth/credentials";
import { SIGN_IN_LIMITS } from "@/lib/limits";
import { claimSignInAttempt, releaseSignInAttempt, type ThrottleKey } from "@/lib/db/sign-in-attempts";

// Password guessing is throttled per account and per client address, in PostgreSQL so the limits hold across every
// instance. A person who mistypes never comes near them; a script is stopped after a handful of guesses. The account
// limit is kept for any address typed in, registered or not, and its answer is the same, so it reveals nothing.

export const TOO_MANY_ATTEMPTS_MESSAGE = `Too many sign-in attempts. Wait ${SIGN_IN_LIMITS.windowMinutes} minutes and try again.`;

const digest = (text: string) => createHash("sha256").update(text).digest("hex");

/**
 * Runs a sign-in or sign-up attempt for `email` from `ip` unless either has had too many failures in the window. An
 * attempt that fails with INVALID_CREDENTIALS counts as a failure; any other outcome is given back.
 */
export async function throttleSignIn<T>(email: string, ip: string | null, attempt: () => Promise<T>): Promise<T> {
  const keys: [ThrottleKey, ThrottleKey] = [
    { key: `account:${digest(email.toLowerCase())}`, limit: SIGN_IN_LIMITS.failuresPerAccount },
    { key: `ip:${digest(ip ?? "unknown")}`, limit: SIGN_IN_LIMITS.failuresPerAddress },
  ];
  const claimed = await claimSignInAttempt(keys, SIGN_IN_LIMITS.windowMinutes * 60);
  if (claimed.length < keys.length) {
    await releaseSignInAttempt(claimed);
    throw new AuthError("TOO_MANY_ATTEMPTS", TOO_MANY_ATTEMPTS_MESSAGE);
  }
  let failed = false;
  try {
    return await attempt();
  } catch (error) {
    failed = error instanceof AuthError && error.code === "INVALID_CREDENTIALS";
    throw error;
  } finally {
    if (!failed) await releaseSignInAttempt(claimed);
  }
}
