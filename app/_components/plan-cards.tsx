import type { PaymentMode } from "@/lib/billing/payments";
import { formatPlanPrice, PLANS, PLAN_NAMES, type PlanName } from "@/lib/core/plans";
import { PLAN_LABEL, formatNumber } from "./format";

const TAGLINE: Record<PlanName, string> = {
  free: "For trying things out and side projects.",
  monthly: "For products sending every day.",
  annual: "For teams with volume, billed yearly.",
};

export function planFeatures(name: PlanName): string[] {
  const plan = PLANS[name];
  return [
    plan.apiCallsPerMonth === null ? "Unlimited API calls" : `${formatNumber(plan.apiCallsPerMonth)} API calls a month`,
    `${formatNumber(plan.emailsPerMonth)} emails a month${plan.emailOverage ? ", then pay-as-you-go overage" : ""}`,
    plan.librarySize === null ? "Unlimited template library" : `Up to ${plan.librarySize} templates in your library`,
    plan.paidPurchasesPerMonth === null
      ? "Unlimited premium template purchases"
      : `${plan.paidPurchasesPerMonth} premium template purchase a month`,
    plan.seats === null ? "Unlimited team members" : `Up to ${plan.seats} people in your team`,
  ];
}

/** The free plan's monthly allowance, for the pages that invite a sign-up. */
export function freeAllowance(): string {
  const { apiCallsPerMonth, emailsPerMonth } = PLANS.free;
  const calls = apiCallsPerMonth === null ? "unlimited API calls" : `${formatNumber(apiCallsPerMonth)} API calls`;
  return `${calls} and ${formatNumber(emailsPerMonth)} emails a month`;
}

const PAYMENT_MODE_NOTE: Record<PaymentMode, string | null> = {
  live: null,
  stripe_test:
    "Test mode: payments go through Stripe's test mode, so checkout takes only test cards and nothing is charged.",
  test: "Test mode: switching plans takes effect at once and nothing is charged.",
  // Plan & billing says in its own words that plans cannot be changed here.
  unavailable: null,
};

/** Next to the prices: whether paying for a plan on this deployment moves any money. */
export function PaymentModeNote({ mode }: { mode: PaymentMode }) {
  const note = PAYMENT_MODE_NOTE[mode];
  return note ? (
    <div className="alert alert-info">
      <p>{note}</p>
    </div>
  ) : null;
}

/** The three plans side by side; `action` renders the button of each card (or nothing). */
export function PlanCards({ current, action }: { current?: PlanName; action?: (plan: PlanName) => React.ReactNode }) {
  return (
    <div className="plans">
      {PLAN_NAMES.map((name) => (
        <div key={name} className={`card plan${current === name ? " is-current" : ""}`} data-testid="plan-card">
          <div className="row-between">
            <h3>{PLAN_LABEL[name]}</h3>
            {current === name && <span className="badge badge-accent">Current plan</span>}
          </div>
          <p className="plan-price" style={{ margin: 0 }}>
            {formatPlanPrice(PLANS[name].price)}
          </p>
          <p className="muted small" style={{ margin: 0 }}>
            {TAGLINE[name]}
          </p>
          <ul>
            {planFeatures(name).map((feature) => (
              <li key={feature}>{feature}</li>
            ))}
          </ul>
          <div className="spacer" />
          {action?.(name)}
        </div>
      ))}
    </div>
  );
}
