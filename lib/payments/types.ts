import type { AddedEntry } from "@/lib/db/library";
import type { PlanName } from "@/lib/plans";

/**
 * A payment processor for buying paid catalogue templates (and changing plans). A processor either settles at once
 * (test mode) and the template is in the library when the call returns, or sends the user to a hosted checkout; it
 * then completes the purchase from its webhook with `addLibraryEntry(accountId, templateId, { processor, processorRef })`.
 */
export interface PaymentProcessor {
  /** Recorded on purchases (`purchases.processor`). */
  readonly name: string;
  /** True when no money moves: the dashboard says so next to every price. */
  readonly testMode: boolean;
  startTemplatePurchase(input: TemplatePurchaseInput): Promise<PurchaseOutcome>;
  startPlanChange(input: PlanChangeInput): Promise<PlanChangeOutcome>;
}

export type TemplatePurchaseInput = {
  accountId: string;
  /** A public catalogue template's id or slug. */
  templateId: string;
  /** Where a hosted checkout sends the user back to. */
  returnUrl: string;
};

export type PurchaseOutcome = { completed: true; entry: AddedEntry } | { completed: false; redirectUrl: string };

export type PlanChangeInput = { accountId: string; plan: PlanName; returnUrl: string };

export type PlanChangeOutcome = { completed: true; plan: PlanName } | { completed: false; redirectUrl: string };
