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
  /** People in the team: members plus pending invitations (checked in SQL by create_invitation); null is unlimited. */
  seats: number | null;
  /**
   * What the plan costs, in US cents each `per`. The pages that show prices read it from here; a paid plan's Stripe
   * price (STRIPE_PRICE_MONTHLY, STRIPE_PRICE_ANNUAL) is created at the same amount (docs/payments.md).
   */
  price: { usdCents: number; per: "month" | "year" };
};

export const PLANS: Record<PlanName, Plan> = {
  free: {
    apiCallsPerMonth: 500,
    emailsPerMonth: 100,
    emailOverage: false,
    librarySize: 10,
    paidPurchasesPerMonth: 1,
    seats: 3,
    price: { usdCents: 0, per: "month" },
  },
  monthly: {
    apiCallsPerMonth: null,
    emailsPerMonth: 10_000,
    emailOverage: true,
    librarySize: null,
    paidPurchasesPerMonth: null,
    seats: 20,
    price: { usdCents: 19_00, per: "month" },
  },
  annual: {
    apiCallsPerMonth: null,
    emailsPerMonth: 50_000,
    emailOverage: true,
    librarySize: null,
    paidPurchasesPerMonth: null,
    seats: null,
    price: { usdCents: 190_00, per: "year" },
  },
};

export function isPlanName(value: unknown): value is PlanName {
  return typeof value === "string" && (PLAN_NAMES as readonly string[]).includes(value);
}

/** A plan's price as the pricing pages show it: "$19 a month", "$190 a year", "$12.50 a month". */
export function formatPlanPrice({ usdCents, per }: Plan["price"]): string {
  const dollars = new Intl.NumberFormat("en-US", {
    style: "currency",
    currency: "USD",
    // Whole dollars read better without ".00"; a price with cents shows them.
    minimumFractionDigits: usdCents % 100 === 0 ? 0 : 2,
  }).format(usdCents / 100);
  return `${dollars} a ${per}`;
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

/**
 * Emails a test key (lp_test_) may send per account each UTC day, whatever the plan. Test sends stay in the outbox and
 * never count toward emailsPerMonth; this keeps a test key from becoming a free way to fill the database.
 */
export const TEST_EMAILS_PER_DAY = 100;

/** The UTC day containing `now`, over which test sends are counted: its first instant and the next day's. */
export function testSendDay(now: Date = new Date()): { start: Date; reset: Date } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const reset = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
  return { start, reset };
}
