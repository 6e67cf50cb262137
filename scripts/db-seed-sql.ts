import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { loadCatalogueSeeds } from "@/lib/catalogue/data/seed";
import { catalogueSeedSql, SEED_SQL_PATH } from "@/lib/catalogue/data/seed-sql";

// npm run db:seed-sql [-- --check]: writes supabase/seed.sql from emails/, the catalogue Supabase Branching seeds each
// preview branch with (lib/catalogue/data/seed-sql.ts). --check writes nothing and exits 1 when the file is out of
// date.
const check = process.argv.includes("--check");
const file = path.relative(process.cwd(), SEED_SQL_PATH);

try {
  const seeds = await loadCatalogueSeeds();
  const sql = catalogueSeedSql(seeds);
  const current = await readFile(SEED_SQL_PATH, "utf8").catch(() => null);
  if (current === sql) {
    console.log(`${file} holds the catalogue of emails/ (${seeds.length} templates).`);
  } else if (check) {
    console.error(`${file} is out of date with emails/. Run npm run db:seed-sql.`);
    process.exitCode = 1;
  } else {
    await writeFile(SEED_SQL_PATH, sql);
    console.log(`Wrote ${file}: the catalogue of emails/ (${seeds.length} templates).`);
  }
} catch (error) {
  console.error(`Error: ${(error as Error).message}`);
  process.exitCode = 1;
}
