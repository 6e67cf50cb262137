import "server-only";
import { getConfig } from "@/lib/core/config";
import { findOnboardingState, type OnboardingState } from "@/lib/auth/service";
import { listApiKeys, listApiKeysWithCreator, type ApiKeyRecord } from "@/lib/api-keys/account-keys";
import { countLibraryAndPurchases } from "@/lib/catalogue/library";
import { billingPeriod, PLANS, type PlanName } from "@/lib/core/plans";
import {
  authenticateAndMeter,
  toEmailUsageResponse,
  getEmailCounts,
  listDailyUsage,
  type DailyUsage,
} from "@/lib/usage/service";

// Read models for dashboard pages that the API has no endpoint for. Everything the API does serve (library, usage,
// render, send, source, emails) goes through the same lib/ functions the API handlers use.

// The API keys page: the account's keys, revoked and expired ones included (the API has no endpoint for keys).
export { listApiKeys, listApiKeysWithCreator, type ApiKeyRecord };

export type LibraryAllowance = {
  plan: PlanName;
  librarySize: number;
  libraryLimit: number | null;
  purchasesThisMonth: number;
  purchaseLimit: number | null;
  libraryFull: boolean;
  purchasesExhausted: boolean;
};

/** Where the account stands against its plan's library-size and monthly-purchase limits. */
export async function libraryAllowance(accountId: string, plan: PlanName): Promise<LibraryAllowance> {
  const row = await countLibraryAndPurchases(accountId, billingPeriod().start);
  const libraryLimit = PLANS[plan].librarySize;
  const purchaseLimit = PLANS[plan].paidPurchasesPerMonth;
  return {
    plan,
    librarySize: row.library,
    libraryLimit,
    purchasesThisMonth: row.purchases,
    purchaseLimit,
    libraryFull: libraryLimit !== null && row.library >= libraryLimit,
    purchasesExhausted: purchaseLimit !== null && row.purchases >= purchaseLimit,
  };
}

export type UsageSummary = {
  plan: PlanName;
  apiCalls: { used: number; limit: number | null; remaining: number | null };
  emails: ReturnType<typeof toEmailUsageResponse> & { overageAllowed: boolean };
  /** Test sends today (UTC), with test keys and from the dashboard, as counted against their daily limit. */
  testEmailsToday: number;
  periodStart: Date;
  reset: Date;
  daily: DailyUsage[];
};

/** This month's usage, as GET /api/v1/usage reports it, plus the last `days` days for the charts. */
export async function usageSummary(accountId: string, days = 30): Promise<UsageSummary> {
  const { start, reset } = billingPeriod();
  const caller = await authenticateAndMeter(
    { kind: "account", accountId },
    { metered: false, sendingAccess: false },
    start,
  );
  if (!caller) throw new Error(`No account ${accountId}`);
  const since = new Date(
    Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() - (days - 1)),
  );
  const [{ emails: emailsSent, testEmailsToday }, daily] = await Promise.all([
    getEmailCounts(accountId, start),
    listDailyUsage(accountId, since),
  ]);
  return {
    plan: caller.plan,
    apiCalls: {
      used: caller.used,
      limit: caller.quota,
      remaining: caller.quota === null ? null : Math.max(0, caller.quota - caller.used),
    },
    emails: { ...toEmailUsageResponse(caller.plan, emailsSent), overageAllowed: PLANS[caller.plan].emailOverage },
    testEmailsToday,
    periodStart: start,
    reset,
    daily: fillDays(daily, since, days),
  };
}

function fillDays(rows: DailyUsage[], since: Date, days: number): DailyUsage[] {
  const byDay = new Map(rows.map((row) => [row.day, row]));
  return Array.from({ length: days }, (_, index) => {
    const day = new Date(since.getTime() + index * 86_400_000).toISOString().slice(0, 10);
    return byDay.get(day) ?? { day, api_calls: 0, emails: 0 };
  });
}

export async function onboardingState(accountId: string): Promise<OnboardingState> {
  // With Resend only its verification lets a domain send (isVerifiedForSending), so only it completes the step.
  return findOnboardingState(accountId, { resendConfigured: getConfig().resend !== null });
}
