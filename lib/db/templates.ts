import "server-only";
import { type Db, getDb, type Tx, jsonParameter } from "@/lib/db/client";
import { holdsNul, isUuid } from "@/lib/schemas/common";
import { isTemplateAlias } from "@/lib/template-alias";
import type { SendingDomain } from "@/lib/db/domains";
import type { CompatibilityFinding } from "@/lib/render/warnings";
import type { CatalogueEntry } from "@/lib/schemas/catalogue";
import type { LibraryEntry } from "@/lib/schemas/library";
import type { VariablesSchema } from "@/lib/schemas/variables";
import type { TemplateFiles } from "@/lib/template-files";

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
 * What names a template wherever an id is taken (paths under /templates/{id}, `template_id` in sends): a uuid is always
 * an id; anything else that could be an alias is one (or a catalogue slug). Null when it can name no template, so no
 * SQL runs for it.
 */
export function templateRef(idOrAlias: string): { id: string; alias: null } | { id: null; alias: string } | null {
  if (isUuid(idOrAlias)) return { id: idOrAlias, alias: null };
  return isTemplateAlias(idOrAlias) ? { id: null, alias: idOrAlias } : null;
}

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
      select v.code, v.files, v.entry, v.compiled_code, v.variables, v.preview_props, 'v' || v.version as content_key,
             v.version::text as template_version
      from template_versions v where v.template_id = t.id and v.version = ${number}::int
      union all
      select t.code, t.files, t.entry, t.compiled_code, t.variables, t.preview_props, t.version::text, '1'
      where t.owner_account_id is null and ${number}::int = 1
      union all
      select d.code, d.files, d.entry, d.compiled_code, d.variables, d.preview_props, 'draft:' || d.revision, 'draft'
      from template_drafts d where d.template_id = t.id and ${version === "draft"}::boolean
    ) r on true`;
}

/**
 * A template, by id or alias, plus whether it is in the account's library: what render access decisions need, with
 * the content of `version` (by default the template's own: its published version's, or its draft's before a first
 * publish). Null when there is no such template.
 */
export async function findTemplateForAccount(
  accountId: string,
  templateId: string,
  version?: VersionChoice,
): Promise<TemplateForAccount | null> {
  const db = getDb();
  const id = templateIdSql(db, accountId, templateId);
  if (!id) return null;
  const content =
    version === undefined
      ? db`t.code, t.files, t.entry, t.compiled_code, t.variables, t.preview_props, ${ownVersion(db)}`
      : db`r.code, r.files, r.entry, r.compiled_code, r.variables, r.preview_props, r.content_key, r.template_version`;
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
           t.updated_at, t.variables, t.preview_props, t.compatibility, t.published_version, l.added_via,
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

export type CatalogueListing = Pick<
  TemplateRecord,
  | "id"
  | "slug"
  | "name"
  | "description"
  | "price"
  | "is_public"
  | "category"
  | "author"
  | "preview_image_url"
  | "updated_at"
>;

export async function listCatalogue(): Promise<CatalogueListing[]> {
  return getDb()<CatalogueListing[]>`
    select id, slug, name, description, price, is_public, category, author, preview_image_url, updated_at
    from templates where owner_account_id is null and is_public order by price = 0 desc, name`;
}

/** A public catalogue template by uuid or slug. */
export async function findCatalogueTemplate(idOrSlug: string, tx?: Tx): Promise<TemplateRecord | null> {
  if (holdsNul(idOrSlug)) return null;
  const db = tx ?? getDb();
  const [row] = await db<TemplateRecord[]>`
    select * from templates
    where owner_account_id is null and is_public and ${isUuid(idOrSlug) ? db`id = ${idOrSlug}` : db`slug = ${idOrSlug}`}`;
  return row ?? null;
}

export type CatalogueSeed = {
  slug: string;
  name: string;
  description: string;
  price: string;
  category: string;
  author: string;
  previewImageUrl: string | null;
  code: string;
  variables: VariablesSchema;
};

/** seed_catalogue_template's p_listing: what a catalogue template shows besides its code and variables. */
export function catalogueListing(seed: CatalogueSeed) {
  return {
    name: seed.name,
    description: seed.description,
    price: seed.price,
    category: seed.category,
    author: seed.author,
    preview_image_url: seed.previewImageUrl,
  };
}

/**
 * Inserts or refreshes a catalogue template by slug, by the SQL function seed_catalogue_template (which
 * supabase/seed.sql calls too); the version moves only when its code or variables change.
 */
export async function upsertCatalogueTemplate(seed: CatalogueSeed): Promise<{ id: string; slug: string }> {
  const db = getDb();
  const [row] = await db<{ id: string }[]>`
    select seed_catalogue_template(${seed.slug}, ${db.json(catalogueListing(seed))}, ${seed.code},
                                   ${jsonParameter(db, seed.variables)}) as id`;
  return { id: row.id, slug: seed.slug };
}

/** What rendering needs of a template (not its source), in the version rendered. */
export type RenderableTemplate = Pick<
  TemplateRecord,
  "id" | "owner_account_id" | "slug" | "compiled_code" | "variables"
> &
  RenderedVersion;

/** An address the account may not send to: it hard-bounced or complained (lib/db/suppressions.ts). */
export type Suppression = { email: string; reason: "bounced" | "complained"; created_at: Date };

export type SendContext = { domains: SendingDomain[]; template: RenderableTemplate | null; suppressed: Suppression[] };

type SendContextRow = Partial<RenderableTemplate> & {
  sender_domains: (Omit<SendingDomain, "created_at" | "verified_at"> & {
    created_at: string;
    verified_at: string | null;
  })[];
  suppressed: (Omit<Suppression, "created_at"> & { created_at: string })[];
};

/**
 * What POST /send looks up before rendering, in one round trip (the SQL function `send_context`): the account's
 * sending domains (oldest first, as listSendingDomains), the template (by id or alias) when it is in the account's
 * library (in `version`, as findTemplateForAccount), and which of `recipients` the account has suppressed.
 */
export async function findSendContext(
  accountId: string,
  templateId: string,
  recipients: string[],
  version?: VersionChoice,
): Promise<SendContext> {
  const lowerCased = recipients.map((address) => address.toLowerCase());
  // What can name no template is asked as no template: the domains and suppressions are still read.
  const ref = templateRef(templateId) ?? { id: null, alias: null };
  const number = typeof version === "number" ? version : null;
  const [row] = await getDb()<SendContextRow[]>`
    select * from send_context(${accountId}::uuid, ${ref.id}::uuid, ${ref.alias}::text, ${lowerCased}::text[],
                               ${number}::int, ${version === "draft"}::boolean)`;
  return sendContextFromRow(row);
}

function sendContextFromRow(row: SendContextRow): SendContext {
  const { sender_domains: senderDomains, suppressed, ...template } = row;
  const domains = senderDomains.map((d) => ({
    ...d,
    created_at: new Date(d.created_at),
    verified_at: d.verified_at === null ? null : new Date(d.verified_at),
  }));
  return {
    domains,
    template: template.id ? (template as RenderableTemplate) : null,
    suppressed: suppressed.map((entry) => ({ ...entry, created_at: new Date(entry.created_at) })),
  };
}

/**
 * Saved code that carries Tailwind's styles: a user template's own (`revision` and `version` null), one of its
 * published versions, or its draft; with the source it was made from.
 */
export type TailwindTemplateSource = Pick<TemplateRecord, "id" | "code" | "files" | "entry"> & {
  owner_account_id: string;
  compiled_code: string;
  version: number | null;
  revision: number | null;
};

/**
 * The saved code holding Tailwind's styles (made when it was saved) of the user templates of one account, or all: each
 * template's own, its versions' and its draft's.
 */
export async function listTailwindTemplateSources(accountId: string | null): Promise<TailwindTemplateSource[]> {
  return getDb()<TailwindTemplateSource[]>`
    select t.id, t.owner_account_id, s.code, s.files, s.entry, s.compiled_code, s.version, s.revision
    from templates t
    cross join lateral (
      select t.code, t.files, t.entry, t.compiled_code, null::int as version, null::int as revision
      union all
      select v.code, v.files, v.entry, v.compiled_code, v.version, null from template_versions v where v.template_id = t.id
      union all
      select d.code, d.files, d.entry, d.compiled_code, null, d.revision from template_drafts d where d.template_id = t.id
    ) s
    where t.owner_account_id = coalesce(${accountId}::uuid, t.owner_account_id) and strpos(s.compiled_code, 'Tailwind') > 0
    order by t.created_at, t.id, s.version nulls first, s.revision nulls first`;
}

/**
 * Replaces saved code (a template's own, a version's or its draft's) unless it was saved again meanwhile (its code is
 * no longer `previous`). A template's own code takes a new content counter, so no sandbox keeps the old code warm; a
 * version's or draft's key stays, and a warm sandbox is reused only for the very code it holds. False when it was
 * saved again.
 */
export async function replaceCompiledCode(
  source: Pick<TailwindTemplateSource, "id" | "version" | "revision">,
  previous: string,
  compiledCode: string,
): Promise<boolean> {
  const db = getDb();
  const updated =
    source.version !== null
      ? await db`
          update template_versions set compiled_code = ${compiledCode}
          where template_id = ${source.id} and version = ${source.version} and compiled_code = ${previous}
          returning version`
      : source.revision !== null
        ? await db`
            update template_drafts set compiled_code = ${compiledCode}
            where template_id = ${source.id} and revision = ${source.revision} and compiled_code = ${previous}
            returning revision`
        : await db`
            update templates set compiled_code = ${compiledCode}, version = version + 1, updated_at = now()
            where id = ${source.id} and compiled_code = ${previous}
            returning id`;
  return updated.length > 0;
}

export type CataloguePage = { templates: CatalogueEntry[]; total: number };

/**
 * GET /catalogue: a page of the public catalogue (free ones first, then by name, as the dashboard lists it), optionally
 * of one category, each saying whether it is in the account's library, and how many there are in all.
 */
export async function listCataloguePage(
  accountId: string,
  limit: number,
  offset: number,
  category?: string,
): Promise<CataloguePage> {
  const db = getDb();
  const inCategory = category === undefined ? db`` : db`and t.category = ${category}`;
  const [{ total }] = await db<{ total: number }[]>`
    select count(*)::int as total from templates t where t.owner_account_id is null and t.is_public ${inCategory}`;
  const templates = await db<CatalogueEntry[]>`
    select t.id, t.name, t.description, t.is_public, t.price::float8 as price, t.slug, t.category, t.author,
           exists (select from library_entries l where l.account_id = ${accountId} and l.template_id = t.id) as in_library
    from templates t
    where t.owner_account_id is null and t.is_public ${inCategory}
    order by t.price = 0 desc, t.name, t.id
    limit ${limit} offset ${offset}`;
  return { templates: [...templates], total };
}
