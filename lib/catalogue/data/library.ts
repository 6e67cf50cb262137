import "server-only";
import { insertAuditEntry, libraryEntry } from "@/lib/audit/service";
import { getDb, type Tx } from "@/lib/db/client";
import { AppError } from "@/lib/core/errors";
import { findCatalogueTemplate } from "@/lib/catalogue/data/catalogue";
import { templateRef } from "@/lib/templates/alias";
import type { LibraryEntry } from "@/lib/catalogue/library-schemas";
import { billingPeriod, PLANS, type PlanName } from "@/lib/core/plans";

export type AddedEntry = {
  template_id: string;
  slug: string | null;
  name: string;
  added_via: "free" | "purchased";
  purchase_id: string | null;
};

export type LibraryAddedVia = "created" | "free" | "purchased";

/** Template id → how it entered the account's library. */
export async function libraryMembership(accountId: string): Promise<Map<string, LibraryAddedVia>> {
  const rows = await getDb()<{ template_id: string; added_via: LibraryAddedVia }[]>`
    select template_id, added_via from library_entries where account_id = ${accountId}`;
  return new Map(rows.map((row) => [row.template_id, row.added_via]));
}

/** The catalogue templates the account has bought (a completed purchase), whether in its library now or not. */
export async function boughtTemplateIds(accountId: string): Promise<Set<string>> {
  const rows = await getDb()<{ template_id: string }[]>`
    select distinct template_id from purchases where account_id = ${accountId} and status = 'completed'`;
  return new Set(rows.map((row) => row.template_id));
}

/**
 * The account's library size and its paid purchases (completed or pending) since `since`: what its plan's library and
 * monthly purchase limits count.
 */
export async function countLibraryAndPurchases(
  accountId: string,
  since: Date,
): Promise<{ library: number; purchases: number }> {
  const [row] = await getDb()<{ library: number; purchases: number }[]>`
    select (select count(*)::int from library_entries where account_id = ${accountId}) as library,
           (select count(*)::int from purchases where account_id = ${accountId}
              and status in ('completed', 'pending') and created_at >= ${since}) as purchases`;
  return row;
}

// The account row is locked for the whole decision, so two concurrent additions cannot both take the last slot.
export async function lockAccountPlan(tx: Tx, accountId: string): Promise<PlanName> {
  const [account] = await tx<{ plan: PlanName }[]>`select plan from accounts where id = ${accountId} for update`;
  if (!account) throw new AppError("TEMPLATE_NOT_FOUND", { message: "Account not found" });
  return account.plan;
}

export async function assertLibraryHasRoom(tx: Tx, accountId: string, plan: PlanName): Promise<void> {
  const limit = PLANS[plan].librarySize;
  if (limit === null) return;
  const [{ n }] = await tx<
    { n: number }[]
  >`select count(*)::int as n from library_entries where account_id = ${accountId}`;
  if (n >= limit) {
    throw new AppError("LIBRARY_LIMIT_REACHED", {
      message: `Your ${plan} plan's library holds ${limit} templates and it is full. Upgrade to a paid plan for an unlimited library.`,
    });
  }
}

/**
 * Adds a public catalogue template to the account's library: free ones directly, paid ones as a completed purchase
 * (the payment itself was settled by `processor` before this is called). Enforces the plan's library size and
 * monthly paid-purchase limits.
 */
export async function addLibraryEntry(
  accountId: string,
  templateIdOrSlug: string,
  payment: { processor: string; processorRef?: string | null } = { processor: "test" },
): Promise<AddedEntry> {
  return getDb().begin(async (tx) => {
    const plan = await lockAccountPlan(tx, accountId);
    const template = await findCatalogueTemplate(templateIdOrSlug, tx);
    if (!template)
      throw new AppError("TEMPLATE_NOT_FOUND", { message: `No public catalogue template "${templateIdOrSlug}"` });
    const [existing] =
      await tx`select 1 from library_entries where account_id = ${accountId} and template_id = ${template.id}`;
    if (existing)
      throw new AppError("ALREADY_IN_LIBRARY", { message: `"${template.name}" is already in your library` });
    await assertLibraryHasRoom(tx, accountId, plan);

    const paid = Number(template.price) > 0;
    let purchaseId: string | null = null;
    if (paid) {
      await assertPurchaseAllowed(tx, accountId, plan);
      const [purchase] = await tx<{ id: string }[]>`
        insert into purchases (account_id, template_id, amount, status, processor, processor_ref, completed_at)
        values (${accountId}, ${template.id}, ${template.price}, 'completed', ${payment.processor}, ${payment.processorRef ?? null}, now())
        returning id`;
      purchaseId = purchase.id;
    }
    const addedVia = paid ? "purchased" : "free";
    await tx`insert into library_entries (account_id, template_id, added_via) values (${accountId}, ${template.id}, ${addedVia})`;
    await insertAuditEntry(tx, libraryEntry(accountId, "library.added", template, addedVia));
    return {
      template_id: template.id,
      slug: template.slug,
      name: template.name,
      added_via: addedVia,
      purchase_id: purchaseId,
    };
  });
}

export async function assertPurchaseAllowed(tx: Tx, accountId: string, plan: PlanName): Promise<void> {
  const limit = PLANS[plan].paidPurchasesPerMonth;
  if (limit === null) return;
  const { start } = billingPeriod();
  const [{ n }] = await tx<{ n: number }[]>`
    select count(*)::int as n from purchases
    where account_id = ${accountId} and status in ('completed', 'pending') and created_at >= ${start}`;
  if (n >= limit) {
    throw new AppError("PURCHASE_LIMIT_REACHED", {
      message: `Your ${plan} plan allows ${limit} paid template purchase per month. Upgrade for unlimited purchases, or wait until next month.`,
    });
  }
}

/** One entry of the account's library by template id, as GET /library lists it (library_page), or null. */
export async function findLibraryEntry(accountId: string, templateId: string): Promise<LibraryEntry | null> {
  const [row] = await getDb()<LibraryEntry[]>`
    select t.id, t.name, t.description, t.is_public, t.price::float8 as price, t.slug, t.category, t.author,
           l.added_via,
           to_char(l.added_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as added_at,
           to_char(t.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as updated_at,
           t.preview_image_url as preview_url
    from library_entries l join templates t on t.id = l.template_id
    where l.account_id = ${accountId} and l.template_id = ${templateId}`;
  return row ?? null;
}

/**
 * Takes a catalogue template (by id or slug) out of the account's library; false when no such entry is there. A
 * template the account created is not removed this way (DELETE /templates/{id} deletes it).
 */
export async function removeCatalogueEntry(accountId: string, idOrSlug: string): Promise<boolean> {
  const ref = templateRef(idOrSlug);
  if (!ref) return false;
  return getDb().begin(async (tx) => {
    const [removed] = await tx<{ id: string; name: string; added_via: string }[]>`
      delete from library_entries l using templates t
      where l.account_id = ${accountId} and l.template_id = t.id and l.added_via <> 'created'
        and t.owner_account_id is null and ${ref.id !== null ? tx`t.id = ${ref.id}` : tx`t.slug = ${ref.alias}`}
      returning t.id, t.name, l.added_via`;
    if (removed) await insertAuditEntry(tx, libraryEntry(accountId, "library.removed", removed, removed.added_via));
    return removed !== undefined;
  });
}

/**
 * Puts a paid catalogue template the account has bought (a completed purchase) back in its library, as `purchased`,
 * with the plan's library size enforced; false when it has never bought it. Nothing is charged again.
 */
export async function restorePurchasedEntry(accountId: string, templateId: string): Promise<boolean> {
  return getDb().begin(async (tx) => {
    const plan = await lockAccountPlan(tx, accountId);
    const [bought] = await tx`
      select 1 from purchases where account_id = ${accountId} and template_id = ${templateId} and status = 'completed'
      limit 1`;
    if (!bought) return false;
    const [existing] =
      await tx`select 1 from library_entries where account_id = ${accountId} and template_id = ${templateId}`;
    if (existing) return true;
    await assertLibraryHasRoom(tx, accountId, plan);
    const [template] = await tx<{ id: string; name: string }[]>`
      insert into library_entries (account_id, template_id, added_via) values (${accountId}, ${templateId}, 'purchased')
      returning template_id as id, (select name from templates where id = ${templateId}) as name`;
    await insertAuditEntry(tx, libraryEntry(accountId, "library.added", template));
    return true;
  });
}
