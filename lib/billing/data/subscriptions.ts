import "server-only";
import { insertAuditEntry, planChangedEntry } from "@/lib/audit/service";
import { getDb, type Tx } from "@/lib/db/client";
import { PROCESSOR } from "@/lib/billing/data/customers";
import { type PlanName } from "@/lib/core/plans";
import { isUuid } from "@/lib/core/schemas";

// Subscriptions and the plan they grant the account.

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
  const [changed] = await tx<{ previous: PlanName }[]>`
    update accounts a set plan = ${plan}, updated_at = now() from accounts prior
    where prior.id = a.id and a.id = ${accountId} and a.plan <> ${plan}
    returning prior.plan as previous`;
  if (changed) await insertAuditEntry(tx, planChangedEntry(accountId, changed.previous, plan));
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

/** The account's subscriptions that still bill or may (not ended), to cancel before the account goes. */
export async function liveSubscriptionIds(accountId: string): Promise<string[]> {
  const rows = await getDb()<{ subscription_id: string }[]>`
    select subscription_id from billing_subscriptions
    where account_id = ${accountId} and status not in ('canceled', 'incomplete_expired') and ended_at is null`;
  return rows.map((row) => row.subscription_id);
}
