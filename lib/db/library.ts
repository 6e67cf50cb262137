import "server-only";
import { getDb, type Tx, jsonParameter } from "@/lib/db/client";
import { findCatalogueTemplate } from "@/lib/db/templates";
import { billingPeriod, PLANS, type PlanName } from "@/lib/plans";
import type { VariablesSchema } from "@/lib/schemas/variables";

export type LibraryErrorCode =
  "TEMPLATE_NOT_FOUND" | "LIBRARY_LIMIT_REACHED" | "PURCHASE_LIMIT_REACHED" | "ALREADY_IN_LIBRARY";

export class LibraryError extends Error {
  constructor(
    public readonly code: LibraryErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "LibraryError";
  }
}

export type AddedEntry = {
  template_id: string;
  slug: string | null;
  name: string;
  added_via: "free" | "purchased";
  purchase_id: string | null;
};

// The account row is locked for the whole decision, so two concurrent additions cannot both take the last slot.
async function lockAccountPlan(tx: Tx, accountId: string): Promise<PlanName> {
  const [account] = await tx<{ plan: PlanName }[]>`select plan from accounts where id = ${accountId} for update`;
  if (!account) throw new LibraryError("TEMPLATE_NOT_FOUND", "Account not found");
  return account.plan;
}

async function assertLibraryHasRoom(tx: Tx, accountId: string, plan: PlanName): Promise<void> {
  const limit = PLANS[plan].librarySize;
  if (limit === null) return;
  const [{ n }] = await tx<
    { n: number }[]
  >`select count(*)::int as n from library_entries where account_id = ${accountId}`;
  if (n >= limit) {
    throw new LibraryError(
      "LIBRARY_LIMIT_REACHED",
      `Your ${plan} plan's library holds ${limit} templates and it is full. Upgrade to a paid plan for an unlimited library.`,
    );
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
    if (!template) throw new LibraryError("TEMPLATE_NOT_FOUND", `No public catalogue template "${templateIdOrSlug}"`);
    const [existing] =
      await tx`select 1 from library_entries where account_id = ${accountId} and template_id = ${template.id}`;
    if (existing) throw new LibraryError("ALREADY_IN_LIBRARY", `"${template.name}" is already in your library`);
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
    throw new LibraryError(
      "PURCHASE_LIMIT_REACHED",
      `Your ${plan} plan allows ${limit} paid template purchase per month. Upgrade for unlimited purchases, or wait until next month.`,
    );
  }
}

export type NewUserTemplate = {
  name: string;
  description: string;
  code: string;
  compiledCode: string | null;
  variables: VariablesSchema;
  previewProps: Record<string, unknown> | null;
};

/** Stores a template the user wrote and adds it to their library as `created`. */
export async function createUserTemplate(
  accountId: string,
  input: NewUserTemplate,
): Promise<{ id: string; name: string }> {
  return getDb().begin(async (tx) => {
    const plan = await lockAccountPlan(tx, accountId);
    await assertLibraryHasRoom(tx, accountId, plan);
    const [template] = await tx<{ id: string; name: string }[]>`
      insert into templates (owner_account_id, name, description, is_public, price, code, compiled_code, variables,
                             preview_props, author)
      select ${accountId}, ${input.name}, ${input.description}, false, 0, ${input.code}, ${input.compiledCode},
             ${jsonParameter(tx, input.variables)}, ${input.previewProps === null ? null : jsonParameter(tx, input.previewProps)}, email
      from accounts where id = ${accountId}
      returning id, name`;
    await tx`insert into library_entries (account_id, template_id, added_via) values (${accountId}, ${template.id}, 'created')`;
    return template;
  });
}
