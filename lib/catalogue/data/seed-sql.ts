import path from "node:path";
import { catalogueListing, type CatalogueSeed } from "@/lib/catalogue/data/catalogue";

// Supabase Branching seeds each preview branch's database by running the files of supabase/config.toml's [db.seed] as
// plain SQL after supabase/migrations/: it cannot run `npm run db:seed`. So supabase/seed.sql is the catalogue written
// out as SQL, by `npm run db:seed-sql` (scripts/db-seed-sql.ts): one call of the SQL function seed_catalogue_template
// per template, the one upsertCatalogueTemplate calls, with the values loadCatalogueSeeds reads. The only SQL text built
// from strings here, because a file is what Branching takes; every value is a dollar-quoted literal proven to read back
// as itself.

export const SEED_SQL_PATH = path.join(process.cwd(), "supabase", "seed.sql");

export const SEED_SQL_HEADER = "-- Written by `npm run db:seed-sql` (scripts/db-seed-sql.ts)";

const TAG = "seed";
const MAX_TAG_TRIES = 1_000;
// The Supabase CLI reads a seed file a statement at a time into a buffer of 256 KiB by default (pkg/parser's
// MaxScannerCapacity), and fails on a longer one.
const MAX_STATEMENT_BYTES = 256 * 1024;

/**
 * `text` as a dollar-quoted literal whose tag ($seed$, else $seed_1$, $seed_2$, ...) occurs nowhere in it, nor across
 * either delimiter (a text starting "seed$" or ending "$seed" would close $seed$ early, for PostgreSQL or for the
 * Supabase CLI's statement splitter). Throws rather than return a literal that would read back as anything else.
 */
export function dollarQuoted(text: string): string {
  // PostgreSQL's text cannot hold NUL; a lone surrogate would be written as U+FFFD, which is another text.
  if (text.includes("\0")) throw new Error("A seed value holds a NUL character, which PostgreSQL's text cannot hold");
  if (!text.isWellFormed()) throw new Error("A seed value holds a lone UTF-16 surrogate, which UTF-8 cannot write");
  for (let attempt = 0; attempt < MAX_TAG_TRIES; attempt++) {
    const tag = `$${attempt === 0 ? TAG : `${TAG}_${attempt}`}$`;
    const literal = `${tag}${text}${tag}`;
    // The first occurrence of the tag after the opening one must be the closing one.
    if (literal.indexOf(tag, 1) === tag.length + text.length) return literal;
  }
  throw new Error(`No dollar-quote tag $${TAG}$ to $${TAG}_${MAX_TAG_TRIES - 1}$ is absent from a seed value`);
}

/** supabase/seed.sql's text for `seeds`: the header, then one statement per template, in the catalogue's order. */
export function catalogueSeedSql(seeds: CatalogueSeed[]): string {
  const header = `${SEED_SQL_HEADER} from emails/: the public catalogue as
-- \`npm run db:seed\` seeds it (lib/catalogue/data/seed.ts), for Supabase Branching, which runs this file on each
-- preview branch's database after supabase/migrations/ (supabase/config.toml's [db.seed]). Each statement is
-- seed_catalogue_template's upsert by slug, so running the file again changes nothing. Not edited by hand: edit emails/
-- and run the command again.
`;
  const statements = seeds.map((seed) => {
    const args: [string, string][] = [
      ["p_slug", seed.slug],
      ["p_listing", JSON.stringify(catalogueListing(seed))],
      // As jsonParameter sends them: JSON.stringify's text, keys in their order.
      ["p_variables", JSON.stringify(seed.variables)],
      ["p_code", seed.code],
    ];
    const list = args.map(([name, value]) => `  ${name} => ${dollarQuoted(value)}`).join(",\n");
    // The slug heads its statement as a comment, which a line break would end early.
    if (/[\r\n]/.test(seed.slug)) throw new Error(`A catalogue slug holds a line break: ${JSON.stringify(seed.slug)}`);
    const statement = `-- ${seed.slug}\nselect public.seed_catalogue_template(\n${list}\n);\n`;
    // With the header, which the CLI reads as part of the first statement.
    const bytes = Buffer.byteLength(header) + Buffer.byteLength(statement);
    if (bytes >= MAX_STATEMENT_BYTES) {
      throw new Error(
        `The seed of ${seed.slug} is ${bytes} bytes of SQL: the Supabase CLI reads statements of less than ${MAX_STATEMENT_BYTES}`,
      );
    }
    return statement;
  });
  return [header, ...statements].join("\n");
}
