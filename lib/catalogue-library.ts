import "server-only";
import { getConfig } from "@/lib/config";
import { addLibraryEntry, findLibraryEntry, removeCatalogueEntry, restorePurchasedEntry } from "@/lib/db/library";
import { findCatalogueTemplate } from "@/lib/db/catalogue";
import { AppError, errors } from "@/lib/errors";
import { getPaymentProcessor } from "@/lib/payments";
import type { LibraryEntry } from "@/lib/schemas/library";

/**
 * Where the account buys a paid catalogue template, as the dashboard's Buy button sends it: the processor's hosted
 * checkout (the same pending purchase and checkout the dashboard would make or reuse). Without a hosted checkout (no
 * processor, or the test-mode one, which would settle the purchase at once), the dashboard's catalogue, where Buy is.
 */
async function checkoutUrl(accountId: string, templateId: string): Promise<string> {
  const catalogueUrl = `${getConfig().siteUrl}/dashboard/catalogue`;
  const processor = getPaymentProcessor();
  if (!processor || processor.testMode) return catalogueUrl;
  const outcome = await processor.startTemplatePurchase({ accountId, templateId, returnUrl: catalogueUrl });
  return outcome.completed ? catalogueUrl : outcome.redirectUrl;
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
  const template = await findCatalogueTemplate(templateIdOrSlug);
  if (!template) throw errors.templateNotFound(`No public catalogue template "${templateIdOrSlug}"`);
  const existing = await findLibraryEntry(accountId, template.id);
  if (existing) return { entry: existing, created: false };
  let created = true;
  try {
    if (Number(template.price) === 0) await addLibraryEntry(accountId, template.id, { processor: "none" });
    // Bought before and removed from the library since: back as `purchased`, not charged again.
    else if (!(await restorePurchasedEntry(accountId, template.id)))
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

/** DELETE /library/{id}: takes a catalogue template out of the account's library, or TEMPLATE_NOT_FOUND. */
export async function removeCatalogueTemplate(accountId: string, templateId: string): Promise<void> {
  if (!(await removeCatalogueEntry(accountId, templateId)))
    throw errors.templateNotFound("No catalogue template with this id in your library");
}
