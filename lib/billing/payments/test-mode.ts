import "server-only";
import { setAccountPlan } from "@/lib/auth/service";
import { addLibraryEntry } from "@/lib/catalogue/service";
import type { PaymentProcessor } from "@/lib/billing/payments/types";

/**
 * The embedded default's checkout: no card, no money; every purchase completes at once. The library rules (size and
 * monthly purchase limits) are enforced by addLibraryEntry exactly as for a real processor.
 */
export const testModeProcessor: PaymentProcessor = {
  name: "test",
  testMode: true,
  async startTemplatePurchase({ accountId, templateId }) {
    const entry = await addLibraryEntry(accountId, templateId, { processor: "test" });
    return { completed: true, entry };
  },
  async startPlanChange({ accountId, plan }) {
    const account = await setAccountPlan(accountId, plan);
    return { completed: true, plan: account.plan };
  },
};
