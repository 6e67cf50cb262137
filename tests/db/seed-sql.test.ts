import { readFile } from "node:fs/promises";
import type postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { catalogue } from "@/lib/catalogue/catalogue";
import { resetConfig } from "@/lib/core/config";
import { closeDb } from "@/lib/db/client";
import { migrate } from "@/lib/db/migrate";
import { loadCatalogueSeeds, seedCatalogue } from "@/lib/catalogue/data/seed";
import { catalogueSeedSql, dollarQuoted, SEED_SQL_PATH } from "@/lib/catalogue/data/seed-sql";
import { openFreshDatabase } from "../support/migration-db";

// Branching builds a preview branch's database from supabase/migrations/, then runs supabase/seed.sql as plain SQL, as
// Supabase's postgres role, on a database with Supabase's roles and schemas (tests/support/supabase-platform.sql, as
// tests/db/supabase-tooling.test.ts builds it). `branch` is such a database; `seeded` is one `npm run db:seed` seeded
// (seedCatalogue, through the app's client).
type Fresh = Awaited<ReturnType<typeof openFreshDatabase>>;
let branch: Fresh;
let seeded: Fresh;
const testsDatabaseUrl = process.env.DATABASE_URL;

beforeAll(async () => {
  [branch, seeded] = await Promise.all([openFreshDatabase(), openFreshDatabase()]);
  await branch.db.unsafe(await readFile("tests/support/supabase-platform.sql", "utf8"));
  await branch.db`set role supabase_postgres`;
  await migrate(branch.db);
  await migrate(seeded.db);
  await runSeedSql();
  await seedCatalogueInto(seeded.url);
});

afterAll(async () => {
  await closeDb();
  process.env.DATABASE_URL = testsDatabaseUrl;
  resetConfig();
  await Promise.all([branch?.close(), seeded?.close()]);
});

/** supabase/seed.sql, run on the branch's database as one simple-protocol query: plain SQL, statement by statement. */
async function runSeedSql() {
  await branch.db.unsafe(await readFile(SEED_SQL_PATH, "utf8"));
}

/** seedCatalogue() on the database at `url`, as `npm run db:seed` runs it there. */
async function seedCatalogueInto(url: string) {
  await closeDb();
  process.env.DATABASE_URL = url;
  resetConfig();
  try {
    await seedCatalogue();
  } finally {
    await closeDb();
    process.env.DATABASE_URL = testsDatabaseUrl;
    resetConfig();
  }
}

type CatalogueRow = {
  slug: string;
  name: string;
  description: string;
  price: string;
  code: string;
  variables: string;
  category: string | null;
  author: string | null;
  preview_image_url: string | null;
  version: number;
  is_public: boolean;
  published_version: number | null;
};

/** The catalogue's rows, by slug: what seeding writes (the variables as their stored text: key order counts). */
function catalogueRows(db: postgres.Sql) {
  return db<CatalogueRow[]>`
    select slug, name, description, price::text as price, code, variables::text as variables, category, author,
           preview_image_url, version, is_public, published_version
    from templates where owner_account_id is null order by slug`;
}

/** The same rows with what seeding must leave alone when nothing changed: the id and the timestamps. */
function catalogueRowsWithIdentity(db: postgres.Sql) {
  return db<(CatalogueRow & { id: string; created_at: Date; updated_at: Date })[]>`
    select id, created_at, updated_at, slug, name, description, price::text as price, code,
           variables::text as variables, category, author, preview_image_url, version, is_public, published_version
    from templates where owner_account_id is null order by slug`;
}

describe("supabase/seed.sql", () => {
  it("is what npm run db:seed-sql writes from emails/ today", async () => {
    const committed = await readFile(SEED_SQL_PATH, "utf8");
    expect(committed, "supabase/seed.sql is out of date with emails/: run npm run db:seed-sql").toBe(
      catalogueSeedSql(await loadCatalogueSeeds()),
    );
  });

  it("run after the migrations, as Branching does, gives the catalogue npm run db:seed gives", async () => {
    const seeds = await loadCatalogueSeeds();
    const expected = seeds
      .map((seed) => ({
        slug: seed.slug,
        name: seed.name,
        description: seed.description,
        price: seed.price,
        code: seed.code,
        variables: JSON.stringify(seed.variables),
        category: seed.category,
        author: seed.author,
        preview_image_url: seed.previewImageUrl,
        version: 1,
        is_public: true,
        published_version: 1,
      }))
      .sort((a, b) => (a.slug < b.slug ? -1 : 1));
    expect(expected).toHaveLength(catalogue.length);
    expect(await catalogueRows(branch.db)).toEqual(expected);
    expect(await catalogueRows(seeded.db)).toEqual(expected);
  });

  it("run again, or followed by npm run db:seed, changes nothing", async () => {
    const before = await catalogueRowsWithIdentity(branch.db);
    await runSeedSql();
    expect(await catalogueRowsWithIdentity(branch.db)).toEqual(before);
    await seedCatalogueInto(branch.url);
    expect(await catalogueRowsWithIdentity(branch.db)).toEqual(before);
    expect(await branch.db`select count(*)::int as templates from templates`).toEqual([
      { templates: catalogue.length },
    ]);
  });

  // A database seeded from older emails/: each template as an edit of one field left it, seeded again.
  it("moves the version and updated_at as npm run db:seed does when a template changed", async () => {
    const past = new Date("2026-01-01T00:00:00.000Z");
    const edits = async (db: postgres.Sql) => {
      await db`update templates set updated_at = ${past} where owner_account_id is null`;
      await db`update templates set code = 'export default () => null;' where slug = 'welcome'`;
      await db`update templates set variables = '{"type":"object"}' where slug = 'receipt'`;
      await db`update templates set name = 'Old name' where slug = 'newsletter'`;
      await db`update templates set price = 5 where slug = 'team-invite'`;
      await db`update templates set author = 'Someone', category = 'Other' where slug = 'magic-link'`;
    };
    const changes = (db: postgres.Sql) => db<{ slug: string; version: number; updated: boolean }[]>`
      select slug, version, updated_at <> ${past} as updated from templates
      where owner_account_id is null and (version <> 1 or updated_at <> ${past}) order by slug`;

    const expectedRows = await catalogueRows(seeded.db);
    await edits(branch.db);
    await runSeedSql();
    await edits(seeded.db);
    await seedCatalogueInto(seeded.url);

    const expectedChanges = [
      { slug: "newsletter", version: 1, updated: true },
      { slug: "receipt", version: 2, updated: true },
      { slug: "team-invite", version: 1, updated: true },
      { slug: "welcome", version: 2, updated: true },
    ];
    expect(await changes(branch.db)).toEqual(expectedChanges);
    expect(await changes(seeded.db)).toEqual(expectedChanges);
    const bumped = (rows: CatalogueRow[]) =>
      rows.map((row) => (["receipt", "welcome"].includes(row.slug) ? { ...row, version: 2 } : row));
    expect(await catalogueRows(branch.db)).toEqual(bumped(expectedRows));
    expect(await catalogueRows(seeded.db)).toEqual(bumped(expectedRows));
  });
});

describe("catalogueSeedSql", () => {
  const seed = async () => (await loadCatalogueSeeds())[0];

  it("refuses a template whose statement the Supabase CLI could not read (256 KiB), instead of writing it", async () => {
    const large = { ...(await seed()), code: "x".repeat(256 * 1024) };
    expect(() => catalogueSeedSql([large])).toThrow(
      new RegExp(
        `^The seed of ${large.slug} is \\d+ bytes of SQL: the Supabase CLI reads statements of less than 262144$`,
      ),
    );
  });

  it("refuses a slug that would end its statement's comment early", async () => {
    const twoLines = { ...(await seed()), slug: "two\nlines" };
    expect(() => catalogueSeedSql([twoLines])).toThrow('A catalogue slug holds a line break: "two\\nlines"');
  });
});

describe("dollarQuoted", () => {
  const awkward = [
    "",
    "$",
    "$$",
    "$seed$",
    "seed$ at the start",
    "at the end $seed",
    "$seed_1$ and $seed$",
    "it's \\ \"quoted\"; -- not a comment /* nor this */ E'\\n' ${x}",
    "line\nbreaks\r\n\ttabs and ünïcödé 🙂",
  ];

  it("chooses a tag that no value holds, nor spans a delimiter", () => {
    expect(awkward.map(dollarQuoted)).toEqual([
      "$seed$$seed$",
      "$seed$$$seed$",
      "$seed$$$$seed$",
      "$seed_1$$seed$$seed_1$",
      "$seed_1$seed$ at the start$seed_1$",
      "$seed_1$at the end $seed$seed_1$",
      "$seed_2$$seed_1$ and $seed$$seed_2$",
      "$seed$it's \\ \"quoted\"; -- not a comment /* nor this */ E'\\n' ${x}$seed$",
      "$seed$line\nbreaks\r\n\ttabs and ünïcödé 🙂$seed$",
    ]);
  });

  it("reads back, in PostgreSQL, as the value itself", async () => {
    const literals = awkward.map((value, index) => `${dollarQuoted(value)} as v${index}`).join(", ");
    const [row] = await branch.db.unsafe(`select ${literals}`);
    expect(Object.values(row)).toEqual(awkward);
  });

  it("refuses what PostgreSQL's text cannot hold, instead of writing another value", () => {
    expect(() => dollarQuoted("a\0b")).toThrow(
      "A seed value holds a NUL character, which PostgreSQL's text cannot hold",
    );
    expect(() => dollarQuoted("a\uD800b")).toThrow(
      "A seed value holds a lone UTF-16 surrogate, which UTF-8 cannot write",
    );
  });
});
