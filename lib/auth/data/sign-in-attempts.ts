import "server-only";
import { getDb } from "@/lib/db/client";

// Sign-in attempt counters (and sign-up requests'), one row per key, each in a fixed window that starts at its first
// attempt. An attempt is counted before the password is checked (so concurrent guesses cannot all slip under a limit)
// and given back when it was not a failure.

/** A counter, and the attempts in its window past which it refuses one (null: it counts, and refuses none). */
export type ThrottleKey = { key: string; limit: number | null };

/** Whether the attempt was counted (no key was at its limit), and each key's attempts in its window before it. */
export type ThrottleClaim = { counted: boolean; earlier: Map<string, number> };

/**
 * Counts one attempt against every key unless a key is at its limit in its window, then none (the SQL function
 * claim_sign_in_attempt, atomically).
 */
export async function claimSignInAttempt(keys: ThrottleKey[], windowSeconds: number): Promise<ThrottleClaim> {
  const rows = await getDb()<{ key: string; failures: number; counted: boolean }[]>`
    select key, failures, counted from claim_sign_in_attempt(
      ${keys.map(({ key }) => key)}::text[], ${keys.map(({ limit }) => limit)}::integer[], ${windowSeconds})`;
  return {
    counted: rows.length === keys.length && rows.every((row) => row.counted),
    earlier: new Map(rows.map((row) => [row.key, row.failures])),
  };
}

/**
 * Gives back an attempt claimSignInAttempt counted that was not a failure. The rows are locked in the order the
 * function locks them, so a release and a claim never wait on each other in opposite orders.
 */
export async function releaseSignInAttempt(keys: string[]): Promise<void> {
  await getDb()`
    update sign_in_throttles set failures = failures - 1
    where key in (select key from sign_in_throttles where key in ${getDb()(keys)} order by key for update)
      and failures > 0`;
}
