import "server-only";
import type { ComponentPin } from "@/lib/render/sandbox/compile-result";
import { type Db, getDb, type Tx, jsonParameter } from "@/lib/db/client";
import { templateRef } from "@/lib/templates/alias";
import type { CompatibilityFinding } from "@/lib/render/analysis/warnings";
import type { LibraryEntry } from "@/lib/catalogue/library-schemas";
import type { VariablesSchema } from "@/lib/templates/variables-schema";
import type { TemplateFiles } from "@/lib/templates/files";
import type { TemplateLocale } from "@/lib/templates/messages";

export type TemplateRecord = {
  id: string;
  owner_account_id: string | null;
  slug: string | null;
  /** A user template's alias, unique within its account (null for catalogue templates). */
  alias: string | null;
  name: string;
  description: string;
  is_public: boolean;
  price: string;
  code: string;
  variables: VariablesSchema;
  /** A user template's PreviewProps as read when it was saved (null for catalogue templates and older saves). */
  preview_props: Record<string, unknown> | null;
  /** Email client support of the content's example render; null for a catalogue template and older content. */
  compatibility: CompatibilityFinding[] | null;
  compiled_code: string | null;
  /** A user template of several files: every file by its path (`code` is the entry's), and the entry's path. */
  files: TemplateFiles | null;
  entry: string | null;
  /** A user template with messages: its locales (alphabetical, each with its subject message) and default locale. */
  locales: TemplateLocale[] | null;
  default_locale: string | null;
  /** A user template built with shared components: their versions, by name (null: none). */
  components: ComponentPin[] | null;
  /** The internal counter of the content below: it moves whenever that content changes. */
  version: number;
  /** The published version (1 for catalogue templates); null before a user template's first publish. */
  published_version: number | null;
  category: string | null;
  author: string | null;
  preview_image_url: string | null;
  created_at: Date;
  updated_at: Date;
};

/**
 * The template id `idOrAlias` names for the account, as an expression of the statement that needs it (so resolving an
 * alias costs no round trip): the uuid itself, or the SQL function template_id_by_alias (the account's own alias first,
 * then a catalogue template's slug in its library). Null when it can name no template.
 */
export function templateIdSql(db: Db | Tx, accountId: string, idOrAlias: string) {
  const ref = templateRef(idOrAlias);
  if (!ref) return null;
  return ref.id !== null ? db`${ref.id}::uuid` : db`template_id_by_alias(${accountId}::uuid, ${ref.alias})`;
}

export type LibraryPage = { templates: LibraryEntry[]; total: number };

/** The library page (newest addition first) and the library's total size, by the SQL function `library_page`. */
export async function listLibrary(accountId: string, limit: number, offset: number): Promise<LibraryPage> {
  const [row] = await getDb()<{ page: LibraryPage }[]>`
    select library_page(${accountId}::uuid, ${limit}::int, ${offset}::int) as page`;
  return row.page;
}

/** A template in the account's library, by id or alias, in its own content (as findTemplateForAccount by default), or null. */
export async function findLibraryTemplate(
  accountId: string,
  templateId: string,
): Promise<(TemplateRecord & RenderedVersion & { added_via: string }) | null> {
  const db = getDb();
  const id = templateIdSql(db, accountId, templateId);
  if (!id) return null;
  const [row] = await db<(TemplateRecord & RenderedVersion & { added_via: string })[]>`
    select t.*, ${ownVersion(db)}, l.added_via from library_entries l join templates t on t.id = l.template_id
    where l.account_id = ${accountId} and l.template_id = ${id}`;
  return row ?? null;
}

/** The id of a template the account owns (a template it wrote), by id or alias, or null. */
export async function findOwnTemplateId(accountId: string, templateId: string): Promise<string | null> {
  const db = getDb();
  const id = templateIdSql(db, accountId, templateId);
  if (!id) return null;
  const [row] = await db<{ id: string }[]>`
    select id from templates where id = ${id} and owner_account_id = ${accountId}`;
  return row?.id ?? null;
}

/** The aliases of the account's own templates, at most `limit`, for a did-you-mean of a name that names nothing. */
export async function listTemplateAliases(accountId: string, limit: number): Promise<string[]> {
  const rows = await getDb()<{ alias: string }[]>`
    select alias from templates where owner_account_id = ${accountId} and alias is not null
    order by alias limit ${limit}`;
  return rows.map((row) => row.alias);
}

/** Which version to render: a published version's number, or the draft; the published version when left out. */
export type VersionChoice = number | "draft" | undefined;

/**
 * What a render of a template uses, besides its content: `content_key` names that content exactly (the sandbox keeps
 * a warm context, and the variables checker is kept, per key), and `template_version` is what emails record of it
 * (a number, or "draft"); null when the version asked for does not exist.
 */
export type RenderedVersion = { content_key: string; template_version: string | null };

export type TemplateForAccount = TemplateRecord & RenderedVersion & { in_library: boolean };

/** A template's own content (its published version's, or its draft's before a first publish), as RenderedVersion. */
const ownVersion = (db: Db) =>
  db`t.version::text as content_key, coalesce(t.published_version::text, 'draft') as template_version`;

/**
 * The content of `version` (see send_context.sql, which resolves it the same way): a published version's row, a
 * catalogue template's own as its version 1, or the draft. No row when the template has no such version.
 */
function versionContent(db: Db, version: number | "draft") {
  const number = version === "draft" ? null : version;
  return db`
    left join lateral (
      select v.code, v.files, v.entry, v.compiled_code, v.variables, v.preview_props, v.locales, v.default_locale,
             'v' || v.version as content_key, v.version::text as template_version
      from template_versions v where v.template_id = t.id and v.version = ${number}::int
      union all
      select t.code, t.files, t.entry, t.compiled_code, t.variables, t.preview_props, t.locales, t.default_locale,
             t.version::text, '1'
      where t.owner_account_id is null and ${number}::int = 1
      union all
      select d.code, d.files, d.entry, d.compiled_code, d.variables, d.preview_props, d.locales, d.default_locale,
             'draft:' || d.revision, 'draft'
      from template_drafts d where d.template_id = t.id and ${version === "draft"}::boolean
    ) r on true`;
}

/**
 * A template, by id or alias, plus whether it is in the account's library: what render access decisions need, with
 * the content of `version` (by default the template's own: its published version's, or its draft's before a first
 * publish). Null when there is no such template. `source: false` leaves out a user template's source (`code` and
 * `files` null), which a render to HTML does not read: a localized template's holds every messages file, read and
 * parsed on every render for nothing. A catalogue template's is always there (lib/render/access.ts keeps the free
 * ones for every render, React source included).
 */
export async function findTemplateForAccount(
  accountId: string,
  templateId: string,
  version?: VersionChoice,
  { source = true }: { source?: boolean } = {},
): Promise<TemplateForAccount | null> {
  const db = getDb();
  const id = templateIdSql(db, accountId, templateId);
  if (!id) return null;
  const withSource = db`${source}::boolean or t.owner_account_id is null`;
  const content =
    version === undefined
      ? db`case when ${withSource} then t.code end as code, case when ${withSource} then t.files end as files,
           t.entry, t.compiled_code, t.variables, t.preview_props, t.locales, t.default_locale, ${ownVersion(db)}`
      : db`case when ${withSource} then r.code end as code, case when ${withSource} then r.files end as files,
           r.entry, r.compiled_code, r.variables, r.preview_props, r.locales, r.default_locale,
           r.content_key, r.template_version`;
  const [row] = await db<TemplateForAccount[]>`
    select t.id, t.owner_account_id, t.slug, t.alias, t.name, t.description, t.is_public, t.price, t.version,
           t.published_version, t.category, t.author, t.preview_image_url, t.created_at, t.updated_at, ${content},
           exists (select from library_entries l where l.account_id = ${accountId} and l.template_id = t.id) as in_library
    from templates t ${version === undefined ? db`` : versionContent(db, version)}
    where t.id = ${id}`;
  return row ?? null;
}

export type ReadableTemplate = Pick<
  TemplateRecord,
  | "id"
  | "owner_account_id"
  | "slug"
  | "alias"
  | "name"
  | "description"
  | "is_public"
  | "price"
  | "category"
  | "author"
  | "updated_at"
  | "variables"
  | "preview_props"
  | "compatibility"
  | "published_version"
  | "locales"
  | "default_locale"
  | "components"
> & {
  added_via: "created" | "free" | "purchased" | null;
  /** The template's draft, null when it has none. */
  draft_revision: number | null;
  draft_updated_at: Date | null;
};

/**
 * A template the account may read the details of, by id or alias: one in its library (with how it got there), or any
 * public catalogue template (added_via null when not in the library). Null otherwise.
 */
export async function findReadableTemplate(accountId: string, templateId: string): Promise<ReadableTemplate | null> {
  const db = getDb();
  const id = templateIdSql(db, accountId, templateId);
  if (!id) return null;
  const [row] = await db<ReadableTemplate[]>`
    select t.id, t.owner_account_id, t.slug, t.alias, t.name, t.description, t.is_public, t.price, t.category, t.author,
           t.updated_at, t.variables, t.preview_props, t.compatibility, t.published_version, t.locales,
           t.default_locale, t.components, l.added_via,
           d.revision as draft_revision, d.updated_at as draft_updated_at
    from templates t
    left join library_entries l on l.template_id = t.id and l.account_id = ${accountId}
    left join template_drafts d on d.template_id = t.id
    where t.id = ${id} and (l.account_id is not null or (t.owner_account_id is null and t.is_public))`;
  return row ?? null;
}

/** What an example render of a template's current content needs: its compiled code and content counter. */
export async function findTemplateToCheck(
  templateId: string,
): Promise<Pick<TemplateRecord, "version" | "compiled_code"> | null> {
  const [row] = await getDb()<Pick<TemplateRecord, "version" | "compiled_code">[]>`
    select version, compiled_code from templates where id = ${templateId}`;
  return row ?? null;
}

/** Stores the email client support of a template's content, unless that content has changed meanwhile. */
export async function storeTemplateCompatibility(
  templateId: string,
  version: number,
  compatibility: CompatibilityFinding[],
): Promise<void> {
  const db = getDb();
  await db`update templates set compatibility = ${jsonParameter(db, compatibility)}
           where id = ${templateId} and version = ${version}`;
}
