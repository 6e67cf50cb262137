import postgres from "postgres";
import { getConfig } from "@/lib/config";

// One client per process. Kept on globalThis so Next's dev-mode module reloads reuse the pool instead of leaking one.
const holder = globalThis as typeof globalThis & { __letterpressDb?: postgres.Sql };

export type Db = postgres.Sql;
export type Tx = postgres.TransactionSql;

export function getDb(): Db {
  if (holder.__letterpressDb) return holder.__letterpressDb;
  const { databaseUrl: url, databasePoolSize } = getConfig();
  if (!url) {
    throw new Error(
      "DATABASE_URL is not set. Start the app with `npm run dev` or `npm start`, which run the embedded database.",
    );
  }
  holder.__letterpressDb = postgres(url, {
    // Supabase's transaction pooler (and PGlite's multiplexer) cannot keep named prepared statements.
    prepare: false,
    max: databasePoolSize,
    idle_timeout: 20,
    connect_timeout: 10,
    onnotice: () => {},
    types: { bigint: postgres.BigInt },
  });
  return holder.__letterpressDb;
}

export async function closeDb(): Promise<void> {
  const client = holder.__letterpressDb;
  holder.__letterpressDb = undefined;
  await client?.end({ timeout: 5 });
}
