import "server-only";
import { catalogue } from "@/lib/catalogue/catalogue";
import { isUuid } from "@/lib/core/schemas";
import { closestNameAmong } from "@/lib/render/analysis/variables";
import { findTemplateForAccount, listLibrary, listTemplateAliases } from "@/lib/templates/data/templates";

// What other domains read of a template (rendering, sending, the library, the dashboard's previews): the records as
// stored, passed through. Writing one is user-templates.ts.
export { findTemplateForAccount, listLibrary };
export type { RenderedVersion, TemplateRecord, VersionChoice } from "@/lib/templates/data/templates";
// What a component's update does to its dependents inside its own transaction (lib/components/data.ts).
export { auditPublish, publishLockedContent } from "@/lib/templates/data/versions";
export type { PublishedBy, TemplateContent } from "@/lib/templates/data/versions";

/** At most this many of the account's aliases are compared, however many templates it has. */
const MAX_SUGGESTED_ALIASES = 200;

/**
 * What the caller may have meant by `templateId`, an alias or slug that names nothing it may use: the closest of its
 * own aliases and the catalogue's slugs, when a slip of a few letters away (`welcom` → `welcome`); null for an id.
 */
export async function templateNameSuggestion(accountId: string, templateId: string): Promise<string | null> {
  if (isUuid(templateId)) return null;
  const aliases = await listTemplateAliases(accountId, MAX_SUGGESTED_ALIASES);
  return closestNameAmong(templateId, [...aliases, ...catalogue.map((entry) => entry.slug)]);
}
