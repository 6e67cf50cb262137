// Every plan rule lives in this table; the database receives the limits from here, so changing a plan is one edit.
export const PLAN_NAMES = ["free", "monthly", "annual"] as const;
export type PlanName = (typeof PLAN_NAMES)[number];

export type Plan = {
  /** API calls per calendar month (UTC); null is unlimited. */
  apiCallsPerMonth: number | null;
  emailsPerMonth: number;
  /** Paid plans keep sending past emailsPerMonth and are billed for the overage; free is refused. */
  emailOverage: boolean;
  /** Templates in the library; null is unlimited. */
  librarySize: number | null;
  /** Paid template purchases per calendar month; null is unlimited. */
  paidPurchasesPerMonth: number | null;
};

export const PLANS: Record<PlanName, Plan> = {
  free: { apiCallsPerMonth: 500, emailsPerMonth: 100, emailOverage: false, librarySize: 10, paidPurchasesPerMonth: 1 },
  monthly: {
    apiCallsPerMonth: null,
    emailsPerMonth: 10_000,
    emailOverage: true,
    librarySize: null,
    paidPurchasesPerMonth: null,
  },
  annual: {
    apiCallsPerMonth: null,
    emailsPerMonth: 50_000,
    emailOverage: true,
    librarySize: null,
    paidPurchasesPerMonth: null,
  },
};

export function isPlanName(value: unknown): value is PlanName {
  return typeof value === "string" && (PLAN_NAMES as readonly string[]).includes(value);
}

export const API_CALL_LIMITS: Record<PlanName, number | null> = Object.fromEntries(
  PLAN_NAMES.map((name) => [name, PLANS[name].apiCallsPerMonth]),
) as Record<PlanName, number | null>;

/** The metering period containing `now`: calendar months in UTC. */
export function billingPeriod(now: Date = new Date()): { start: Date; reset: Date } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const reset = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { start, reset };
}
