import "server-only";
import { loadCatalogueSeeds } from "@/lib/catalogue";
import { getDb } from "@/lib/db/client";
import { upsertCatalogueTemplate } from "@/lib/db/templates";

/** Writes the catalogue in emails/ into the database (idempotent: templates are matched by slug). */
export async function seedCatalogue(): Promise<{ slug: string; id: string }[]> {
  const seeds = await loadCatalogueSeeds();
  const seeded = [];
  for (const seed of seeds) seeded.push(await upsertCatalogueTemplate(seed));
  return seeded;
}

export async function isCatalogueEmpty(): Promise<boolean> {
  const [row] = await getDb()`select 1 from templates where owner_account_id is null limit 1`;
  return !row;
}
