import "server-only";
import { getDb } from "@/lib/db/client";

export type RateLimitHit = { bucket: string; hits: number; retryAfterSeconds: number };

/**
 * Counts one hit in each bucket's current fixed window of `windowSeconds`, atomically in the database (so a limit holds
 * across every instance), and returns each bucket's hits in that window, this one included, with the seconds until the
 * window ends. Deciding what is over which limit is the caller's.
 */
export async function recordRateLimitHits(buckets: string[], windowSeconds: number): Promise<RateLimitHit[]> {
  return getDb()<RateLimitHit[]>`
    select bucket, hits, retry_after_seconds as "retryAfterSeconds" from hit_rate_limits(${buckets}::text[], ${windowSeconds})`;
}
