import "server-only";
import { getDb, type Tx } from "@/lib/db/client";

// The account's customer at the payment processor (Stripe). Nothing here talks to the processor;
// lib/billing/payments/stripe.ts does, and hands plain values in.

/** The payment processor these rows belong to. */
export const PROCESSOR = "stripe";

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
  // The team's first admin: the owner, for a migrated team, or the person who created it.
  const [row] = await getDb()<{ email: string }[]>`
    select p.email from memberships m join people p on p.id = m.person_id
    where m.account_id = ${accountId} and m.role = 'admin' order by m.joined_at, m.person_id limit 1`;
  return row?.email ?? null;
}
