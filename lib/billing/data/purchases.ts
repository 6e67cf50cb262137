import "server-only";
import { insertAuditEntry, libraryEntry } from "@/lib/audit/service";
import { getDb, type Tx } from "@/lib/db/client";
import { PROCESSOR } from "@/lib/billing/data/customers";
import { assertPurchaseAllowed, findCatalogueTemplate } from "@/lib/catalogue/service";
import { AppError } from "@/lib/core/errors";
import { PLANS, type PlanName } from "@/lib/core/plans";
import { isUuid } from "@/lib/core/schemas";

// Template purchases: pending purchases, their checkouts, and what the processor's webhook says became of them.

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
  const [added] = await tx<{ id: string; name: string }[]>`
    insert into library_entries (account_id, template_id, added_via) values (${purchase.account_id}, ${purchase.template_id}, 'purchased')
    on conflict (account_id, template_id) do nothing
    returning template_id as id, (select name from templates where id = ${purchase.template_id}) as name`;
  if (added) await insertAuditEntry(tx, libraryEntry(purchase.account_id, "library.added", added));
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
  const rows = await tx<{ kind: "revoked" | "removed"; id: string; account_id: string; name: string | null }[]>`
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
      returning l.account_id, l.template_id
    )
    select 'revoked' as kind, id, account_id, null as name from revoked
    union all
    select 'removed', x.template_id, x.account_id, t.name from removed x join templates t on t.id = x.template_id`;
  for (const row of rows.filter((row) => row.kind === "removed")) {
    await insertAuditEntry(tx, libraryEntry(row.account_id, "library.removed", { id: row.id, name: row.name! }));
  }
  if (rows.some((row) => row.kind === "revoked")) return "revoked";
  const [known] = await tx`
    select 1 from purchases
    where processor = ${PROCESSOR} and status = 'revoked'
      and (payment_intent = ${revocation.paymentIntent} or (id = ${purchaseId} and account_id = ${accountId}))`;
  return known ? "already_revoked" : "unmatched";
}
