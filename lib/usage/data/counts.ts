import "server-only";
import { getDb } from "@/lib/db/client";

export async function getEmailsSent(accountId: string, periodStart: Date): Promise<number> {
  const [row] = await getDb()<{ count: number }[]>`
    select count from usage_counters where account_id = ${accountId} and metric = 'emails' and period_start = ${periodStart}`;
  return row?.count ?? 0;
}

/** Test keys' sends today (UTC): they count against their own daily limit, never toward the month's emails. */
export async function getTestEmailsSentToday(accountId: string): Promise<number> {
  const [row] = await getDb()<{ count: number }[]>`
    select count from usage_daily
    where account_id = ${accountId} and metric = 'test_emails' and day = (now() at time zone 'utc')::date`;
  return row?.count ?? 0;
}

/** The month's emails and today's test sends, in one statement (GET /usage). */
export async function getEmailCounts(
  accountId: string,
  periodStart: Date,
): Promise<{ emails: number; testEmailsToday: number }> {
  const [row] = await getDb()<{ emails: number; testEmailsToday: number }[]>`
    select coalesce((select count from usage_counters
                     where account_id = ${accountId} and metric = 'emails' and period_start = ${periodStart}), 0) as emails,
           coalesce((select count from usage_daily
                     where account_id = ${accountId} and metric = 'test_emails'
                       and day = (now() at time zone 'utc')::date), 0) as "testEmailsToday"`;
  return row;
}

export type DailyUsage = { day: string; api_calls: number; emails: number };

/** Per-day counts since `since` (inclusive), for the dashboard's charts. */
export async function listDailyUsage(accountId: string, since: Date): Promise<DailyUsage[]> {
  return getDb()<DailyUsage[]>`
    select to_char(day, 'YYYY-MM-DD') as day,
           coalesce(sum(count) filter (where metric = 'api_calls'), 0)::int as api_calls,
           coalesce(sum(count) filter (where metric = 'emails'), 0)::int as emails
    from usage_daily where account_id = ${accountId} and day >= ${since}
    group by day order by day`;
}
