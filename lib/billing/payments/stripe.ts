import "server-only";
import { randomUUID } from "node:crypto";
import Stripe from "stripe";
import { throttledInBackground } from "@/lib/core/background";
import { getConfig, type StripeSettings } from "@/lib/core/config";
import { setAccountPlan } from "@/lib/auth/service";
import {
  applyLapsedSubscriptions,
  applySubscriptionEvent,
  findSubscription,
  liveSubscriptionIds,
  isLiveSubscription,
  type SubscriptionState,
} from "@/lib/billing/data/subscriptions";
import {
  attachCheckout,
  closeCheckoutPurchase,
  completeCheckoutPurchase,
  failPendingPurchase,
  reserveTemplatePurchase,
  revokePurchase,
} from "@/lib/billing/data/purchases";
import {
  claimUnreportedOverage,
  isOverageReported,
  markOverageReported,
  markOverageReportFailed,
  type OverageClaim,
} from "@/lib/billing/data/overage";
import { findAccountEmail, findCustomerId, linkCheckoutCustomer, saveCustomerId } from "@/lib/billing/data/customers";
import { processWebhookEventOnce } from "@/lib/billing/data/webhook-events";
import type { Tx } from "@/lib/db/client";
import { addLibraryEntry } from "@/lib/catalogue/service";
import { isUuid } from "@/lib/core/schemas";
import type { PlanName } from "@/lib/core/plans";
import { AppError, errors } from "@/lib/core/errors";
import type { PaymentProcessor } from "@/lib/billing/payments/types";

// Stripe behind the PaymentProcessor interface. Purchases and plan changes go through hosted Checkout; their effects
// (a template in the library, a plan) happen only when the signed webhook says the payment went through
// (app/api/webhooks/stripe). Overage emails are reported as billing meter events from the durable ledger.

const NAME = "stripe";
/** Template checkouts stay open this long (Stripe accepts 30 minutes to 24 hours); the pending purchase counts meanwhile. */
const TEMPLATE_CHECKOUT_TTL_MS = 60 * 60_000;
/** Meter event timestamps must lie within Stripe's last 35 days; an older unreported row is reported as of this age. */
const MAX_METER_EVENT_AGE_MS = 34 * 24 * 3600_000;

// ---------------------------------------------------------------------------------------------------------------
// Client

let cached: { settings: StripeSettings; client: Stripe } | undefined;

/** The SDK client for the configured account. */
export function getStripe(): Stripe {
  const settings = getConfig().stripe;
  if (!settings) throw new Error("Stripe is not configured (STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET)");
  if (cached?.settings !== settings) {
    cached = {
      settings,
      client: new Stripe(settings.secretKey, {
        maxNetworkRetries: 1,
        timeout: 15_000,
        telemetry: false,
        appInfo: { name: "Letterpress" },
      }),
    };
  }
  return cached.client;
}

function settingsOrThrow(): StripeSettings {
  const settings = getConfig().stripe;
  if (!settings) throw new Error("Stripe is not configured");
  return settings;
}

function describe(error: unknown): string {
  if (error instanceof Stripe.errors.StripeError) {
    return `${error.type}${error.statusCode ? ` ${error.statusCode}` : ""}: ${error.message}`;
  }
  return error instanceof Error ? error.message : String(error);
}

function log(level: "error" | "warn" | "info", message: string, fields: Record<string, unknown> = {}): void {
  console[level === "info" ? "log" : level](JSON.stringify({ level, message, ...fields }));
}

/** Appends `key=value` to a URL kept verbatim otherwise (Stripe's `{CHECKOUT_SESSION_ID}` must not be encoded). */
function withQuery(url: string, query: string): string {
  const [base, hash] = url.split("#", 2);
  return `${base}${base.includes("?") ? "&" : "?"}${query}${hash !== undefined ? `#${hash}` : ""}`;
}

/** Price strings ("19.00") in minor units, without floating-point surprises. */
export function toMinorUnits(price: string): number {
  const [whole, fraction = ""] = price.trim().split(".");
  return Number(whole) * 100 + Number((fraction + "00").slice(0, 2));
}

// ---------------------------------------------------------------------------------------------------------------
// Customers

/** The account's Stripe customer, created on its first checkout (idempotent per account). */
export async function ensureCustomer(accountId: string): Promise<string> {
  const existing = await findCustomerId(accountId);
  if (existing) return existing;
  const email = await findAccountEmail(accountId);
  const customer = await getStripe().customers.create(
    { ...(email ? { email } : {}), metadata: { account_id: accountId } },
    { idempotencyKey: `letterpress-customer-${accountId}` },
  );
  return saveCustomerId(accountId, customer.id);
}

// ---------------------------------------------------------------------------------------------------------------
// The processor

export const stripeProcessor: PaymentProcessor = {
  name: NAME,
  testMode: false,

  async startTemplatePurchase({ accountId, templateId, returnUrl }) {
    const reservation = await reserveTemplatePurchase(accountId, templateId);
    if (reservation.kind === "free") {
      return {
        completed: true,
        entry: await addLibraryEntry(accountId, reservation.template.id, { processor: "none" }),
      };
    }
    if (reservation.kind === "open") return { completed: false, redirectUrl: reservation.checkoutUrl };

    const { purchaseId, template } = reservation;
    try {
      const customer = await ensureCustomer(accountId);
      const metadata = {
        kind: "template_purchase",
        account_id: accountId,
        template_id: template.id,
        purchase_id: purchaseId,
      };
      const session = await getStripe().checkout.sessions.create(
        {
          mode: "payment",
          customer,
          client_reference_id: purchaseId,
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: "usd",
                unit_amount: toMinorUnits(template.price),
                product_data: { name: template.name, metadata: { template_id: template.id } },
              },
            },
          ],
          metadata,
          payment_intent_data: { metadata },
          success_url: withQuery(returnUrl, "checkout=success"),
          cancel_url: withQuery(returnUrl, "checkout=cancelled"),
          // From the purchase's creation, so a resumed attempt sends identical parameters under the same key.
          expires_at: Math.floor((reservation.createdAt.getTime() + TEMPLATE_CHECKOUT_TTL_MS) / 1000),
        },
        { idempotencyKey: `letterpress-template-checkout-${purchaseId}` },
      );
      if (!session.url) throw new Error(`checkout session ${session.id} has no url`);
      await attachCheckout(purchaseId, {
        sessionId: session.id,
        url: session.url,
        expiresAt: new Date((session.expires_at ?? 0) * 1000),
      });
      return { completed: false, redirectUrl: session.url };
    } catch (error) {
      await failPendingPurchase(purchaseId).catch(() => {});
      log("error", "stripe: template checkout failed", {
        accountId,
        templateId: template.id,
        purchaseId,
        error: describe(error),
      });
      throw new AppError("PAYMENT_PROCESSOR_ERROR", {
        message: "The payment provider could not start the checkout. Nothing was charged; please try again.",
        cause: error,
      });
    }
  },

  async startPlanChange({ accountId, plan, returnUrl }) {
    const settings = settingsOrThrow();
    const subscription = await findSubscription(accountId);
    try {
      if (isLiveSubscription(subscription)) {
        // Changing or cancelling a running subscription happens in Stripe's portal, which prorates and confirms.
        const customer = await findCustomerId(accountId);
        if (!customer) throw new Error("subscription without a customer");
        const afterCompletion = {
          type: "redirect" as const,
          redirect: { return_url: withQuery(returnUrl, "checkout=portal") },
        };
        const flow =
          plan === "free"
            ? {
                type: "subscription_cancel" as const,
                subscription_cancel: { subscription: subscription.subscriptionId },
                after_completion: afterCompletion,
              }
            : subscription.plan === plan
              ? undefined
              : subscription.planItemId
                ? {
                    type: "subscription_update_confirm" as const,
                    subscription_update_confirm: {
                      subscription: subscription.subscriptionId,
                      items: [{ id: subscription.planItemId, price: settings.prices[plan], quantity: 1 }],
                    },
                    after_completion: afterCompletion,
                  }
                : {
                    type: "subscription_update" as const,
                    subscription_update: { subscription: subscription.subscriptionId },
                    after_completion: afterCompletion,
                  };
        const portal = await getStripe().billingPortal.sessions.create({
          customer,
          return_url: returnUrl,
          ...(flow ? { flow_data: flow } : {}),
        });
        return { completed: false, redirectUrl: portal.url };
      }
      if (plan === "free") {
        // No subscription to cancel (the plan was granted some other way): nothing is billed, switch at once.
        return { completed: true, plan: (await setAccountPlan(accountId, "free")).plan };
      }
      const customer = await ensureCustomer(accountId);
      const metadata = { kind: "plan", account_id: accountId, plan };
      const session = await getStripe().checkout.sessions.create(
        {
          mode: "subscription",
          customer,
          client_reference_id: accountId,
          line_items: [
            { price: settings.prices[plan], quantity: 1 },
            // Metered: no quantity; the overage meter's events are billed through it.
            ...(settings.overagePrice ? [{ price: settings.overagePrice }] : []),
          ],
          metadata,
          subscription_data: { metadata },
          success_url: withQuery(returnUrl, "checkout=success"),
          cancel_url: withQuery(returnUrl, "checkout=cancelled"),
        },
        { idempotencyKey: `letterpress-plan-checkout-${accountId}-${randomUUID()}` },
      );
      if (!session.url) throw new Error(`checkout session ${session.id} has no url`);
      return { completed: false, redirectUrl: session.url };
    } catch (error) {
      log("error", "stripe: plan change failed", { accountId, plan, error: describe(error) });
      throw new AppError("PAYMENT_PROCESSOR_ERROR", {
        message: "The payment provider could not start the plan change. Nothing was charged; please try again.",
        cause: error,
      });
    }
  },

  async customerPortalUrl({ accountId, returnUrl }) {
    const customer = await findCustomerId(accountId);
    if (!customer) return null;
    try {
      const portal = await getStripe().billingPortal.sessions.create({ customer, return_url: returnUrl });
      return portal.url;
    } catch (error) {
      log("error", "stripe: portal session failed", { accountId, error: describe(error) });
      throw new AppError("PAYMENT_PROCESSOR_ERROR", {
        message: "The payment provider's customer portal is not available right now; please try again.",
        cause: error,
      });
    }
  },

  async getSubscription(accountId) {
    const subscription = await findSubscription(accountId);
    if (!subscription) return null;
    const { plan, status, currentPeriodEnd, cancelAtPeriodEnd, cancelAt } = subscription;
    return { plan, status, currentPeriodEnd, cancelAtPeriodEnd, cancelAt };
  },

  async cancelSubscriptions(accountId) {
    for (const subscriptionId of await liveSubscriptionIds(accountId)) {
      try {
        await getStripe().subscriptions.cancel(subscriptionId);
      } catch (error) {
        log("error", "stripe: subscription cancel failed", { accountId, subscriptionId, error: describe(error) });
        throw new AppError("PAYMENT_PROCESSOR_ERROR", {
          message:
            "The team's subscription could not be cancelled with the payment provider; nothing was deleted. Please try again.",
          cause: error,
        });
      }
    }
  },
};

// ---------------------------------------------------------------------------------------------------------------
// Webhooks

/** Verifies the `Stripe-Signature` header on the raw body (throws INVALID_SIGNATURE, 400) and parses the event. */
export function verifyWebhook(rawBody: string, signature: string | null): Stripe.Event {
  const settings = settingsOrThrow();
  if (!signature) throw errors.invalidWebhookSignature("Missing Stripe-Signature header");
  try {
    return getStripe().webhooks.constructEvent(rawBody, signature, settings.webhookSecret);
  } catch (error) {
    throw errors.invalidWebhookSignature(error instanceof Error ? error.message : "Invalid signature");
  }
}

/** Applies a verified event once (replays are no-ops); returns what was decided. */
export async function handleStripeEvent(event: Stripe.Event): Promise<{ duplicate: boolean; outcome: string }> {
  const object = event.data.object as unknown as { id?: string; object?: string };
  const result = await processWebhookEventOnce(
    {
      id: event.id,
      type: event.type,
      objectId: typeof object?.id === "string" ? object.id : null,
      livemode: Boolean(event.livemode),
      created: new Date(event.created * 1000),
    },
    (tx) => applyEvent(tx, event),
  );
  log("info", "stripe webhook", { event: event.id, type: event.type, ...result });
  return result;
}

async function applyEvent(tx: Tx, event: Stripe.Event): Promise<string> {
  switch (event.type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded":
      return checkoutPaid(tx, event.data.object);
    case "checkout.session.expired":
      return checkoutClosed(tx, event.data.object, "expired");
    case "checkout.session.async_payment_failed":
      return checkoutClosed(tx, event.data.object, "failed");
    case "charge.refunded":
      return chargeRefunded(tx, event.id, event.data.object);
    case "charge.dispute.created":
      return revokePurchase(tx, {
        paymentIntent: idOf(event.data.object.payment_intent),
        purchaseId: null,
        accountId: null,
        because: "dispute",
        eventId: event.id,
      });
    case "customer.subscription.created":
    case "customer.subscription.updated":
    case "customer.subscription.deleted":
    case "customer.subscription.paused":
    case "customer.subscription.resumed":
    case "customer.subscription.pending_update_applied":
    case "customer.subscription.pending_update_expired": {
      const { outcome, plan } = await applySubscriptionEvent(
        tx,
        { id: event.id, created: new Date(event.created * 1000) },
        subscriptionState(event.data.object),
      );
      return plan ? `${outcome}:${plan}` : outcome;
    }
    default:
      return "ignored";
  }
}

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value == null ? null : typeof value === "string" ? value : value.id;

async function checkoutPaid(tx: Tx, session: Stripe.Checkout.Session): Promise<string> {
  const metadata = session.metadata ?? {};
  if (session.mode === "subscription") {
    // The plan itself follows the customer.subscription.* events; this links the customer if it is new to us.
    const customer = idOf(session.customer);
    if (customer && isUuid(metadata.account_id) && (await linkCheckoutCustomer(tx, metadata.account_id, customer))) {
      return "subscription_checkout";
    }
    return "unmatched";
  }
  if (session.mode !== "payment") return "ignored";
  if (session.payment_status !== "paid" && session.payment_status !== "no_payment_required") {
    // A delayed payment method: checkout.session.async_payment_succeeded / _failed follows.
    return "awaiting_payment";
  }
  const ours = metadata.kind === "template_purchase";
  return completeCheckoutPurchase(tx, {
    sessionId: session.id,
    purchaseId: ours ? (metadata.purchase_id ?? null) : null,
    accountId: ours ? (metadata.account_id ?? null) : null,
    templateId: ours ? (metadata.template_id ?? null) : null,
    paymentIntent: idOf(session.payment_intent),
    amountTotal: session.amount_total ?? null,
    currency: session.currency ?? null,
  });
}

/**
 * A refund revokes the purchase only once the whole charge is refunded (Stripe's `refunded`): a partial refund, a
 * goodwill gesture, leaves the template bought. The event comes for each refund, so the last one of a series revokes.
 */
async function chargeRefunded(tx: Tx, eventId: string, charge: Stripe.Charge): Promise<string> {
  if (!charge.refunded) return "partial_refund";
  const metadata = charge.metadata ?? {};
  const ours = metadata.kind === "template_purchase";
  return revokePurchase(tx, {
    paymentIntent: idOf(charge.payment_intent),
    purchaseId: ours ? (metadata.purchase_id ?? null) : null,
    accountId: ours ? (metadata.account_id ?? null) : null,
    because: "refund",
    eventId,
  });
}

async function checkoutClosed(tx: Tx, session: Stripe.Checkout.Session, status: "expired" | "failed"): Promise<string> {
  if (session.mode !== "payment") return "ignored";
  const metadata = session.metadata ?? {};
  const ours = metadata.kind === "template_purchase";
  const outcome = await closeCheckoutPurchase(
    tx,
    {
      sessionId: session.id,
      purchaseId: ours ? (metadata.purchase_id ?? null) : null,
      accountId: ours ? (metadata.account_id ?? null) : null,
    },
    status,
  );
  return outcome === "closed" ? status : "unchanged";
}

/** The parts of a subscription snapshot that decide the plan (periods live on the items in current API versions). */
export function subscriptionState(subscription: Stripe.Subscription): SubscriptionState {
  const settings = settingsOrThrow();
  const items = subscription.items?.data ?? [];
  const planOf = (price: string | undefined): PlanName | null =>
    price === settings.prices.monthly ? "monthly" : price === settings.prices.annual ? "annual" : null;
  const planItem = items.find((item) => planOf(item.price?.id) !== null) ?? null;
  const periodEnds = items
    .map((item) => item.current_period_end)
    .filter((end): end is number => typeof end === "number");
  // Older API versions carried the period on the subscription itself.
  const legacyEnd = (subscription as unknown as { current_period_end?: number }).current_period_end;
  const periodEnd = periodEnds.length > 0 ? Math.max(...periodEnds) : typeof legacyEnd === "number" ? legacyEnd : null;
  const seconds = (value: number | null | undefined) => (typeof value === "number" ? new Date(value * 1000) : null);
  return {
    subscriptionId: subscription.id,
    customerId: idOf(subscription.customer) ?? "",
    metadataAccountId: subscription.metadata?.account_id ?? null,
    status: subscription.status,
    plan: planOf(planItem?.price?.id),
    priceId: planItem?.price?.id ?? null,
    planItemId: planItem?.id ?? null,
    currentPeriodEnd: seconds(periodEnd),
    cancelAtPeriodEnd: Boolean(subscription.cancel_at_period_end),
    cancelAt: seconds(subscription.cancel_at),
    endedAt: seconds(subscription.ended_at),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Overage: the ledger (email_overage_ledger) is the source of truth. A reporter claims unreported rows, sends each as
// a meter event whose `identifier` is the email's id (with an Idempotency-Key derived from it), and marks the row
// reported only on Stripe's acknowledgement. A failure leaves the row unreported with a retry time; a lost
// acknowledgement makes the retry send the same identifier and key, which Stripe counts once.

const OVERAGE_REPORTING = {
  /** How long a send waits for Stripe to acknowledge its own overage email before answering (then: cron/next send). */
  syncTimeoutMs: 2_500,
  /** A claimed row is retried by another reporter if this one has not finished within the lease. */
  leaseMs: 2 * 60_000,
  batchSize: 100,
  concurrency: 4,
  /** Retry delay after the n-th failed attempt: base * 2^(n-1), capped. */
  retryBaseMs: 60_000,
  retryMaxMs: 6 * 3600_000,
} as const;

export type OverageReport = { claimed: number; reported: number; failed: number; reportedIds: string[] };

/**
 * Reports unreported overage emails to Stripe's billing meter. Safe to run concurrently (rows are claimed) and as
 * often as wanted. `emailId` reports just that email's row; `now` is the clock the retry schedule is read against.
 */
export async function reportPendingOverage(
  options: { now?: Date; limit?: number; emailId?: string; timeoutMs?: number } = {},
): Promise<OverageReport> {
  const settings = settingsOrThrow();
  const now = options.now ?? new Date();
  const timeoutMs = options.timeoutMs ?? 10_000;
  const claims = await claimUnreportedOverage({
    limit: options.limit ?? OVERAGE_REPORTING.batchSize,
    now,
    leaseMs: Math.max(OVERAGE_REPORTING.leaseMs, timeoutMs * 2),
    emailId: options.emailId,
  });
  const report: OverageReport = { claimed: claims.length, reported: 0, failed: 0, reportedIds: [] };
  const queue = [...claims];
  const worker = async () => {
    for (let claim = queue.shift(); claim; claim = queue.shift()) {
      if (await reportOne(settings, claim, now, timeoutMs)) {
        report.reported += 1;
        report.reportedIds.push(claim.id);
      } else {
        report.failed += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(OVERAGE_REPORTING.concurrency, claims.length) }, worker));
  return report;
}

async function reportOne(
  settings: StripeSettings,
  claim: OverageClaim,
  now: Date,
  timeoutMs: number,
): Promise<boolean> {
  const timestamp = Math.floor(Math.max(claim.createdAt.getTime(), now.getTime() - MAX_METER_EVENT_AGE_MS) / 1000);
  try {
    await getStripe().billing.meterEvents.create(
      {
        event_name: settings.meterEventName,
        identifier: claim.identifier,
        timestamp,
        payload: { stripe_customer_id: claim.customerId, value: String(claim.quantity) },
      },
      // The ledger is the retry mechanism: one attempt per run, under a key that is the same on every attempt.
      { idempotencyKey: `letterpress-overage-${claim.identifier}`, maxNetworkRetries: 0, timeout: timeoutMs },
    );
  } catch (error) {
    if (isDuplicateIdentifier(error)) {
      // An earlier attempt was recorded and only its acknowledgement was lost.
      await markOverageReported(claim.id, NAME);
      return true;
    }
    const delay = Math.min(
      OVERAGE_REPORTING.retryBaseMs * 2 ** Math.max(0, claim.attempts - 1),
      OVERAGE_REPORTING.retryMaxMs,
    );
    await markOverageReportFailed(claim.id, describe(error), new Date(now.getTime() + delay));
    log("warn", "stripe: overage meter event not acknowledged; will retry", {
      ledgerId: claim.id,
      attempt: claim.attempts,
      error: describe(error),
    });
    return false;
  }
  await markOverageReported(claim.id, NAME);
  return true;
}

function isDuplicateIdentifier(error: unknown): boolean {
  return (
    error instanceof Stripe.errors.StripeInvalidRequestError &&
    /identifier/i.test(error.message) &&
    /(already|duplicate|exists|unique)/i.test(error.message)
  );
}

/** Each send past the limit also flushes the backlog in the background, at most every 30 s per process. */
const flushOverageBacklog = throttledInBackground("stripe: background overage reporting", 30_000, () =>
  reportPendingOverage(),
);

/** After an overage send: report this email now (bounded wait), and flush any backlog in the background. */
export async function reportOverageNow(emailId: string): Promise<boolean> {
  let reported = false;
  try {
    const report = await reportPendingOverage({ emailId, limit: 1, timeoutMs: OVERAGE_REPORTING.syncTimeoutMs });
    // Not claimed here: another reporter may hold it, or have reported it already.
    reported = report.reported > 0 || (await isOverageReported(emailId));
  } finally {
    flushOverageBacklog();
  }
  return reported;
}

/** The cron job: report the overage backlog and return lapsed (cancelled/unpaid, period over) subscriptions to free. */
export async function runBillingMaintenance(options: { now?: Date; budgetMs?: number } = {}): Promise<{
  reported: number;
  failed: number;
  downgraded: number;
}> {
  const started = Date.now();
  const budget = options.budgetMs ?? 45_000;
  let reported = 0;
  let failed = 0;
  for (;;) {
    const batch = await reportPendingOverage({ now: options.now });
    reported += batch.reported;
    failed += batch.failed;
    if (batch.claimed < OVERAGE_REPORTING.batchSize || Date.now() - started > budget) break;
  }
  const downgraded = await applyLapsedSubscriptions(options.now);
  return { reported, failed, downgraded: downgraded.length };
}
