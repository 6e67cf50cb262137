import type { AddedEntry } from "@/lib/catalogue/service";
import type { PlanName } from "@/lib/core/plans";

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
  /**
   * The processor's hosted customer portal (invoices, payment method, cancellation) for the account; null when the
   * account has never checked out. Absent in test mode.
   */
  customerPortalUrl?(input: { accountId: string; returnUrl: string }): Promise<string | null>;
  /** The account's subscription as the processor last reported it (for the next renewal date). Absent in test mode. */
  getSubscription?(accountId: string): Promise<SubscriptionSummary | null>;
  /** Cancels the account's live subscriptions now, before the account is deleted. Absent in test mode. */
  cancelSubscriptions?(accountId: string): Promise<void>;
}

export type SubscriptionSummary = {
  plan: PlanName | null;
  /** The processor's status: active, trialing, past_due, unpaid, canceled, incomplete, ... */
  status: string;
  /** The end of the current period: the next renewal, or the day a cancelled subscription ends. */
  currentPeriodEnd: Date | null;
  /** True when the subscription ends at currentPeriodEnd instead of renewing. */
  cancelAtPeriodEnd: boolean;
  cancelAt: Date | null;
};

export type TemplatePurchaseInput = {
  accountId: string;
  /** A public catalogue template's id or slug. */
  templateId: string;
  /**
   * Where a hosted checkout sends the user back to, with `checkout=success` or `checkout=cancelled` added to the
   * query. After success the template arrives with the processor's webhook, usually within seconds.
   */
  returnUrl: string;
};

export type PurchaseOutcome = { completed: true; entry: AddedEntry } | { completed: false; redirectUrl: string };

export type PlanChangeInput = { accountId: string; plan: PlanName; returnUrl: string };

export type PlanChangeOutcome = { completed: true; plan: PlanName } | { completed: false; redirectUrl: string };
