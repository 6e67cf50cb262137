import { methodNotAllowed, withApiAuth } from "@/lib/api/with-api-auth";
import { describeEmailUsage, getEmailCounts } from "@/lib/db/usage";
import { billingPeriod, TEST_EMAILS_PER_DAY, testSendDay } from "@/lib/plans";
import { usageResponseSchema } from "@/lib/schemas/usage";

// GET /api/v1/usage – API calls and emails this month against the plan's limits
export const GET = withApiAuth(
  {
    metered: false,
    sendingAccess: true,
    openapi: {
      operationId: "getUsage",
      summary: "API calls and emails this month against your plan's limits",
      responses: { 200: { description: "Current usage", schema: usageResponseSchema } },
    },
  },
  async ({ caller }) => {
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
  },
);

const otherMethods = methodNotAllowed(["GET", "HEAD"]);
export {
  otherMethods as POST,
  otherMethods as PUT,
  otherMethods as PATCH,
  otherMethods as DELETE,
  otherMethods as OPTIONS,
};
