import "server-only";
import { getDb } from "@/lib/db/client";

// Failed sign-in counters, one row per key, each in a fixed window that starts at its first failure. An attempt is
// counted before the password is checked (so concurrent guesses cannot all slip under the limit) and given back when
// it was not a failure.

export type ThrottleKey = { key: string; limit: number };

/**
 * Counts one attempt against every key unless a key is at its limit in its window; answers the keys it counted (all of
 * them when the attempt may go ahead). A few rows whose window has passed are dropped in the same statement, so the
 * table stays as small as the attempts of one window.
 */
export async function claimSignInAttempt(keys: [ThrottleKey, ThrottleKey], windowSeconds: number): Promise<string[]> {
  const [first, second] = keys;
  const rows = await getDb()<{ key: string }[]>`
    with stale as (
      delete from sign_in_throttles where key in (
        select key from sign_in_throttles
        where window_start <= now() - ${windowSeconds} * interval '1 second' and key not in (${first.key}, ${second.key})
        order by window_start limit 20 for update skip locked)
    )
    insert into sign_in_throttles as t (key, window_start, failures)
    values (${first.key}, now(), 1), (${second.key}, now(), 1)
    on conflict (key) do update set
      window_start = case when t.window_start <= now() - ${windowSeconds} * interval '1 second' then now() else t.window_start end,
      failures = case when t.window_start <= now() - ${windowSeconds} * interval '1 second' then 1 else t.failures + 1 end
    where t.window_start <= now() - ${windowSeconds} * interval '1 second'
       or t.failures < case when t.key = ${first.key} then ${first.limit}::int else ${second.limit}::int end
    returning t.key`;
  return rows.map((row) => row.key);
}

/** Gives back attempts counted by claimSignInAttempt that were not failures (or were refused). */
export async function releaseSignInAttempt(keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await getDb()`update sign_in_throttles set failures = failures - 1 where key in ${getDb()(keys)} and failures > 0`;
}
