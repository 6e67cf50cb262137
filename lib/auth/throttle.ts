import "server-only";
import { createHash } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { AppError } from "@/lib/core/errors";
import { SIGN_IN_LIMITS, SIGN_UP_LIMITS } from "@/lib/core/limits";
import { claimSignInAttempt, releaseSignInAttempt, type ThrottleKey } from "@/lib/auth/data/sign-in-attempts";

// Password guessing is throttled in PostgreSQL, so the limits hold across every instance. A person who mistypes never
// comes near them; a script is stopped after a handful of guesses from one address, on one account or on many. An
// account's failures from every address only slow sign-ins to it down, and never refuse one: anyone who knows an
// address could otherwise lock its owner out, from addresses of their own. The limits are kept for any address typed
// in, registered or not, and their answers are the same, so they reveal nothing. Sign-up requests are limited per
// account and per address, on counters of their own.

export const TOO_MANY_ATTEMPTS_MESSAGE = `Too many sign-in attempts. Wait ${SIGN_IN_LIMITS.windowMinutes} minutes and try again.`;
export const TOO_MANY_SIGN_UPS_MESSAGE = `Too many sign-up requests. Wait ${SIGN_UP_LIMITS.windowMinutes} minutes and try again.`;
export const TOO_MANY_PASSWORD_RESETS_MESSAGE = `Too many password reset requests. Wait ${SIGN_UP_LIMITS.windowMinutes} minutes and try again.`;

const digest = (text: string) => createHash("sha256").update(text).digest("hex");

/**
 * Runs a sign-in attempt for `email` from `ip` unless this address has had too many failures, on this account or in
 * all; past the account's failures from every address, after a wait. An attempt that fails with INVALID_CREDENTIALS
 * counts as a failure; any other outcome is given back.
 */
export async function throttleSignIn<T>(email: string, ip: string | null, attempt: () => Promise<T>): Promise<T> {
  const account = `account:${digest(email.toLowerCase())}`;
  const address = ip ?? "unknown";
  const keys: ThrottleKey[] = [
    { key: account, limit: null },
    {
      key: `account-ip:${digest(`${email.toLowerCase()}\n${address}`)}`,
      limit: SIGN_IN_LIMITS.failuresPerAccountAndAddress,
    },
    { key: `ip:${digest(address)}`, limit: SIGN_IN_LIMITS.failuresPerAddress },
  ];
  const claim = await claimSignInAttempt(keys, SIGN_IN_LIMITS.windowMinutes * 60);
  if (!claim.counted) throw new AppError("TOO_MANY_ATTEMPTS", { message: TOO_MANY_ATTEMPTS_MESSAGE });
  // Before the password is checked, right or wrong alike, so that a guess's answer does not come sooner when wrong.
  if ((claim.earlier.get(account) ?? 0) >= SIGN_IN_LIMITS.failuresPerAccount) {
    await sleep(SIGN_IN_LIMITS.slowdownSeconds * 1000);
  }
  return keptIf(
    keys,
    attempt,
    (thrown) => thrown?.error instanceof AppError && thrown.error.code === "INVALID_CREDENTIALS",
  );
}

/**
 * Runs a sign-up request unless its address typed in or its client address has made too many, counted apart from
 * sign-in's and on every request answered: sign-up checks no password, so it is no way to guess one, but each request
 * mails the address, and the limits bound how much mail anyone can make one address receive. A request that failed is
 * given back.
 */
export function throttleSignUp<T>(email: string, ip: string | null, attempt: () => Promise<T>): Promise<T> {
  return throttleMailedRequest("sign-up", TOO_MANY_SIGN_UPS_MESSAGE, email, ip, attempt);
}

/** throttleSignUp for "Forgot password?" requests, which mail the address too: the same limits, on counters of their own. */
export function throttlePasswordReset<T>(email: string, ip: string | null, attempt: () => Promise<T>): Promise<T> {
  return throttleMailedRequest("password-reset", TOO_MANY_PASSWORD_RESETS_MESSAGE, email, ip, attempt);
}

async function throttleMailedRequest<T>(
  kind: string,
  refusal: string,
  email: string,
  ip: string | null,
  attempt: () => Promise<T>,
): Promise<T> {
  const keys: ThrottleKey[] = [
    { key: `${kind}:account:${digest(email.toLowerCase())}`, limit: SIGN_UP_LIMITS.perAccount },
    { key: `${kind}:ip:${digest(ip ?? "unknown")}`, limit: SIGN_UP_LIMITS.perAddress },
  ];
  const claim = await claimSignInAttempt(keys, SIGN_UP_LIMITS.windowMinutes * 60);
  if (!claim.counted) throw new AppError("TOO_MANY_ATTEMPTS", { message: refusal });
  return keptIf(keys, attempt, (thrown) => thrown === undefined);
}

/** Runs a counted attempt, and gives it back unless `counts` says it stays counted. */
async function keptIf<T>(
  keys: ThrottleKey[],
  attempt: () => Promise<T>,
  /** Whether the attempt stays counted: `thrown` is what it threw, undefined when it succeeded. */
  counts: (thrown: { error: unknown } | undefined) => boolean,
): Promise<T> {
  let thrown: { error: unknown } | undefined;
  try {
    return await attempt();
  } catch (error) {
    thrown = { error };
    throw error;
  } finally {
    if (!counts(thrown)) await releaseSignInAttempt(keys.map(({ key }) => key));
  }
}
