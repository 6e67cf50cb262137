import "server-only";
import { getEmailCounts, getEmailsSent, getTestEmailsSentToday, listDailyUsage } from "@/lib/usage/data/counts";
import { authenticateAndMeter } from "@/lib/usage/data/metering";
import { billingPeriod, PLANS, TEST_EMAILS_PER_DAY, testSendDay, type PlanName } from "@/lib/core/plans";

// The counts a send checks its limits against and the dashboard shows, and the dashboard's previews' metering, as
// stored: passed through.
export { authenticateAndMeter, getEmailCounts, getEmailsSent, getTestEmailsSentToday, listDailyUsage };
export type { DailyUsage } from "@/lib/usage/data/counts";
export type { MeteredCaller } from "@/lib/usage/data/metering";

export type EmailUsage = {
  monthly_limit: number;
  current_usage: number;
  remaining: number;
  is_overage: boolean;
  overage_emails: number;
};

/** The month's emails against the plan's limit, as GET /usage and a send's answer describe them. */
export function toEmailUsageResponse(plan: PlanName, sent: number): EmailUsage {
  const limit = PLANS[plan].emailsPerMonth;
  return {
    monthly_limit: limit,
    current_usage: sent,
    remaining: Math.max(0, limit - sent),
    is_overage: PLANS[plan].emailOverage && sent > limit,
    overage_emails: PLANS[plan].emailOverage ? Math.max(0, sent - limit) : 0,
  };
}

/**
 * GET /usage: the month's API calls (as the caller's credential check counted them) and emails against the plan's
 * limits, and today's test sends against theirs.
 */
export async function usageReport(caller: { accountId: string; plan: PlanName; quota: number | null; used: number }) {
  const { start, reset } = billingPeriod();
  const { emails: emailsSent, testEmailsToday } = await getEmailCounts(caller.accountId, start);
  return {
    usage: {
      limit: caller.quota,
      remaining: caller.quota === null ? null : Math.max(0, caller.quota - caller.used),
      reset: reset.toISOString(),
      plan: caller.plan,
    },
    emails: toEmailUsageResponse(caller.plan, emailsSent),
    test_emails: {
      daily_limit: TEST_EMAILS_PER_DAY,
      sent_today: testEmailsToday,
      remaining: Math.max(0, TEST_EMAILS_PER_DAY - testEmailsToday),
      reset: testSendDay().reset.toISOString(),
    },
  };
}
