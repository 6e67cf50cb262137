import "server-only";
import { getConfig } from "@/lib/core/config";
import {
  addLibraryEntry,
  boughtTemplateIds,
  countLibraryAndPurchases,
  findLibraryEntry,
  libraryMembership,
  removeCatalogueEntry,
  restorePurchasedEntry,
} from "@/lib/catalogue/data/library";
import { findCatalogueTemplate, listCatalogue, listCataloguePage } from "@/lib/catalogue/data/catalogue";
import { listLibrary, type TemplateRecord } from "@/lib/templates/service";
import { AppError, errors } from "@/lib/core/errors";
import { getPaymentProcessor } from "@/lib/billing/payments";
import type { LibraryEntry } from "@/lib/catalogue/library-schemas";

/** Where a hosted checkout comes back to: the dashboard's catalogue, where Buy is. */
const catalogueUrl = () => `${getConfig().siteUrl}/dashboard/catalogue`;

// The dashboard's catalogue page: every public template, what the account has in its library and what it bought; its
// overview: the library's size and the month's purchases.
export { boughtTemplateIds, countLibraryAndPurchases, libraryMembership, listCatalogue };

/** GET /library, and the dashboard's library: a page of the account's templates, newest addition first. */
export async function listLibraryPage(accountId: string, { limit, offset }: { limit: number; offset: number }) {
  const { templates, total } = await listLibrary(accountId, limit, offset);
  return { templates, pagination: { limit, offset, total } };
}

/** GET /catalogue: a page of the public catalogue, free templates first, each saying whether it is in the library. */
export async function listCatalogueTemplatesPage(
  accountId: string,
  { limit, offset, category }: { limit: number; offset: number; category?: string },
) {
  const { templates, total } = await listCataloguePage(accountId, limit, offset, category);
  return { templates, pagination: { limit, offset, total } };
}

/**
 * Where the account buys a paid catalogue template, as the dashboard's Buy button sends it: the processor's hosted
 * checkout (the same pending purchase and checkout the dashboard would make or reuse). Without a hosted checkout (no
 * processor, or the test-mode one, which would settle the purchase at once), the dashboard's catalogue, where Buy is.
 */
async function checkoutUrl(accountId: string, templateId: string): Promise<string> {
  const processor = getPaymentProcessor();
  if (!processor || processor.testMode) return catalogueUrl();
  const outcome = await processor.startTemplatePurchase({ accountId, templateId, returnUrl: catalogueUrl() });
  return outcome.completed ? catalogueUrl() : outcome.redirectUrl;
}

async function catalogueTemplateOrThrow(templateIdOrSlug: string): Promise<TemplateRecord> {
  const template = await findCatalogueTemplate(templateIdOrSlug);
  if (!template) throw errors.templateNotFound(`No public catalogue template "${templateIdOrSlug}"`);
  return template;
}

/**
 * Puts a catalogue template in the account's library without charging for it: a free one, or a paid one it bought
 * before (removed since), back as `purchased`. False for a paid one not bought. ALREADY_IN_LIBRARY for a free one there.
 */
async function addWithoutCharge(accountId: string, template: TemplateRecord): Promise<boolean> {
  if (Number(template.price) === 0) {
    await addLibraryEntry(accountId, template.id, { processor: "none" });
    return true;
  }
  return restorePurchasedEntry(accountId, template.id);
}

/**
 * POST /library: adds a free public catalogue template (by id or slug) to the account's library, or a paid one it
 * bought before (removed since). `created` is false when it was there already (the entry as it is). A paid one not
 * bought: PURCHASE_REQUIRED with its checkout, nothing added.
 */
export async function addCatalogueTemplate(
  accountId: string,
  templateIdOrSlug: string,
): Promise<{ entry: LibraryEntry; created: boolean }> {
  const template = await catalogueTemplateOrThrow(templateIdOrSlug);
  const existing = await findLibraryEntry(accountId, template.id);
  if (existing) return { entry: existing, created: false };
  let created = true;
  try {
    if (!(await addWithoutCharge(accountId, template)))
      throw errors.purchaseRequired(template, await checkoutUrl(accountId, template.id));
  } catch (error) {
    // A concurrent request added it first: the same answer as a repeated one.
    if (!(error instanceof AppError && error.code === "ALREADY_IN_LIBRARY")) throw error;
    created = false;
  }
  const entry = await findLibraryEntry(accountId, template.id);
  if (!entry) throw errors.templateNotFound();
  return { entry, created };
}

/** What the catalogue's Add or Buy did: the template is in the library, or the purchase goes on at a checkout. */
export type CatalogueAddition =
  | { outcome: "added" | "restored" | "purchased"; template: { id: string; name: string } }
  | { outcome: "checkout"; redirectUrl: string }
  | { outcome: "purchases_unavailable" };

/**
 * The dashboard catalogue's Add and Buy: what POST /library adds (a free template, or a paid one bought before, not
 * charged again), and a paid one not bought bought through the payment processor, which settles it at once (test
 * mode) or answers its hosted checkout. ALREADY_IN_LIBRARY for a free one there already; TEMPLATE_NOT_FOUND for one
 * not in the catalogue.
 */
export async function addOrBuyCatalogueTemplate(
  accountId: string,
  templateIdOrSlug: string,
): Promise<CatalogueAddition> {
  const template = await catalogueTemplateOrThrow(templateIdOrSlug);
  if (await addWithoutCharge(accountId, template))
    return { outcome: Number(template.price) === 0 ? "added" : "restored", template };
  const processor = getPaymentProcessor();
  if (!processor) return { outcome: "purchases_unavailable" };
  const purchase = await processor.startTemplatePurchase({
    accountId,
    templateId: template.id,
    returnUrl: catalogueUrl(),
  });
  return purchase.completed
    ? { outcome: "purchased", template }
    : { outcome: "checkout", redirectUrl: purchase.redirectUrl };
}

/** DELETE /library/{id}: takes a catalogue template out of the account's library, or TEMPLATE_NOT_FOUND. */
export async function removeCatalogueTemplate(accountId: string, templateId: string): Promise<void> {
  if (!(await removeCatalogueEntry(accountId, templateId)))
    throw errors.templateNotFound("No catalogue template with this id in your library");
}
