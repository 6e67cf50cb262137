import "server-only";
import { insertAuditEntry } from "@/lib/audit/service";
import type postgres from "postgres";
import { getDb, jsonParameter, type Tx } from "@/lib/db/client";
import { AppError, errors } from "@/lib/core/errors";
import { templateIdSql } from "@/lib/templates/data/templates";
import type { CompatibilityFinding } from "@/lib/render/analysis/warnings";
import type { VariablesSchema } from "@/lib/templates/variables-schema";
import type { TemplateFiles } from "@/lib/templates/files";
import type { TemplateLocale } from "@/lib/templates/messages";
import type { ComponentPin } from "@/lib/render/sandbox/compile-result";
import { findDraftPins, holdCurrentPins, holdPinnedComponents } from "@/lib/components/sources";

/** What one save of a template holds: its source and what checkTemplate derived from it. */
export type TemplateContent = {
  /** The entry's source. */
  code: string;
  compiledCode: string | null;
  variables: VariablesSchema;
  previewProps: Record<string, unknown> | null;
  /** Email client support of its example's render (null, or left out: not known, as for content saved before). */
  compatibility?: CompatibilityFinding[] | null;
  /** A template of several files: all of them, and the entry's path (both null, or left out, for one file). */
  files?: TemplateFiles | null;
  entry?: string | null;
  /** A template with messages: its locales (each with its subject message) and default locale; null, or left out, for none. */
  locales?: TemplateLocale[] | null;
  defaultLocale?: string | null;
  /** The shared components its compiled code was linked with, by name (null, or left out, for none). */
  components?: ComponentPin[] | null;
};

export type DraftSummary = { revision: number; updated_at: Date };

/** Who publishes a version: an API key, a signed-in session (the dashboard, or the API from it) or the admin CLI. */
export type PublishedBy = { via: "api_key"; keyId: string } | { via: "session" } | { via: "cli" };

/** A version in a list, with who published it (null before that was recorded) and the key's name. */
export type ListedVersion = VersionSummary & {
  published_via: PublishedBy["via"] | null;
  published_by_key: string | null;
};

/** A version as lists show it: not its source, which may be a megabyte (findOwnVersion reads that). */
export type VersionSummary = {
  version: number;
  created_at: Date;
  published_at: Date;
  entry: string | null;
  variables: VariablesSchema;
  components: ComponentPin[] | null;
  /** Why Letterpress published it itself (an update of a component it imports); null when someone did. */
  reason: string | null;
};

export type VersionWithFiles = VersionSummary & { code: string; files: TemplateFiles | null };

export const jsonOrNull = (db: Tx, value: unknown) =>
  value === null || value === undefined ? null : jsonParameter(db, value);

/** A value for a `jsonb` column (whose key order does not matter), or null. */
const jsonbOrNull = (db: Tx, value: unknown) =>
  value === null || value === undefined ? null : db.json(value as postgres.JSONValue);

const versionColumns = (db: Tx | ReturnType<typeof getDb>) =>
  db`version, created_at, published_at, entry, variables, components, reason`;

type LockedTemplate = { id: string; name: string; published_version: number | null; draft_revision: number };

/**
 * A template's entry, named by its name. `published`: the version a publish answered, logged only when it is a new
 * one (publishing what is already the latest version changes nothing).
 */
export async function auditTemplate(
  tx: Tx,
  accountId: string,
  action: "template.created" | "template.published" | "template.restored" | "template.deleted",
  template: { id: string; name: string },
  details?: Record<string, number | boolean>,
): Promise<void> {
  await insertAuditEntry(tx, {
    accountId,
    action,
    target: { type: "template", id: template.id, label: template.name },
    details,
  });
}

/** template.published for a publish that made a new version of the locked template (a restore is template.restored). */
export async function auditPublish(tx: Tx, accountId: string, locked: LockedTemplate, published: VersionSummary) {
  if (published.version !== locked.published_version)
    await auditTemplate(tx, accountId, "template.published", locked, { version: published.version });
}

/**
 * The template the account owns (by id or alias), its row locked until the transaction ends: every save, publish and
 * restore of one template takes this lock first, so they happen one after another and none is lost. Null when it owns
 * no such one.
 */
export async function lockOwnTemplate(tx: Tx, accountId: string, templateId: string): Promise<LockedTemplate | null> {
  const id = templateIdSql(tx, accountId, templateId);
  if (!id) return null;
  const [row] = await tx<LockedTemplate[]>`
    select id, name, published_version, draft_revision from templates
    where id = ${id} and owner_account_id = ${accountId} for update`;
  return row ?? null;
}

/**
 * Replaces the draft of a locked template with `content` under the next revision. Before a first publish the draft
 * is also what renders by default, so the template's own columns take it too (and their content counter moves).
 */
export async function writeDraft(tx: Tx, templateId: string, content: TemplateContent): Promise<DraftSummary> {
  const files = jsonOrNull(tx, content.files);
  const previewProps = jsonOrNull(tx, content.previewProps);
  const compatibility = jsonOrNull(tx, content.compatibility);
  const locales = jsonOrNull(tx, content.locales);
  const defaultLocale = content.defaultLocale ?? null;
  const components = jsonbOrNull(tx, content.components);
  const variables = jsonParameter(tx, content.variables);
  const [{ draft_revision: revision, published_version: published }] = await tx<
    { draft_revision: number; published_version: number | null }[]
  >`update templates set draft_revision = draft_revision + 1 where id = ${templateId}
    returning draft_revision, published_version`;
  if (published === null) {
    await tx`
      update templates
      set code = ${content.code}, compiled_code = ${content.compiledCode}, variables = ${variables},
          preview_props = ${previewProps}, compatibility = ${compatibility}, files = ${files},
          entry = ${content.entry ?? null}, locales = ${locales}, default_locale = ${defaultLocale},
          components = ${components}, version = version + 1, updated_at = now()
      where id = ${templateId}`;
  }
  const [draft] = await tx<DraftSummary[]>`
    insert into template_drafts (template_id, revision, code, files, entry, compiled_code, variables, preview_props,
                                 compatibility, locales, default_locale, components)
    values (${templateId}, ${revision}, ${content.code}, ${files}, ${content.entry ?? null}, ${content.compiledCode},
            ${variables}, ${previewProps}, ${compatibility}, ${locales}, ${defaultLocale}, ${components})
    on conflict (template_id) do update set
      revision = excluded.revision, code = excluded.code, files = excluded.files, entry = excluded.entry,
      compiled_code = excluded.compiled_code, variables = excluded.variables, preview_props = excluded.preview_props,
      compatibility = excluded.compatibility, locales = excluded.locales, default_locale = excluded.default_locale,
      components = excluded.components, updated_at = now()
    returning revision, updated_at`;
  return draft;
}

/**
 * Makes `content` the next version of a locked template, which renders and sends use from then on; its draft, if any,
 * is left as it is. Content whose source is the latest version's makes nothing new: that version is the answer.
 * `createdAt`: when the content was saved (a draft's last save), by default now.
 */
export async function publishLockedContent(
  tx: Tx,
  templateId: string,
  content: TemplateContent,
  publishedBy: PublishedBy | null,
  createdAt?: Date,
  reason: string | null = null,
): Promise<VersionSummary> {
  const files = jsonOrNull(tx, content.files);
  const components = jsonbOrNull(tx, content.components);
  const [latest] = await tx<(VersionSummary & { same: boolean })[]>`
    select ${versionColumns(tx)},
           code = ${content.code} and entry is not distinct from ${content.entry ?? null}
             and files::text is not distinct from ${files}::json::text
             and default_locale is not distinct from ${content.defaultLocale ?? null}
             and components is not distinct from ${components}::jsonb as same
    from template_versions where template_id = ${templateId} order by version desc limit 1`;
  if (latest?.same) {
    const { same: _same, ...version } = latest;
    return version;
  }
  const previewProps = jsonOrNull(tx, content.previewProps);
  const compatibility = jsonOrNull(tx, content.compatibility);
  const locales = jsonOrNull(tx, content.locales);
  const defaultLocale = content.defaultLocale ?? null;
  const variables = jsonParameter(tx, content.variables);
  const [published] = await tx<VersionSummary[]>`
    insert into template_versions (template_id, version, code, files, entry, compiled_code, variables, preview_props,
                                   compatibility, locales, default_locale, components, reason, created_at,
                                   published_via, published_by_key_id)
    values (${templateId}, ${(latest?.version ?? 0) + 1}, ${content.code}, ${files}, ${content.entry ?? null},
            ${content.compiledCode}, ${variables}, ${previewProps}, ${compatibility}, ${locales}, ${defaultLocale},
            ${components}, ${reason},
            ${createdAt ?? new Date()}, ${publishedBy?.via ?? null},
            ${publishedBy?.via === "api_key" ? publishedBy.keyId : null})
    returning ${versionColumns(tx)}`;
  await tx`
    update templates
    set code = ${content.code}, files = ${files}, entry = ${content.entry ?? null},
        compiled_code = ${content.compiledCode}, variables = ${variables}, preview_props = ${previewProps},
        compatibility = ${compatibility}, locales = ${locales}, default_locale = ${defaultLocale},
        components = ${components}, published_version = ${published.version}, version = version + 1,
        updated_at = now()
    where id = ${templateId}`;
  return published;
}

/**
 * Makes the draft of a locked template its next version (publishLockedContent) and removes the draft. `revision`,
 * when named, must be the draft's (409 TEMPLATE_REVISION_MISMATCH); a revision already published answers the version
 * it is in, so a publish repeated (or racing another of the same draft) makes one version.
 */
export async function publishLockedDraft(
  tx: Tx,
  accountId: string,
  templateId: string,
  revision: number | undefined,
  publishedBy: PublishedBy | null,
  seen?: SeenDraft,
): Promise<VersionSummary | DraftChanged> {
  const [draft] = await tx<(TemplateContent & { revision: number; updated_at: Date })[]>`
    select revision, updated_at, code, files, entry, compiled_code as "compiledCode", variables,
           preview_props as "previewProps", compatibility, locales, default_locale as "defaultLocale", components
    from template_drafts where template_id = ${templateId}`;
  if (!draft) {
    const [template] = await tx<{ draft_revision: number; published_version: number | null }[]>`
      select draft_revision, published_version from templates where id = ${templateId}`;
    if (revision !== undefined && revision === template.draft_revision && template.published_version !== null)
      return (await findVersion(tx, templateId, template.published_version))!;
    throw new AppError("NO_DRAFT", { message: "This template has no draft to publish" });
  }
  if (revision !== undefined && revision !== draft.revision) {
    throw new AppError("TEMPLATE_REVISION_MISMATCH", {
      message: `The draft is at revision ${draft.revision}, not ${revision}: it was saved again since. Read it and publish again.`,
    });
  }
  if (seen && seen.revision !== draft.revision) return DRAFT_CHANGED;
  const content = seen?.rebuilt ?? draft;
  // A published version is built with published components only (a component's draft is a draft's alone).
  const unpublished = await findDraftPins(tx, accountId, content.components ?? []);
  if (unpublished.length > 0) throw errors.componentNotPublished(unpublished);
  const published = await publishLockedContent(tx, templateId, content, publishedBy, draft.updated_at);
  await tx`delete from template_drafts where template_id = ${templateId}`;
  return published;
}

async function findVersion(db: Tx, templateId: string, version: number): Promise<VersionSummary | null> {
  const [row] = await db<VersionSummary[]>`
    select ${versionColumns(db)} from template_versions where template_id = ${templateId} and version = ${version}`;
  return row ?? null;
}

/**
 * The draft as its publish read it, before its transaction: its revision and pins, and, when a component it pins was
 * updated since it was saved, its content built again with the components' current versions (what is published in
 * its place). A draft saved again since `revision` is read again.
 */
export type SeenDraft = { revision: number; pins: ComponentPin[]; rebuilt?: TemplateContent };

/** The draft was saved again while it was being built again: read it again. */
export const DRAFT_CHANGED = "draft_changed";
export type DraftChanged = typeof DRAFT_CHANGED;

/**
 * POST /templates/{id}/publish: the version the draft (or the `seen` one built again) became, or already was. Null
 * when the account owns no such template. The draft's components are held first, in the order a component's update
 * locks them; one updated since `seen` was read throws PinnedComponentChanged.
 */
export async function publishDraft(
  accountId: string,
  templateId: string,
  revision: number | undefined,
  publishedBy: PublishedBy | null,
  seen?: SeenDraft,
): Promise<VersionSummary | DraftChanged | null> {
  return getDb().begin(async (tx) => {
    if (seen?.rebuilt) await holdPinnedComponents(tx, accountId, seen.rebuilt.components, false);
    else if (seen) await holdCurrentPins(tx, accountId, seen.pins);
    const template = await lockOwnTemplate(tx, accountId, templateId);
    if (!template) return null;
    const published = await publishLockedDraft(tx, accountId, template.id, revision, publishedBy, seen);
    if (published === DRAFT_CHANGED) return published;
    await auditPublish(tx, accountId, template, published);
    return published;
  });
}

/**
 * Copies version `version` into the draft; with `publish`, publishes it as the next version instead, leaving the
 * draft (work in progress, perhaps) as it is. Null when the account owns no such template; 404 VERSION_NOT_FOUND when
 * it has no such version.
 */
export async function restoreVersion(
  accountId: string,
  templateId: string,
  version: number,
  publish: boolean,
  publishedBy: PublishedBy | null,
): Promise<{ draft: DraftSummary | null; version?: VersionSummary } | null> {
  return getDb().begin(async (tx) => {
    const template = await lockOwnTemplate(tx, accountId, templateId);
    if (!template) return null;
    const [content] = await tx<TemplateContent[]>`
      select code, files, entry, compiled_code as "compiledCode", variables, preview_props as "previewProps",
             compatibility, locales, default_locale as "defaultLocale", components
      from template_versions where template_id = ${template.id} and version = ${version}`;
    if (!content) throw errors.versionNotFound(version);
    await auditTemplate(tx, accountId, "template.restored", template, { version, published: publish });
    if (!publish) return { draft: await writeDraft(tx, template.id, content) };
    const published = await publishLockedContent(tx, template.id, content, publishedBy);
    const [draft] = await tx<DraftSummary[]>`
      select revision, updated_at from template_drafts where template_id = ${template.id}`;
    return { draft: draft ?? null, version: published };
  });
}

export type VersionsPage = { versions: ListedVersion[]; draft: DraftSummary | null; total: number };

/** A page of the versions of a template the account owns (newest first) and its draft; null when it owns none. */
export async function listVersions(
  accountId: string,
  templateId: string,
  limit: number,
  offset: number,
): Promise<VersionsPage | null> {
  const db = getDb();
  const id = templateIdSql(db, accountId, templateId);
  if (!id) return null;
  const [template] = await db<{ id: string; total: number; revision: number | null; updated_at: Date | null }[]>`
    select t.id, (select count(*)::int from template_versions v where v.template_id = t.id) as total, d.revision,
           d.updated_at
    from templates t left join template_drafts d on d.template_id = t.id
    where t.id = ${id} and t.owner_account_id = ${accountId}`;
  if (!template) return null;
  const versions = await db<ListedVersion[]>`
    select ${versionColumns(db)}, published_via,
           (select k.name from api_keys k where k.id = published_by_key_id) as published_by_key
    from template_versions where template_id = ${template.id}
    order by version desc limit ${limit} offset ${offset}`;
  const draft = template.revision === null ? null : { revision: template.revision, updated_at: template.updated_at! };
  return { versions, draft, total: template.total };
}

/**
 * Version `version` of a template the account owns, with its files: null when it owns no such template, and
 * `{ version: null }` when the template has no such version.
 */
export async function findOwnVersion(
  accountId: string,
  templateId: string,
  version: number,
): Promise<{ version: VersionWithFiles | null } | null> {
  const db = getDb();
  const id = templateIdSql(db, accountId, templateId);
  if (!id) return null;
  const [row] = await db<(Partial<VersionWithFiles> & { found: boolean })[]>`
    select v.version is not null as found, v.version, v.created_at, v.published_at, v.code, v.files, v.entry,
           v.variables, v.components, v.reason
    from templates t left join template_versions v on v.template_id = t.id and v.version = ${version}
    where t.id = ${id} and t.owner_account_id = ${accountId}`;
  if (!row) return null;
  const { found, ...summary } = row;
  return { version: found ? (summary as VersionWithFiles) : null };
}
