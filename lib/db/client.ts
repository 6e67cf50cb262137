import postgres from "postgres";
import { getConfig } from "@/lib/core/config";

// One client per process. Kept on globalThis so Next's dev-mode module reloads reuse the pool instead of leaking one.
const holder = globalThis as typeof globalThis & { __letterpressDb?: postgres.Sql };

// The app's statements are short, so one still running after 10 s is stuck (a lock queue, a plan gone wrong):
// cancelling it frees its connection for the requests behind it. Migrations lift it (lib/db/migrate.ts).
const STATEMENT_TIMEOUT_MS = 10_000;

export type Db = postgres.Sql;
export type Tx = postgres.TransactionSql;

export function getDb(): Db {
  if (holder.__letterpressDb) return holder.__letterpressDb;
  const { databaseUrl: url, databasePoolSize, databasePreparedStatements } = getConfig();
  if (!url) {
    throw new Error(
      "Neither DATABASE_URL nor POSTGRES_URL is set. Start the app with `npm run dev` or `npm start`, which run the embedded database.",
    );
  }
  holder.__letterpressDb = postgres(url, {
    prepare: databasePreparedStatements,
    max: databasePoolSize,
    idle_timeout: 20,
    connect_timeout: 10,
    onnotice: () => {},
    connection: { statement_timeout: STATEMENT_TIMEOUT_MS },
    types: { bigint: postgres.BigInt },
  });
  return holder.__letterpressDb;
}

export async function closeDb(): Promise<void> {
  const client = holder.__letterpressDb;
  holder.__letterpressDb = undefined;
  await client?.end({ timeout: 5 });
}

/**
 * A value for a `json` column, typed as json: postgres.js serializes it with JSON.stringify, keys in order
 * (`db.json()` sends jsonb, whose keys PostgreSQL reorders; a schema's properties keep their declared order).
 */
export function jsonParameter(db: Db | Tx, value: unknown): postgres.Parameter {
  return db.typed(value as postgres.SerializableParameter, JSON_TYPE_OID);
}

const JSON_TYPE_OID = 114;
