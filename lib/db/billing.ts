import "server-only";
import { getDb, type Tx } from "@/lib/db/client";
import { assertPurchaseAllowed } from "@/lib/db/library";
import { AppError } from "@/lib/errors";
import { isUuid } from "@/lib/schemas/common";
import { findCatalogueTemplate } from "@/lib/db/templates";
import { PLANS, type PlanName } from "@/lib/plans";

// The database side of payments through a hosted processor (Stripe): customers, pending purchases and their
// checkouts, subscriptions and the plan they grant, the webhook event log, and the overage ledger's reporting state.
// Nothing here talks to the processor; lib/payments/stripe.ts does, and hands plain values in.

const PROCESSOR = "stripe";

// ---------------------------------------------------------------------------------------------------------------
// Customers

export async function findCustomerId(accountId: string): Promise<string | null> {
  const [row] = await getDb()<
    { customer_id: string }[]
  >`select customer_id from billing_customers where account_id = ${accountId}`;
  return row?.customer_id ?? null;
}

/** Stores the account's customer unless it already has one; returns the one stored (the first writer wins). */
export async function saveCustomerId(accountId: string, customerId: string, tx?: Tx): Promise<string> {
  const db = tx ?? getDb();
  await db`insert into billing_customers (account_id, processor, customer_id) values (${accountId}, ${PROCESSOR}, ${customerId})
           on conflict do nothing`;
  const [row] = await db<
    { customer_id: string }[]
  >`select customer_id from billing_customers where account_id = ${accountId}`;
  return row?.customer_id ?? customerId;
}

/**
 * Links a subscription checkout's customer to the account unless it has one already; false when there is no such
 * account, and nothing is stored.
 */
export async function linkCheckoutCustomer(tx: Tx, accountId: string, customerId: string): Promise<boolean> {
  const [account] = await tx`select 1 from accounts where id = ${accountId}`;
  if (!account) return false;
  await tx`insert into billing_customers (account_id, processor, customer_id) values (${accountId}, ${PROCESSOR}, ${customerId})
           on conflict do nothing`;
  return true;
}

export async function findAccountEmail(accountId: string): Promise<string | null> {
  const [row] = await getDb()<{ email: string }[]>`select email from accounts where id = ${accountId}`;
  return row?.email ?? null;
}

// ---------------------------------------------------------------------------------------------------------------
// Template purchases

export type PurchaseTemplate = { id: string; slug: string | null; name: string; price: string };

export type PurchaseReservation =
  /** The template is free: nothing to pay, add it directly. */
  | { kind: "free"; template: PurchaseTemplate }
  /** A pending purchase of this template already has an open checkout: send the user back to it. */
  | { kind: "open"; purchaseId: string; checkoutUrl: string }
  /** A pending purchase needs a checkout (new, or one whose checkout creation is still running or was interrupted). */
  | { kind: "checkout"; purchaseId: string; createdAt: Date; template: PurchaseTemplate };

/** How long a pending purchase without a checkout is resumed (same purchase, same Idempotency-Key) before it is failed. */
const RESUME_WINDOW_MS = 10 * 60_000;

/**
 * Records a paid template purchase as pending before anyone is sent to a checkout, with the rules addLibraryEntry
 * applies (the account row locked for the decision): the template exists and is public, it is not in the library
 * yet, the library has room, and the plan's monthly paid purchases (pending ones included) are not used up. A
 * pending purchase of the same template is reused rather than counted twice.
 */
export async function reserveTemplatePurchase(
  accountId: string,
  templateIdOrSlug: string,
  now: Date = new Date(),
): Promise<PurchaseReservation> {
  return getDb().begin(async (tx) => {
    const [account] = await tx<{ plan: PlanName }[]>`select plan from accounts where id = ${accountId} for update`;
    if (!account) throw new AppError("TEMPLATE_NOT_FOUND", { message: "Account not found" });
    const found = await findCatalogueTemplate(templateIdOrSlug, tx);
    if (!found)
      throw new AppError("TEMPLATE_NOT_FOUND", { message: `No public catalogue template "${templateIdOrSlug}"` });
    const template: PurchaseTemplate = { id: found.id, slug: found.slug, name: found.name, price: found.price };
    const [inLibrary] =
      await tx`select 1 from library_entries where account_id = ${accountId} and template_id = ${template.id}`;
    if (inLibrary)
      throw new AppError("ALREADY_IN_LIBRARY", { message: `"${template.name}" is already in your library` });
    if (!(Number(template.price) > 0)) return { kind: "free", template };

    const pending = await tx<
      { id: string; created_at: Date; checkout_url: string | null; checkout_expires_at: Date | null }[]
    >`
      select id, created_at, checkout_url, checkout_expires_at from purchases
      where account_id = ${accountId} and template_id = ${template.id} and status = 'pending' and processor = ${PROCESSOR}
      order by created_at desc for update`;
    for (const purchase of pending) {
      if (purchase.checkout_url && purchase.checkout_expires_at && purchase.checkout_expires_at > now) {
        return { kind: "open", purchaseId: purchase.id, checkoutUrl: purchase.checkout_url };
      }
      if (!purchase.checkout_url && now.getTime() - purchase.created_at.getTime() < RESUME_WINDOW_MS) {
        return { kind: "checkout", purchaseId: purchase.id, createdAt: purchase.created_at, template };
      }
      // Its checkout has expired (the webhook saying so may still be on its way), or was never created.
      await tx`update purchases set status = ${purchase.checkout_url ? "expired" : "failed"} where id = ${purchase.id} and status = 'pending'`;
    }

    const limit = PLANS[account.plan].librarySize;
    if (limit !== null) {
      const [{ n }] = await tx<
        { n: number }[]
      >`select count(*)::int as n from library_entries where account_id = ${accountId}`;
      if (n >= limit) {
        throw new AppError("LIBRARY_LIMIT_REACHED", {
          message: `Your ${account.plan} plan's library holds ${limit} templates and it is full. Upgrade to a paid plan for an unlimited library.`,
        });
      }
    }
    await assertPurchaseAllowed(tx, accountId, account.plan);
    const [purchase] = await tx<{ id: string; created_at: Date }[]>`
      insert into purchases (account_id, template_id, amount, status, processor)
      values (${accountId}, ${template.id}, ${template.price}, 'pending', ${PROCESSOR})
      returning id, created_at`;
    return { kind: "checkout", purchaseId: purchase.id, createdAt: purchase.created_at, template };
  });
}

/** The checkout for a pending purchase exists: remember it (its session id is the purchase's processor_ref). */
export async function attachCheckout(
  purchaseId: string,
  checkout: { sessionId: string; url: string; expiresAt: Date },
): Promise<void> {
  await getDb()`
    update purchases set processor_ref = ${checkout.sessionId}, checkout_url = ${checkout.url}, checkout_expires_at = ${checkout.expiresAt}
    where id = ${purchaseId} and (processor_ref is null or processor_ref = ${checkout.sessionId})`;
}

/** Creating the checkout failed: the pending purchase no longer counts toward the monthly limit. */
export async function failPendingPurchase(purchaseId: string): Promise<void> {
  await getDb()`update purchases set status = 'failed' where id = ${purchaseId} and status = 'pending'`;
}

export type PaidCheckout = {
  sessionId: string;
  /** The PaymentIntent that took the payment: what a refund's or a dispute's charge names. */
  paymentIntent: string | null;
  purchaseId: string | null;
  accountId: string | null;
  templateId: string | null;
  /** Minor units (cents), as the processor charged. */
  amountTotal: number | null;
  currency: string | null;
};

export type CheckoutOutcome = "completed" | "already_completed" | "revoked" | "unmatched";

/**
 * A paid checkout: completes its purchase and adds the template to the library as `purchased`, exactly once. The
 * purchase is found by its session id (or the purchase id in the session's metadata); a paid checkout with no
 * purchase row (lost before its session id was stored) is recorded from the metadata. The payment has been taken, so
 * the library size and monthly limits (checked before the checkout) are not checked again.
 */
export async function completeCheckoutPurchase(tx: Tx, checkout: PaidCheckout): Promise<CheckoutOutcome> {
  let [purchase] = await tx<{ id: string; account_id: string; template_id: string; status: string }[]>`
    select id, account_id, template_id, status from purchases where processor = ${PROCESSOR} and processor_ref = ${checkout.sessionId} for update`;
  if (!purchase && isUuid(checkout.purchaseId) && isUuid(checkout.accountId)) {
    [purchase] = await tx<{ id: string; account_id: string; template_id: string; status: string }[]>`
      select id, account_id, template_id, status from purchases
      where id = ${checkout.purchaseId} and account_id = ${checkout.accountId} and processor = ${PROCESSOR} for update`;
  }
  if (!purchase) {
    if (!isUuid(checkout.accountId) || !isUuid(checkout.templateId)) return "unmatched";
    const [known] = await tx`
      select 1 from accounts a, templates t where a.id = ${checkout.accountId} and t.id = ${checkout.templateId} and t.owner_account_id is null`;
    if (!known) return "unmatched";
    const amount = checkout.amountTotal !== null ? (checkout.amountTotal / 100).toFixed(2) : null;
    [purchase] = await tx<{ id: string; account_id: string; template_id: string; status: string }[]>`
      insert into purchases (account_id, template_id, amount, currency, status, processor, processor_ref)
      select ${checkout.accountId}, t.id, coalesce(${amount}::numeric, t.price), ${checkout.currency ?? "usd"}, 'pending', ${PROCESSOR}, ${checkout.sessionId}
      from templates t where t.id = ${checkout.templateId}
      returning id, account_id, template_id, status`;
  }
  if (purchase.status === "completed") return "already_completed";
  // Refunded or disputed before this event came (deliveries are not ordered): the template stays out.
  if (purchase.status === "revoked") return "revoked";
  await tx`
    update purchases set status = 'completed', completed_at = now(), processor_ref = ${checkout.sessionId},
                         payment_intent = ${checkout.paymentIntent}, checkout_url = null
    where id = ${purchase.id}`;
  await tx`
    insert into library_entries (account_id, template_id, added_via) values (${purchase.account_id}, ${purchase.template_id}, 'purchased')
    on conflict (account_id, template_id) do nothing`;
  return "completed";
}

/** An expired or failed checkout: its purchase, if still pending, is closed and stops counting toward the limit. */
export async function closeCheckoutPurchase(
  tx: Tx,
  checkout: { sessionId: string; purchaseId: string | null; accountId: string | null },
  status: "expired" | "failed",
): Promise<"closed" | "unchanged"> {
  const byRef = await tx`
    update purchases set status = ${status}, checkout_url = null
    where processor = ${PROCESSOR} and processor_ref = ${checkout.sessionId} and status = 'pending' returning id`;
  if (byRef.length > 0) return "closed";
  if (isUuid(checkout.purchaseId) && isUuid(checkout.accountId)) {
    const byId = await tx`
      update purchases set status = ${status}, checkout_url = null, processor_ref = coalesce(processor_ref, ${checkout.sessionId})
      where id = ${checkout.purchaseId} and account_id = ${checkout.accountId} and processor = ${PROCESSOR} and status = 'pending'
        and (processor_ref is null or processor_ref = ${checkout.sessionId})
      returning id`;
    if (byId.length > 0) return "closed";
  }
  return "unchanged";
}

export type Revocation = {
  /** The PaymentIntent the refunded or disputed charge belongs to. */
  paymentIntent: string | null;
  /** From the charge's metadata, for a purchase completed before its PaymentIntent was kept. */
  purchaseId: string | null;
  accountId: string | null;
  because: "refund" | "dispute";
  eventId: string;
};

/**
 * A full refund or a dispute of a purchase's payment: the purchase is revoked (status, when, why and the event, kept on
 * it) and its template leaves the library unless another completed purchase of it holds it there, in one statement,
 * so a template is never left in the library of a purchase revoked nor taken out of one still held. A pending
 * purchase is revoked too (the refund came before its checkout's completion, which then adds nothing). Revoked
 * purchases no longer count as bought: POST /library answers PURCHASE_REQUIRED for the template again.
 */
export async function revokePurchase(
  tx: Tx,
  revocation: Revocation,
): Promise<"revoked" | "already_revoked" | "unmatched"> {
  const purchaseId = isUuid(revocation.purchaseId) && isUuid(revocation.accountId) ? revocation.purchaseId : null;
  const accountId = purchaseId ? revocation.accountId : null;
  const [revoked] = await tx<{ id: string }[]>`
    with revoked as (
      update purchases set status = 'revoked', revoked_at = now(), revoked_because = ${revocation.because},
                           revoked_by_event = ${revocation.eventId}, checkout_url = null
      where processor = ${PROCESSOR} and status in ('completed', 'pending')
        and (payment_intent = ${revocation.paymentIntent}
             or (id = ${purchaseId} and account_id = ${accountId} and payment_intent is null))
      returning id, account_id, template_id
    ), removed as (
      delete from library_entries l using revoked r
      where l.account_id = r.account_id and l.template_id = r.template_id and l.added_via = 'purchased'
        and not exists (
          select 1 from purchases p
          where p.account_id = r.account_id and p.template_id = r.template_id and p.status = 'completed' and p.id <> r.id)
    )
    select id from revoked`;
  if (revoked) return "revoked";
  const [known] = await tx`
    select 1 from purchases
    where processor = ${PROCESSOR} and status = 'revoked'
      and (payment_intent = ${revocation.paymentIntent} or (id = ${purchaseId} and account_id = ${accountId}))`;
  return known ? "already_revoked" : "unmatched";
}

// ---------------------------------------------------------------------------------------------------------------
// Subscriptions and the account's plan

/** Statuses that grant the plan. `past_due` keeps it while the processor retries the payment. */
const ENTITLING = ["active", "trialing", "past_due"];
/** Statuses that keep the plan only until the end of the period already paid for. */
const RUNNING_OUT = ["canceled", "unpaid"];
/** A subscription in one of these never comes back: no later-looking event revives it. */
const TERMINAL = ["canceled", "incomplete_expired"];
// Within one second (Stripe's event resolution) the status further along the lifecycle wins.
const STATUS_RANK: Record<string, number> = {
  incomplete: 0,
  trialing: 1,
  active: 2,
  past_due: 3,
  paused: 3,
  unpaid: 4,
  incomplete_expired: 5,
  canceled: 5,
};

export type SubscriptionState = {
  subscriptionId: string;
  customerId: string;
  /** From the subscription's metadata; used when the customer is not linked to an account yet. */
  metadataAccountId: string | null;
  status: string;
  plan: PlanName | null;
  priceId: string | null;
  planItemId: string | null;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  cancelAt: Date | null;
  endedAt: Date | null;
};

export type SubscriptionOutcome = {
  outcome: "applied" | "stale" | "unmatched";
  accountId: string | null;
  plan?: PlanName;
};

/**
 * Applies a `customer.subscription.*` event's snapshot unless a newer one is stored (events arrive out of order), then
 * sets the account's plan from all its subscriptions.
 */
export async function applySubscriptionEvent(
  tx: Tx,
  event: { id: string; created: Date },
  state: SubscriptionState,
): Promise<SubscriptionOutcome> {
  const [linked] = await tx<
    { account_id: string }[]
  >`select account_id from billing_customers where customer_id = ${state.customerId}`;
  let accountId = linked?.account_id ?? null;
  if (!accountId && isUuid(state.metadataAccountId)) {
    const [account] = await tx<{ id: string }[]>`select id from accounts where id = ${state.metadataAccountId}`;
    if (account) {
      accountId = account.id;
      await tx`insert into billing_customers (account_id, processor, customer_id) values (${accountId}, ${PROCESSOR}, ${state.customerId})
               on conflict do nothing`;
    }
  }
  if (!accountId) return { outcome: "unmatched", accountId: null };

  // Serialises events of one account's subscriptions, and the plan decision below.
  await tx`select 1 from accounts where id = ${accountId} for update`;
  const [stored] = await tx<{ status: string; last_event_created: Date }[]>`
    select status, last_event_created from billing_subscriptions where subscription_id = ${state.subscriptionId} for update`;
  if (stored && !isNewer(stored, event.created, state.status)) return { outcome: "stale", accountId };

  await tx`
    insert into billing_subscriptions (subscription_id, account_id, customer_id, status, plan, price_id, plan_item_id,
                                       current_period_end, cancel_at_period_end, cancel_at, ended_at, last_event_id, last_event_created)
    values (${state.subscriptionId}, ${accountId}, ${state.customerId}, ${state.status}, ${state.plan}, ${state.priceId},
            ${state.planItemId}, ${state.currentPeriodEnd}, ${state.cancelAtPeriodEnd}, ${state.cancelAt}, ${state.endedAt},
            ${event.id}, ${event.created})
    on conflict (subscription_id) do update set
      account_id = excluded.account_id, customer_id = excluded.customer_id, status = excluded.status, plan = excluded.plan,
      price_id = excluded.price_id, plan_item_id = excluded.plan_item_id, current_period_end = excluded.current_period_end,
      cancel_at_period_end = excluded.cancel_at_period_end, cancel_at = excluded.cancel_at, ended_at = excluded.ended_at,
      last_event_id = excluded.last_event_id, last_event_created = excluded.last_event_created, updated_at = now()`;
  const plan = await syncAccountPlan(tx, accountId);
  return { outcome: "applied", accountId, plan };
}

function isNewer(stored: { status: string; last_event_created: Date }, created: Date, status: string): boolean {
  if (TERMINAL.includes(stored.status) && !TERMINAL.includes(status)) return false;
  const storedAt = stored.last_event_created.getTime();
  if (created.getTime() !== storedAt) return created.getTime() > storedAt;
  return (STATUS_RANK[status] ?? 0) >= (STATUS_RANK[stored.status] ?? 0);
}

/**
 * The plan the account's subscriptions grant, written to accounts.plan: the best plan of a subscription that is
 * active (or trialing, or past due while payment is retried), or that was cancelled or went unpaid but whose paid
 * period has not ended yet; otherwise free.
 */
export async function syncAccountPlan(tx: Tx, accountId: string, now: Date = new Date()): Promise<PlanName> {
  const [best] = await tx<{ plan: PlanName }[]>`
    select plan from billing_subscriptions
    where account_id = ${accountId} and plan is not null
      and (status in ${tx(ENTITLING)} or (status in ${tx(RUNNING_OUT)} and current_period_end > ${now}))
    order by case plan when 'annual' then 2 else 1 end desc
    limit 1`;
  const plan: PlanName = best?.plan ?? "free";
  await tx`update accounts set plan = ${plan}, updated_at = now() where id = ${accountId} and plan <> ${plan}`;
  return plan;
}

/**
 * Cancelled and unpaid subscriptions keep their plan until the end of the paid period; no event marks that moment,
 * so the cron job calls this to return those accounts to free. Returns the accounts whose plan changed.
 */
export async function applyLapsedSubscriptions(now: Date = new Date()): Promise<string[]> {
  const accounts = await getDb()<{ account_id: string }[]>`
    select distinct s.account_id from billing_subscriptions s join accounts a on a.id = s.account_id
    where a.plan <> 'free' and s.status not in ${getDb()(ENTITLING)}
      and (s.current_period_end is null or s.current_period_end <= ${now})`;
  const changed: string[] = [];
  for (const { account_id } of accounts) {
    await getDb().begin(async (tx) => {
      const [before] = await tx<{ plan: PlanName }[]>`select plan from accounts where id = ${account_id} for update`;
      const after = await syncAccountPlan(tx, account_id, now);
      if (before && before.plan !== after) changed.push(account_id);
    });
  }
  return changed;
}

export type SubscriptionSummary = {
  subscriptionId: string;
  plan: PlanName | null;
  status: string;
  planItemId: string | null;
  /** The end of the current period: the next renewal, or when a cancelled subscription ends. */
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  cancelAt: Date | null;
};

/** The account's current subscription (the live one if any, else the most recently changed), for the dashboard. */
export async function findSubscription(accountId: string): Promise<SubscriptionSummary | null> {
  const [row] = await getDb()<
    {
      subscription_id: string;
      plan: PlanName | null;
      status: string;
      plan_item_id: string | null;
      current_period_end: Date | null;
      cancel_at_period_end: boolean;
      cancel_at: Date | null;
    }[]
  >`
    select subscription_id, plan, status, plan_item_id, current_period_end, cancel_at_period_end, cancel_at
    from billing_subscriptions where account_id = ${accountId}
    order by (status in ${getDb()(ENTITLING)}) desc, last_event_created desc
    limit 1`;
  if (!row) return null;
  return {
    subscriptionId: row.subscription_id,
    plan: row.plan,
    status: row.status,
    planItemId: row.plan_item_id,
    currentPeriodEnd: row.current_period_end,
    cancelAtPeriodEnd: row.cancel_at_period_end,
    cancelAt: row.cancel_at,
  };
}

export function isLiveSubscription(summary: SubscriptionSummary | null): summary is SubscriptionSummary {
  return summary !== null && [...ENTITLING, "unpaid", "paused", "incomplete"].includes(summary.status);
}

// ---------------------------------------------------------------------------------------------------------------
// Webhook event log

export type WebhookEventMeta = { id: string; type: string; objectId: string | null; livemode: boolean; created: Date };

/**
 * Handles one webhook event exactly once: its id is inserted first (a concurrent delivery of the same event waits on
 * it), then `apply` runs in the same transaction and its outcome is stored. A replay finds the id and runs nothing.
 * If `apply` throws, nothing is kept, and the processor's retry handles the event afresh.
 */
export async function processWebhookEventOnce(
  event: WebhookEventMeta,
  apply: (tx: Tx) => Promise<string>,
): Promise<{ duplicate: boolean; outcome: string }> {
  return getDb().begin(async (tx) => {
    const inserted = await tx`
      insert into stripe_events (id, type, object_id, livemode, created, outcome)
      values (${event.id}, ${event.type}, ${event.objectId}, ${event.livemode}, ${event.created}, 'processing')
      on conflict (id) do nothing returning id`;
    if (inserted.length === 0) {
      const [stored] = await tx<{ outcome: string }[]>`select outcome from stripe_events where id = ${event.id}`;
      return { duplicate: true, outcome: stored?.outcome ?? "processed" };
    }
    const outcome = await apply(tx);
    await tx`update stripe_events set outcome = ${outcome} where id = ${event.id}`;
    return { duplicate: false, outcome };
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Overage reporting

export type OverageClaim = {
  id: string;
  /** The meter event identifier: the email's id (the ledger row's id if the email row is gone), fixed at first claim. */
  identifier: string;
  quantity: number;
  createdAt: Date;
  customerId: string;
  attempts: number;
};

/**
 * Claims up to `limit` unreported overage rows for one reporter: rows of accounts with a processor customer, whose
 * email was accepted (a pending one may still fail and be given back), not waiting out a retry delay, and not claimed
 * by another reporter whose lease is still running. `emailId` narrows the claim to that email's row.
 */
export async function claimUnreportedOverage(options: {
  limit: number;
  now: Date;
  leaseMs: number;
  emailId?: string;
}): Promise<OverageClaim[]> {
  const db = getDb();
  const leaseUntil = new Date(options.now.getTime() + options.leaseMs);
  const rows = await db<
    {
      id: string;
      identifier: string;
      quantity: number;
      created_at: Date;
      customer_id: string;
      report_attempts: number;
    }[]
  >`
    with due as (
      select l.id from email_overage_ledger l
      join billing_customers c on c.account_id = l.account_id
      left join sent_emails e on e.id = l.email_id
      where l.reported_at is null and l.voided_at is null
        -- A scheduled email is billed once its time has come: until then it may be canceled.
        and (l.email_id is null or e.status = 'sent' or (e.status = 'scheduled' and e.scheduled_at <= ${options.now}))
        and (l.next_report_at is null or l.next_report_at <= ${options.now})
        and (l.report_claimed_until is null or l.report_claimed_until <= ${options.now})
        ${options.emailId ? db`and l.email_id = ${options.emailId}` : db``}
      order by l.created_at, l.id
      limit ${options.limit}
      for update of l skip locked
    )
    update email_overage_ledger l set
      report_claimed_until = ${leaseUntil},
      report_attempts = l.report_attempts + 1,
      processor_ref = coalesce(l.processor_ref, l.email_id::text, l.id::text)
    from due, billing_customers c
    where l.id = due.id and c.account_id = l.account_id
    returning l.id, l.processor_ref as identifier, l.quantity, l.created_at, c.customer_id, l.report_attempts`;
  return rows
    .map((r) => ({
      id: r.id,
      identifier: r.identifier,
      quantity: r.quantity,
      createdAt: r.created_at,
      customerId: r.customer_id,
      attempts: r.report_attempts,
    }))
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
}

/** The processor acknowledged the meter event: the row is reported, for good. */
export async function markOverageReported(id: string, processor: string = PROCESSOR): Promise<void> {
  await getDb()`
    update email_overage_ledger set reported_at = now(), processor = ${processor}, report_claimed_until = null,
                                    next_report_at = null, last_report_error = null
    where id = ${id} and reported_at is null`;
}

/** The report failed: released for a retry at `retryAt`. */
export async function markOverageReportFailed(id: string, error: string, retryAt: Date): Promise<void> {
  await getDb()`
    update email_overage_ledger set report_claimed_until = null, next_report_at = ${retryAt}, last_report_error = ${error.slice(0, 1000)}
    where id = ${id} and reported_at is null`;
}

export async function isOverageReported(emailId: string): Promise<boolean> {
  const [row] = await getDb()<{ reported: boolean }[]>`
    select reported_at is not null as reported from email_overage_ledger where email_id = ${emailId}`;
  return row?.reported ?? false;
}
