import "server-only";
import { createHash } from "node:crypto";
import { AppError } from "@/lib/errors";
import { SIGN_IN_LIMITS } from "@/lib/limits";
import { claimSignInAttempt, releaseSignInAttempt, type ThrottleKey } from "@/lib/db/sign-in-attempts";

// Password guessing is throttled per account and per client address, in PostgreSQL so the limits hold across every
// instance. A person who mistypes never comes near them; a script is stopped after a handful of guesses. The account
// limit is kept for any address typed in, registered or not, and its answer is the same, so it reveals nothing.
// Sign-up requests are limited the same way, on counters of their own.

export const TOO_MANY_ATTEMPTS_MESSAGE = `Too many sign-in attempts. Wait ${SIGN_IN_LIMITS.windowMinutes} minutes and try again.`;
export const TOO_MANY_SIGN_UPS_MESSAGE = `Too many sign-up requests. Wait ${SIGN_IN_LIMITS.windowMinutes} minutes and try again.`;

const SIGN_IN = { keyPrefix: "", refusal: TOO_MANY_ATTEMPTS_MESSAGE };
const SIGN_UP = { keyPrefix: "sign-up:", refusal: TOO_MANY_SIGN_UPS_MESSAGE };

const digest = (text: string) => createHash("sha256").update(text).digest("hex");

/**
 * Runs a sign-in attempt for `email` from `ip` unless either has had too many failures in the window. An attempt that
 * fails with INVALID_CREDENTIALS counts as a failure; any other outcome is given back.
 */
export function throttleSignIn<T>(email: string, ip: string | null, attempt: () => Promise<T>): Promise<T> {
  return throttled(
    SIGN_IN,
    email,
    ip,
    attempt,
    (thrown) => thrown?.error instanceof AppError && thrown.error.code === "INVALID_CREDENTIALS",
  );
}

/**
 * Runs a sign-up request under the same limits, counted apart from sign-in's and on every request answered: sign-up
 * checks no password, so it is no way to guess one, but each request mails the address, and the limits bound how much
 * mail anyone can make one address receive. A request that failed is given back.
 */
export function throttleSignUp<T>(email: string, ip: string | null, attempt: () => Promise<T>): Promise<T> {
  return throttled(SIGN_UP, email, ip, attempt, (thrown) => thrown === undefined);
}

async function throttled<T>(
  scope: typeof SIGN_IN,
  email: string,
  ip: string | null,
  attempt: () => Promise<T>,
  /** Whether the attempt stays counted: `thrown` is what it threw, undefined when it succeeded. */
  counts: (thrown: { error: unknown } | undefined) => boolean,
): Promise<T> {
  const keys: [ThrottleKey, ThrottleKey] = [
    { key: `${scope.keyPrefix}account:${digest(email.toLowerCase())}`, limit: SIGN_IN_LIMITS.failuresPerAccount },
    { key: `${scope.keyPrefix}ip:${digest(ip ?? "unknown")}`, limit: SIGN_IN_LIMITS.failuresPerAddress },
  ];
  const claimed = await claimSignInAttempt(keys, SIGN_IN_LIMITS.windowMinutes * 60);
  if (claimed.length < keys.length) {
    await releaseSignInAttempt(claimed);
    throw new AppError("TOO_MANY_ATTEMPTS", { message: scope.refusal });
  }
  let thrown: { error: unknown } | undefined;
  try {
    return await attempt();
  } catch (error) {
    thrown = { error };
    throw error;
  } finally {
    if (!counts(thrown)) await releaseSignInAttempt(claimed);
  }
}
