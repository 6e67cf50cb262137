import { PLANS, PLAN_NAMES, type PlanName } from "@/lib/plans";
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
  ];
}

/** The three plans side by side; `action` renders the button of each card (or nothing). */
export function PlanCards({ current, action }: { current?: PlanName; action?: (plan: PlanName) => React.ReactNode }) {
  return (
    <div className="plans">
      {PLAN_NAMES.map((name) => (
        <div key={name} className={`card plan${current === name ? " is-current" : ""}`}>
          <div className="row-between">
            <h3>{PLAN_LABEL[name]}</h3>
            {current === name && <span className="badge badge-accent">Current plan</span>}
          </div>
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
