import "server-only";
import { getConfig } from "@/lib/core/config";
import { reportOverageNow, stripeProcessor } from "@/lib/billing/payments/stripe";
import { testModeProcessor } from "@/lib/billing/payments/test-mode";
import type { PaymentProcessor } from "@/lib/billing/payments/types";

export type {
  PaymentProcessor,
  PurchaseOutcome,
  PlanChangeOutcome,
  SubscriptionSummary,
} from "@/lib/billing/payments/types";

/**
 * The configured payment processor, or null when purchases and plan changes are unavailable (every caller refuses
 * them then). Stripe when STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are set (lib/core/config.ts checks the rest of
 * its settings). The test-mode processor, which charges nothing, only when asked for: PAYMENTS_TEST_MODE=1 or
 * `npm run dev`; whatever the host, a production server without Stripe never gives paid plans or templates away.
 */
export function getPaymentProcessor(): PaymentProcessor | null {
  const config = getConfig();
  if (config.stripe) return stripeProcessor;
  return config.paymentsTestMode ? testModeProcessor : null;
}

/**
 * How payments run on this deployment, for the pages that show prices: real charges (`live`), Stripe with test-mode
 * keys, where checkout takes only Stripe's test cards (`stripe_test`), the built-in test-mode processor that switches
 * plans for free (`test`), or no processor at all (`unavailable`).
 */
export type PaymentMode = "live" | "stripe_test" | "test" | "unavailable";

export function getPaymentMode(): PaymentMode {
  const config = getConfig();
  if (config.stripe) return /^(sk|rk)_test_/.test(config.stripe.secretKey) ? "stripe_test" : "live";
  return config.paymentsTestMode ? "test" : "unavailable";
}

/**
 * After an email sent in overage: reports it to the payment processor's usage billing and says whether the processor
 * acknowledged it (`billing_usage_reported`). Never throws: an unacknowledged email stays in the ledger and is
 * reported later (the cron job, or the next overage send). Always false without a processor that bills usage.
 */
export async function reportOverageEmail(emailId: string): Promise<boolean> {
  if (!getConfig().stripe) return false;
  try {
    return await reportOverageNow(emailId);
  } catch (error) {
    console.error(
      JSON.stringify({
        level: "error",
        message: "overage reporting failed",
        emailId,
        error: error instanceof Error ? error.message : String(error),
      }),
    );
    return false;
  }
}
