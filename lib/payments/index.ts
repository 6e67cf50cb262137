import "server-only";
import { getConfig } from "@/lib/config";
import { testModeProcessor } from "@/lib/payments/test-mode";
import type { PaymentProcessor } from "@/lib/payments/types";

export type { PaymentProcessor, PurchaseOutcome, PlanChangeOutcome } from "@/lib/payments/types";

/**
 * The configured payment processor, or null when purchases are unavailable. Local development (the embedded default)
 * uses the test-mode processor. A deployment (Vercel) gets it only when PAYMENTS_TEST_MODE=1 is set explicitly, so a
 * production site never gives paid templates away by accident. A real processor (Stripe) plugs in here.
 */
export function getPaymentProcessor(): PaymentProcessor | null {
  if (!getConfig().onVercel || process.env.PAYMENTS_TEST_MODE === "1") return testModeProcessor;
  return null;
}
