import type { Metadata } from "next";
import { requireAccount } from "@/lib/auth/current";
import { canUseAdminArea } from "@/lib/teams/rights";
import { AdminNeeded } from "../_components/admin-needed";
import { getPaymentMode, getPaymentProcessor } from "@/lib/billing/payments";
import { formatDate, PLAN_LABEL } from "../../_components/format";
import { PaymentModeNote, PlanCards } from "../../_components/plan-cards";
import { openCustomerPortalAction } from "./actions";
import { PlanButton } from "./plan-button";
import { PageHeader } from "../_components/page-header";

export const metadata: Metadata = { title: "Plan & billing" };

const NOTICES: Record<string, { tone: string; text: string }> = {
  success: {
    tone: "alert-success",
    text: "Thanks! Your payment went through. The new plan applies as soon as the payment provider confirms it, usually within seconds.",
  },
  cancelled: { tone: "alert-info", text: "Checkout cancelled. Nothing was charged and your plan is unchanged." },
  portal: {
    tone: "alert-info",
    text: "Your changes in the billing portal are on their way; they show here once the payment provider confirms them.",
  },
};

export default async function BillingPage({
  searchParams,
}: {
  searchParams: Promise<{ checkout?: string; portal?: string }>;
}) {
  const account = await requireAccount("/dashboard/billing");
  if (!canUseAdminArea(account.role)) return <AdminNeeded title="Plan & billing" area="billing" />;
  const params = await searchParams;
  const processor = getPaymentProcessor();
  const paymentMode = getPaymentMode();
  const subscription = processor?.getSubscription
    ? await processor.getSubscription(account.id).catch(() => null)
    : null;
  const notice = params.checkout ? NOTICES[params.checkout] : undefined;

  return (
    <>
      <PageHeader
        title="Plan & billing"
        intro={
          <>
            You are on the <strong>{PLAN_LABEL[account.plan]}</strong> plan. Limits apply per calendar month (UTC).
            {subscription?.currentPeriodEnd && (
              <>
                {" "}
                {subscription.cancelAtPeriodEnd ? "Ends" : "Renews"} {formatDate(subscription.currentPeriodEnd)}.
              </>
            )}
          </>
        }
        actions={
          <>
            {(paymentMode === "test" || paymentMode === "stripe_test") && (
              <span className="badge badge-warning">Test-mode payments</span>
            )}
            {processor?.customerPortalUrl && account.plan !== "free" && (
              <form action={openCustomerPortalAction}>
                <button type="submit" className="btn btn-secondary">
                  Invoices & payment method
                </button>
              </form>
            )}
          </>
        }
      />
      <div className="stack">
        {notice && (
          <div className={`alert ${notice.tone}`} role="status">
            <p>{notice.text}</p>
          </div>
        )}
        {params.portal === "unavailable" && (
          <div className="alert alert-warning" role="status">
            <p>The billing portal is not available right now. Please try again in a moment.</p>
          </div>
        )}
        {subscription && subscription.status !== "active" && subscription.status !== "trialing" && (
          <div className="alert alert-warning" role="status">
            <p>
              Your subscription is <strong>{subscription.status.replace(/_/g, " ")}</strong>. Update your payment method
              to keep your plan.
            </p>
          </div>
        )}
        <PaymentModeNote mode={paymentMode} />
        {!processor && (
          <div className="alert alert-info">
            <p>Plan changes are not available on this deployment yet.</p>
          </div>
        )}
        <PlanCards
          current={account.plan}
          action={(plan) =>
            plan === account.plan ? (
              <button type="button" className="btn btn-secondary btn-block" disabled>
                Your current plan
              </button>
            ) : processor ? (
              <PlanButton
                plan={plan}
                primary={plan !== "free"}
                label={plan === "free" ? "Downgrade to Free" : `Switch to ${PLAN_LABEL[plan]}`}
              />
            ) : null
          }
        />
      </div>
    </>
  );
}
