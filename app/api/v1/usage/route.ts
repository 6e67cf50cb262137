import { contract } from "@/lib/api/contract";
import { implement, routeHandlers } from "@/lib/api/route";
import { describeEmailUsage, getEmailCounts } from "@/lib/db/usage";
import { billingPeriod, TEST_EMAILS_PER_DAY, testSendDay } from "@/lib/plans";

// GET /api/v1/usage – API calls and emails this month against the plan's limits
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers({
  GET: implement(contract.getUsage, async ({ caller }) => {
    const { start, reset } = billingPeriod();
    const { emails: emailsSent, testEmailsToday } = await getEmailCounts(caller.accountId, start);
    return {
      success: true,
      usage: {
        limit: caller.quota,
        remaining: caller.quota === null ? null : Math.max(0, caller.quota - caller.used),
        reset: reset.toISOString(),
        plan: caller.plan,
      },
      emails: describeEmailUsage(caller.plan, emailsSent),
      test_emails: {
        daily_limit: TEST_EMAILS_PER_DAY,
        sent_today: testEmailsToday,
        remaining: Math.max(0, TEST_EMAILS_PER_DAY - testEmailsToday),
        reset: testSendDay().reset.toISOString(),
      },
    };
  }),
});
