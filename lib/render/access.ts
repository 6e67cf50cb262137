import "server-only";
import { errors } from "@/lib/errors";
import { findTemplateForAccount, type TemplateRecord } from "@/lib/db/templates";

// Public free catalogue templates render for everyone, so their rows need no per-account lookup: keep them in
// process for a minute (a reseed shows up within that time) and save the hot path a database round trip.
const CATALOGUE_TTL_MS = 60_000;
const freeCatalogue = new Map<string, { template: TemplateRecord; expiresAt: number }>();

/**
 * Who may render what (`templateId` an id or alias): templates in the caller's library, and public free catalogue
 * templates. A public paid catalogue template not purchased is a 403 that says what to buy; everything else is
 * indistinguishable from a template that does not exist (404), so ids of other users' templates leak nothing.
 */
export async function getRenderableTemplateOrThrow(accountId: string, templateId: string): Promise<TemplateRecord> {
  const cached = cachedFreeCatalogueTemplate(templateId);
  if (cached) return cached;

  const found = await findTemplateForAccount(accountId, templateId);
  if (!found) throw errors.templateNotFound();
  const { in_library: inLibrary, ...template } = found;
  const isFree = isFreeCatalogueTemplate(template);
  // Kept by id: what an alias or slug names depends on the account.
  if (isFree) freeCatalogue.set(template.id, { template, expiresAt: Date.now() + CATALOGUE_TTL_MS });
  if (inLibrary || isFree) return template;
  if (template.owner_account_id === null && template.is_public) {
    throw errors.templateAccessDenied({
      id: template.id,
      title: template.name,
      price: Number(template.price).toFixed(2),
    });
  }
  throw errors.templateNotFound();
}

/** A public catalogue template that costs nothing: anyone may render it and download its source. */
export function isFreeCatalogueTemplate(template: Pick<TemplateRecord, "owner_account_id" | "is_public" | "price">) {
  return template.owner_account_id === null && template.is_public && Number(template.price) === 0;
}

function cachedFreeCatalogueTemplate(templateId: string): TemplateRecord | null {
  const cached = freeCatalogue.get(templateId);
  return cached && cached.expiresAt > Date.now() ? cached.template : null;
}
