import "server-only";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { catalogue, catalogueVariablesSchema } from "@/lib/catalogue/catalogue";
import { getDb } from "@/lib/db/client";
import { upsertCatalogueTemplate, type CatalogueSeed } from "@/lib/catalogue/data/catalogue";

// Seeding reads the catalogue's source files from disk, so only scripts and tests import this module: the app's
// server bundle must not trace the project's files.

export async function loadCatalogueSeeds(root = process.cwd()): Promise<CatalogueSeed[]> {
  return Promise.all(
    catalogue.map(async (entry) => ({
      slug: entry.slug,
      name: entry.name,
      description: entry.description,
      price: entry.price,
      category: entry.category,
      author: entry.author,
      previewImageUrl: entry.previewImageUrl,
      code: await readFile(path.join(root, entry.file), "utf8"),
      variables: catalogueVariablesSchema(entry),
    })),
  );
}

/** Writes the catalogue in emails/ into the database (idempotent: templates are matched by slug). */
export async function seedCatalogue(): Promise<{ slug: string; id: string }[]> {
  const seeded = [];
  for (const seed of await loadCatalogueSeeds()) seeded.push(await upsertCatalogueTemplate(seed));
  return seeded;
}

export async function isCatalogueEmpty(): Promise<boolean> {
  const [row] = await getDb()`select 1 from templates where owner_account_id is null limit 1`;
  return !row;
}
