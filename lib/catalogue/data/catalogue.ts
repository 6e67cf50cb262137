import "server-only";
import { getDb, type Tx, jsonParameter } from "@/lib/db/client";
import type { TemplateRecord } from "@/lib/templates/service";
import { holdsNul, isUuid } from "@/lib/core/schemas";
import type { CatalogueEntry } from "@/lib/catalogue/schemas";
import type { VariablesSchema } from "@/lib/templates/variables-schema";

// The public catalogue's templates: listed, found by id or slug, and seeded from emails/.

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
