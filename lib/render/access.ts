import "server-only";
import { errors } from "@/lib/core/errors";
import {
  findTemplateForAccount,
  templateNameSuggestion,
  type RenderedVersion,
  type TemplateRecord,
  type VersionChoice,
} from "@/lib/templates/service";

// Public free catalogue templates render for everyone, so their rows need no per-account lookup: keep them in
// process for a minute (a reseed shows up within that time) and save the hot path a database round trip.
const CATALOGUE_TTL_MS = 60_000;
const freeCatalogue = new Map<string, { template: RenderableRecord; expiresAt: number }>();

/** A template in the version rendered (its content, and what names it). */
export type RenderableRecord = TemplateRecord & RenderedVersion & { template_version: string };
/** A RenderableRecord whose source a user template's render to HTML left out (findTemplateForAccount's `source`). */
export type RenderableWithoutSource = Omit<RenderableRecord, "code" | "files"> & {
  code: string | null;
  files: TemplateRecord["files"];
};

/**
 * Who may render what (`templateId` an id or alias): templates in the caller's library, and public free catalogue
 * templates. A public paid catalogue template not purchased is a 403 that says what to buy; everything else is
 * indistinguishable from a template that does not exist (404), so ids of other users' templates leak nothing. Then
 * `version` (by default the template's own content): 404 VERSION_NOT_FOUND when the template has no such version.
 */
export async function getRenderableTemplateOrThrow(
  accountId: string,
  templateId: string,
  version?: VersionChoice,
): Promise<RenderableRecord>;
export async function getRenderableTemplateOrThrow(
  accountId: string,
  templateId: string,
  version: VersionChoice,
  options: { source: false },
): Promise<RenderableWithoutSource>;
export async function getRenderableTemplateOrThrow(
  accountId: string,
  templateId: string,
  version?: VersionChoice,
  { source = true }: { source?: boolean } = {},
): Promise<RenderableRecord | RenderableWithoutSource> {
  // Cached free catalogue templates are their version 1, and have no draft.
  const cached = cachedFreeCatalogueTemplate(templateId);
  if (cached && (version === undefined || version === 1)) return cached;
  if (cached) throw errors.versionNotFound(version!);

  const found = await findTemplateForAccount(accountId, templateId, version, { source });
  if (!found) {
    const suggestion = await templateNameSuggestion(accountId, templateId);
    throw errors.templateNotFound(suggestion ? `Did you mean ${suggestion}?` : undefined);
  }
  const { in_library: inLibrary, ...template } = found;
  const isFree = isFreeCatalogueTemplate(template);
  if (inLibrary || isFree) {
    if (!hasVersion(template)) throw errors.versionNotFound(version!);
    // Kept by id: what an alias or slug names depends on the account.
    if (isFree && version === undefined)
      freeCatalogue.set(template.id, { template, expiresAt: Date.now() + CATALOGUE_TTL_MS });
    return template;
  }
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

const hasVersion = (template: TemplateRecord & RenderedVersion): template is RenderableRecord =>
  template.template_version !== null;

function cachedFreeCatalogueTemplate(templateId: string): RenderableRecord | null {
  const cached = freeCatalogue.get(templateId);
  return cached && cached.expiresAt > Date.now() ? cached.template : null;
}
