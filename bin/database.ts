import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { databaseUrlVariable, getConfig, resetConfig, type DatabaseUrlVariable } from "@/lib/core/config";
import { closeDb, getDb } from "@/lib/db/client";
import { DATA_DIR, findRunningEmbeddedDatabase, startEmbeddedDatabase, type EmbeddedDatabase } from "@/lib/db/embedded";
import { migrate } from "@/lib/db/migrate";
import { isCatalogueEmpty, seedCatalogue } from "@/lib/catalogue/data/seed";

export type Connection = {
  source: DatabaseUrlVariable | "embedded (shared with a running app)" | "embedded";
  close: () => Promise<void>;
};

/**
 * Points the process at a database: DATABASE_URL or POSTGRES_URL when set (lib/core/config.ts); otherwise the embedded
 * database, joining the one a running app serves, or opening .data/ itself, and sets process.env.DATABASE_URL to it so
 * lib/db/client picks it up.
 */
export async function connectDatabase(opts: { log?: (line: string) => void } = {}): Promise<Connection> {
  let embedded: EmbeddedDatabase | null = null;
  let source: Connection["source"] | null = databaseUrlVariable(process.env);
  if (!source) {
    if (process.env.VERCEL)
      throw new Error(
        "DATABASE_URL is required on Vercel, or POSTGRES_URL as the Supabase integration sets it; the embedded database is for local development.",
      );
    const running = await findRunningEmbeddedDatabase();
    if (running) {
      process.env.DATABASE_URL = running.url;
      source = "embedded (shared with a running app)";
    } else {
      const started = Date.now();
      embedded = await startEmbeddedDatabase();
      process.env.DATABASE_URL = embedded.url;
      source = "embedded";
      opts.log?.(`Embedded database (.data/pglite) ready in ${Date.now() - started} ms`);
    }
    // PGlite is one database session shared by every connection, and it outlives them: statements that closed
    // connections had prepared would stay in it for good.
    process.env.DATABASE_PREPARED_STATEMENTS ??= "off";
    resetConfig();
  }
  getConfig();
  return {
    source,
    close: async () => {
      await closeDb();
      await embedded?.stop();
    },
  };
}

/** Applies pending migrations, and seeds the catalogue into an empty database (or always, with `alwaysSeed`). */
export async function prepareDatabase(
  opts: { alwaysSeed?: boolean; log?: (line: string) => void } = {},
): Promise<void> {
  const { applied } = await migrate(getDb());
  for (const file of applied) opts.log?.(`Applied migration ${file}`);
  if (opts.alwaysSeed || (await isCatalogueEmpty())) {
    const seeded = await seedCatalogue();
    opts.log?.(`Catalogue: ${seeded.length} templates`);
  }
}

/** Local development signs session cookies with a secret generated once and kept in .data/. */
export async function ensureLocalSessionSecret(): Promise<void> {
  if (process.env.SESSION_SECRET || process.env.VERCEL) return;
  const file = path.join(DATA_DIR, "session-secret");
  await mkdir(DATA_DIR, { recursive: true });
  let secret: string;
  try {
    secret = (await readFile(file, "utf8")).trim();
  } catch {
    secret = randomBytes(32).toString("base64url");
    await writeFile(file, secret, { mode: 0o600 });
  }
  process.env.SESSION_SECRET = secret;
  resetConfig();
}
