import "server-only";
import { getDb, jsonParameter, type Tx } from "@/lib/db/client";
import { AppError, errors } from "@/lib/errors";
import { templateIdSql } from "@/lib/db/templates";
import type { VariablesSchema } from "@/lib/schemas/variables";
import type { TemplateFiles } from "@/lib/template-files";

/** What one save of a template holds: its source and what checkTemplate derived from it. */
export type TemplateContent = {
  /** The entry's source. */
  code: string;
  compiledCode: string | null;
  variables: VariablesSchema;
  previewProps: Record<string, unknown> | null;
  /** A template of several files: all of them, and the entry's path (both null, or left out, for one file). */
  files?: TemplateFiles | null;
  entry?: string | null;
};

export type DraftSummary = { revision: number; updated_at: Date };

export type VersionSummary = {
  version: number;
  created_at: Date;
  published_at: Date;
  code: string;
  files: TemplateFiles | null;
  entry: string | null;
  variables: VariablesSchema;
};

export const jsonOrNull = (db: Tx, value: unknown) =>
  value === null || value === undefined ? null : jsonParameter(db, value);

const versionColumns = (db: Tx | ReturnType<typeof getDb>) =>
  db`version, created_at, published_at, code, files, entry, variables`;

/**
 * The template the account owns (by id or alias), its row locked until the transaction ends: every save, publish and
 * restore of one template takes this lock first, so they happen one after another and none is lost. Null when it owns
 * no such one.
 */
export async function lockOwnTemplate(
  tx: Tx,
  accountId: string,
  templateId: string,
): Promise<{ id: string; published_version: number | null; draft_revision: number } | null> {
  const id = templateIdSql(tx, accountId, templateId);
  if (!id) return null;
  const [row] = await tx<{ id: string; published_version: number | null; draft_revision: number }[]>`
    select id, published_version, draft_revision from templates
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
  const variables = jsonParameter(tx, content.variables);
  const [{ draft_revision: revision, published_version: published }] = await tx<
    { draft_revision: number; published_version: number | null }[]
  >`update templates set draft_revision = draft_revision + 1 where id = ${templateId}
    returning draft_revision, published_version`;
  if (published === null) {
    await tx`
      update templates
      set code = ${content.code}, compiled_code = ${content.compiledCode}, variables = ${variables},
          preview_props = ${previewProps}, files = ${files}, entry = ${content.entry ?? null},
          version = version + 1, updated_at = now()
      where id = ${templateId}`;
  }
  const [draft] = await tx<DraftSummary[]>`
    insert into template_drafts (template_id, revision, code, files, entry, compiled_code, variables, preview_props)
    values (${templateId}, ${revision}, ${content.code}, ${files}, ${content.entry ?? null}, ${content.compiledCode},
            ${variables}, ${previewProps})
    on conflict (template_id) do update set
      revision = excluded.revision, code = excluded.code, files = excluded.files, entry = excluded.entry,
      compiled_code = excluded.compiled_code, variables = excluded.variables, preview_props = excluded.preview_props,
      updated_at = now()
    returning revision, updated_at`;
  return draft;
}

/**
 * Makes the draft of a locked template its next version, which renders and sends use from then on. A draft whose
 * source is the latest version's makes nothing new: that version is the answer. `revision`, when named, must be the
 * draft's (409 TEMPLATE_REVISION_MISMATCH); a revision already published answers the version it is in, so a publish
 * repeated (or racing another of the same draft) makes one version.
 */
export async function publishLockedDraft(
  tx: Tx,
  templateId: string,
  revision: number | undefined,
): Promise<VersionSummary> {
  const [draft] = await tx<{ revision: number; same_as_latest: boolean }[]>`
    select d.revision,
           coalesce((select v.code = d.code and v.entry is not distinct from d.entry
                            and v.files::text is not distinct from d.files::text
                     from template_versions v where v.template_id = d.template_id order by v.version desc limit 1),
                    false) as same_as_latest
    from template_drafts d where d.template_id = ${templateId}`;
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
  if (draft.same_as_latest) {
    await tx`delete from template_drafts where template_id = ${templateId}`;
    const [latest] = await tx<VersionSummary[]>`
      select ${versionColumns(tx)} from template_versions where template_id = ${templateId}
      order by version desc limit 1`;
    return latest;
  }
  const [published] = await tx<VersionSummary[]>`
    insert into template_versions (template_id, version, code, files, entry, compiled_code, variables, preview_props,
                                   created_at)
    select d.template_id,
           coalesce((select max(v.version) from template_versions v where v.template_id = d.template_id), 0) + 1,
           d.code, d.files, d.entry, d.compiled_code, d.variables, d.preview_props, d.updated_at
    from template_drafts d where d.template_id = ${templateId}
    returning ${versionColumns(tx)}`;
  await tx`
    update templates t
    set code = d.code, files = d.files, entry = d.entry, compiled_code = d.compiled_code, variables = d.variables,
        preview_props = d.preview_props, published_version = ${published.version}, version = t.version + 1,
        updated_at = now()
    from template_drafts d where d.template_id = t.id and t.id = ${templateId}`;
  await tx`delete from template_drafts where template_id = ${templateId}`;
  return published;
}

async function findVersion(db: Tx, templateId: string, version: number): Promise<VersionSummary | null> {
  const [row] = await db<VersionSummary[]>`
    select ${versionColumns(db)} from template_versions where template_id = ${templateId} and version = ${version}`;
  return row ?? null;
}

/** POST /templates/{id}/publish: the version the draft became (or already was). Null when the account owns no such template. */
export async function publishDraft(
  accountId: string,
  templateId: string,
  revision: number | undefined,
): Promise<VersionSummary | null> {
  return getDb().begin(async (tx) => {
    const template = await lockOwnTemplate(tx, accountId, templateId);
    if (!template) return null;
    return publishLockedDraft(tx, template.id, revision);
  });
}

/**
 * Copies version `version` into the draft, and with `publish` publishes it at once. Null when the account owns no
 * such template; 404 VERSION_NOT_FOUND when it has no such version.
 */
export async function restoreVersion(
  accountId: string,
  templateId: string,
  version: number,
  publish: boolean,
): Promise<{ draft: DraftSummary | null; version?: VersionSummary } | null> {
  return getDb().begin(async (tx) => {
    const template = await lockOwnTemplate(tx, accountId, templateId);
    if (!template) return null;
    const [content] = await tx<TemplateContent[]>`
      select code, files, entry, compiled_code as "compiledCode", variables, preview_props as "previewProps"
      from template_versions where template_id = ${template.id} and version = ${version}`;
    if (!content) throw errors.versionNotFound(version);
    const draft = await writeDraft(tx, template.id, content);
    if (!publish) return { draft };
    return { draft: null, version: await publishLockedDraft(tx, template.id, draft.revision) };
  });
}

export type VersionsPage = { versions: VersionSummary[]; draft: DraftSummary | null; total: number };

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
  const versions = await db<VersionSummary[]>`
    select ${versionColumns(db)} from template_versions where template_id = ${template.id}
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
): Promise<{ version: VersionSummary | null } | null> {
  const db = getDb();
  const id = templateIdSql(db, accountId, templateId);
  if (!id) return null;
  const [row] = await db<(Partial<VersionSummary> & { found: boolean })[]>`
    select v.version is not null as found, v.version, v.created_at, v.published_at, v.code, v.files, v.entry,
           v.variables
    from templates t left join template_versions v on v.template_id = t.id and v.version = ${version}
    where t.id = ${id} and t.owner_account_id = ${accountId}`;
  if (!row) return null;
  const { found, ...summary } = row;
  return { version: found ? (summary as VersionSummary) : null };
}
