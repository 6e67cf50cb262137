import "server-only";
import type postgres from "postgres";
import { getDb, type Tx } from "@/lib/db/client";
import { integerLiteral, uuidLiteral } from "@/lib/db/literals";
import type { LibraryEntry } from "@/lib/schemas/library";
import type { VariableDeclaration } from "@/lib/schemas/templates";

export type TemplateRecord = {
  id: string;
  owner_account_id: string | null;
  slug: string | null;
  name: string;
  description: string;
  is_public: boolean;
  price: string;
  code: string;
  variables: VariableDeclaration[];
  compiled_code: string | null;
  version: number;
  category: string | null;
  author: string | null;
  preview_image_url: string | null;
  created_at: Date;
  updated_at: Date;
};

export type LibraryPage = { templates: LibraryEntry[]; total: number };

/** One round trip: the page (newest addition first) and the library's total size. Hot path: see lib/db/literals.ts. */
export async function listLibrary(accountId: string, limit: number, offset: number): Promise<LibraryPage> {
  const account = uuidLiteral(accountId);
  const rows = await getDb().unsafe<
    (Omit<LibraryEntry, "price" | "added_at" | "updated_at"> & { total: number; price: string | null; added_at: Date; updated_at: Date })[]
  >(`
    with total as (select count(*)::int as n from library_entries where account_id = ${account})
    select total.n as total, page.* from total left join lateral (
      select t.id, t.name, t.description, t.is_public, t.price, t.slug, t.category, t.author,
             l.added_via, l.added_at, t.updated_at, t.preview_image_url as preview_url
      from library_entries l join templates t on t.id = l.template_id
      where l.account_id = ${account}
      order by l.added_at desc, l.template_id
      limit ${integerLiteral(limit)} offset ${integerLiteral(offset)}
    ) page on true`);
  const total = rows[0]?.total ?? 0;
  const templates = rows
    .filter((row) => row.id !== null)
    .map(({ total: _total, ...row }) => ({
      ...row,
      price: Number(row.price),
      added_at: row.added_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
    }));
  return { templates, total };
}

/** A template in the account's library, or null. */
export async function findLibraryTemplate(
  accountId: string,
  templateId: string,
): Promise<(TemplateRecord & { added_via: string }) | null> {
  const [row] = await getDb()<(TemplateRecord & { added_via: string })[]>`
    select t.*, l.added_via from library_entries l join templates t on t.id = l.template_id
    where l.account_id = ${accountId} and l.template_id = ${templateId}`;
  return row ?? null;
}

/** A template plus whether it is in the account's library: what render access decisions need, in one query. */
export async function findTemplateForAccount(
  accountId: string,
  templateId: string,
): Promise<(TemplateRecord & { in_library: boolean }) | null> {
  const [row] = await getDb()<(TemplateRecord & { in_library: boolean })[]>`
    select t.*, (l.account_id is not null) as in_library
    from templates t left join library_entries l on l.template_id = t.id and l.account_id = ${accountId}
    where t.id = ${templateId}`;
  return row ?? null;
}

export type CatalogueListing = Pick<TemplateRecord, "id" | "slug" | "name" | "description" | "price" | "is_public" | "category" | "author" | "preview_image_url" | "updated_at">;

export async function listCatalogue(): Promise<CatalogueListing[]> {
  return getDb()<CatalogueListing[]>`
    select id, slug, name, description, price, is_public, category, author, preview_image_url, updated_at
    from templates where owner_account_id is null and is_public order by price = 0 desc, name`;
}

/** A public catalogue template by uuid or slug. */
export async function findCatalogueTemplate(idOrSlug: string, tx?: Tx): Promise<TemplateRecord | null> {
  const db = tx ?? getDb();
  const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(idOrSlug);
  const [row] = await db<TemplateRecord[]>`
    select * from templates
    where owner_account_id is null and is_public and ${isUuid ? db`id = ${idOrSlug}` : db`slug = ${idOrSlug}`}`;
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
  variables: VariableDeclaration[];
};

/** Inserts or refreshes a catalogue template by slug; the version moves only when its code or variables change. */
export async function upsertCatalogueTemplate(seed: CatalogueSeed): Promise<{ id: string; slug: string }> {
  const db = getDb();
  const [row] = await db<{ id: string; slug: string }[]>`
    insert into templates (slug, name, description, is_public, price, code, variables, category, author, preview_image_url)
    values (${seed.slug}, ${seed.name}, ${seed.description}, true, ${seed.price}, ${seed.code},
            ${db.json(seed.variables as postgres.JSONValue)}, ${seed.category}, ${seed.author}, ${seed.previewImageUrl})
    on conflict (slug) where owner_account_id is null do update set
      name = excluded.name, description = excluded.description, price = excluded.price, code = excluded.code,
      variables = excluded.variables, category = excluded.category, author = excluded.author,
      preview_image_url = excluded.preview_image_url,
      version = case when templates.code is distinct from excluded.code or templates.variables is distinct from excluded.variables
                     then templates.version + 1 else templates.version end,
      updated_at = case when templates.code is distinct from excluded.code or templates.variables is distinct from excluded.variables
                        or templates.name is distinct from excluded.name or templates.description is distinct from excluded.description
                        or templates.price is distinct from excluded.price
                        then now() else templates.updated_at end
    returning id, slug`;
  return row;
}
