import "server-only";
import { AppError, errors } from "@/lib/core/errors";
import { findOwnDraft, type DraftContent } from "@/lib/templates/data/drafts";
import { findStalePins, PinnedComponentChanged } from "@/lib/components/sources";
import { checkTemplate, SAVE_ATTEMPTS, storedSource } from "@/lib/templates/user-templates";
import {
  DRAFT_CHANGED,
  findOwnVersion,
  listVersions,
  publishDraft,
  restoreVersion,
  type DraftSummary,
  type ListedVersion,
  type PublishedBy,
  type VersionSummary,
} from "@/lib/templates/data/versions";
import { SINGLE_FILE } from "@/lib/templates/files";
import { pinsShown } from "@/lib/templates/details";
import { MAX_VERSION_NUMBER } from "@/lib/core/limits";
import { deliverWebhookSoon } from "@/lib/webhooks/delivery";

// The dashboard's template pages show the draft and the versions as stored.
export { findOwnDraft, listVersions, type DraftContent, type ListedVersion, type VersionSummary };

/** A version number in a path: plain decimal digits, 1 up to MAX_VERSION_NUMBER; anything else is a 400 naming `n`. */
export function parseVersionNumber(raw: string): number {
  const version = /^[1-9]\d{0,9}$/.test(raw) ? Number(raw) : NaN;
  if (!(version <= MAX_VERSION_NUMBER))
    throw errors.validation([{ field: "n", message: "must be a version number: an integer from 1" }]);
  return version;
}

/** A version as the API answers it; a template of one file has that file as its entry. */
function versionBody(version: VersionSummary) {
  return {
    version: version.version,
    created_at: version.created_at.toISOString(),
    published_at: version.published_at.toISOString(),
    entry: version.entry ?? SINGLE_FILE,
    variables: version.variables,
    ...(version.components?.length ? { components: pinsShown(version.components) } : {}),
    ...(version.reason ? { reason: version.reason } : {}),
  };
}

const draftBody = (draft: DraftSummary | null) =>
  draft && { revision: draft.revision, updated_at: draft.updated_at.toISOString() };

/** Who an API call publishes as: its key, or the signed-in session it came with. */
export function publishedByCaller(caller: { apiKey: { id: string } | null }): PublishedBy {
  return caller.apiKey ? { via: "api_key", keyId: caller.apiKey.id } : { via: "session" };
}

/** POST /templates/{id}/publish. */
export async function publishTemplateOrThrow(
  accountId: string,
  templateId: string,
  revision: number | undefined,
  publishedBy: PublishedBy,
) {
  const published = await publishedWithCurrentComponents(accountId, templateId, revision, publishedBy);
  if (!published) throw errors.templateNotFound();
  deliverWebhookSoon(accountId); // its template.published event
  return { success: true as const, version: versionBody(published) };
}

/**
 * Publishes the draft; a draft built with a component an update has since changed (a new footer republished every
 * published version) is built again with the components' current versions first, so that publishing it never brings
 * the old footer back. Its build is checked as a save's (400 or 422 when the new version breaks it); a save of the
 * draft or of a component in between makes it start over, a few times.
 */
async function publishedWithCurrentComponents(
  accountId: string,
  templateId: string,
  revision: number | undefined,
  publishedBy: PublishedBy,
): Promise<VersionSummary | null> {
  for (let attempt = 1; ; attempt++) {
    const draft = await findOwnDraft(accountId, templateId);
    const pins = draft?.components ?? [];
    const stale = draft ? await findStalePins(accountId, pins) : [];
    const seen = draft && {
      revision: draft.revision,
      pins,
      ...(stale.length > 0 ? { rebuilt: await checkTemplate(accountId, storedSource(draft)) } : {}),
    };
    try {
      const published = await publishDraft(accountId, templateId, revision, publishedBy, seen ?? undefined);
      if (published !== DRAFT_CHANGED) return published;
      if (attempt === SAVE_ATTEMPTS)
        throw new AppError("TEMPLATE_REVISION_MISMATCH", {
          message: "The draft kept being saved again while it was published: read it and publish again.",
        });
    } catch (error) {
      if (!(error instanceof PinnedComponentChanged)) throw error;
      if (attempt === SAVE_ATTEMPTS || error.nowVersion === undefined) throw error.refusal();
    }
  }
}

/** GET /templates/{id}/versions. */
export async function listTemplateVersionsOrThrow(
  accountId: string,
  templateId: string,
  limit: number,
  offset: number,
) {
  const page = await listVersions(accountId, templateId, limit, offset);
  if (!page) throw errors.templateNotFound();
  return {
    success: true as const,
    versions: page.versions.map(versionBody),
    draft: draftBody(page.draft),
    pagination: { limit, offset, total: page.total },
  };
}

/** GET /templates/{id}/versions/{n}: the version with its files. */
export async function getTemplateVersionOrThrow(accountId: string, templateId: string, rawVersion: string) {
  const version = parseVersionNumber(rawVersion);
  const found = await findOwnVersion(accountId, templateId, version);
  if (!found) throw errors.templateNotFound();
  if (!found.version) throw errors.versionNotFound(version);
  const files = found.version.files ?? { [SINGLE_FILE]: found.version.code };
  return { success: true as const, version: { ...versionBody(found.version), files } };
}

/** POST /templates/{id}/versions/{n}/restore. */
export async function restoreTemplateVersionOrThrow(
  accountId: string,
  templateId: string,
  rawVersion: string,
  publish: boolean,
  publishedBy: PublishedBy,
) {
  const version = parseVersionNumber(rawVersion);
  const restored = await restoreVersion(accountId, templateId, version, publish, publishedBy);
  if (!restored) throw errors.templateNotFound();
  if (restored.version) deliverWebhookSoon(accountId); // its template.published event
  return {
    success: true as const,
    draft: draftBody(restored.draft),
    ...(restored.version ? { version: versionBody(restored.version) } : {}),
  };
}
