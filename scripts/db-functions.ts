import { spawnSync } from "node:child_process";
import { copyFile, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { startEmbeddedDatabase } from "@/lib/db/embedded";
import { migrate } from "@/lib/db/migrate";
import {
  functionDrift,
  functionsMigration,
  GENERATED_MIGRATION_HEADER,
  readFunctionFiles,
} from "@/lib/db/sql-functions";

// npm run db:functions [-- --check]: builds a throwaway embedded database from supabase/migrations/ alone, as
// `supabase db push` and Branching do, and compares its functions with supabase/sql-functions/. When they differ it
// writes supabase/migrations/<now>_sql_functions.sql: the whole file of each function the migrations define otherwise,
// a drop for each function whose file went, and the revokes of EXECUTE. A migration it wrote that no commit holds yet
// (applied nowhere but here) is written anew instead of piling up a migration per edit. --check writes nothing and
// exits 1 when a migration is due.
const MIGRATIONS_DIR = path.join(process.cwd(), "supabase", "migrations");
const check = process.argv.includes("--check");

const migrations = (await readdir(MIGRATIONS_DIR)).filter((f) => /^\d{14}_[a-z0-9_]+\.sql$/.test(f)).sort();
const newest = migrations.at(-1);
const replaced = !check && newest && (await isUncommittedGenerated(newest)) ? newest : undefined;
const kept = migrations.filter((f) => f !== replaced);

const scratch = await mkdtemp(path.join(tmpdir(), "letterpress-db-functions-"));
const embedded = await startEmbeddedDatabase({ dataDir: "memory://", writeLock: false, maxConnections: 2 });
const db = postgres(embedded.url, { prepare: false, max: 1, onnotice: () => {} });
try {
  for (const file of kept) await copyFile(path.join(MIGRATIONS_DIR, file), path.join(scratch, file));
  await migrate(db, scratch);
  const files = await readFunctionFiles();
  const drift = await functionDrift(db, files);
  const due = drift.changed.length > 0 || drift.withoutFile.length > 0;
  if (check) {
    if (due) {
      console.error(`Out of step with the migrations: ${describe(drift)}. Run npm run db:functions.`);
      process.exitCode = 1;
    } else {
      console.log("The migrations define every function as supabase/sql-functions/ does.");
    }
  } else if (!due) {
    if (replaced) await rm(path.join(MIGRATIONS_DIR, replaced));
    console.log(
      `The migrations define every function as supabase/sql-functions/ does${replaced ? `: removed ${replaced}` : ""}.`,
    );
  } else {
    const sql = functionsMigration(drift);
    // Applied to the scratch database before it is written: a migration that leaves a difference is a bug here.
    const [, version] = /^(\d{14})_/.exec(kept.at(-1) ?? "00000000000000_") ?? [];
    const file = `${nextVersion(version)}_sql_functions.sql`;
    await writeFile(path.join(scratch, file), sql);
    await migrate(db, scratch);
    const left = await functionDrift(db, files);
    if (left.changed.length > 0 || left.withoutFile.length > 0) {
      throw new Error(`The migration written leaves ${describe(left)} out of step`);
    }
    if (replaced) await rm(path.join(MIGRATIONS_DIR, replaced));
    await writeFile(path.join(MIGRATIONS_DIR, file), sql);
    console.log(`Wrote supabase/migrations/${file}${replaced ? ` (instead of ${replaced})` : ""}: ${describe(drift)}.`);
  }
} catch (error) {
  console.error(`Error: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await db.end();
  await embedded.stop();
  await rm(scratch, { recursive: true, force: true });
}

function describe(drift: Awaited<ReturnType<typeof functionDrift>>): string {
  return [...drift.changed.map((f) => f.name), ...drift.withoutFile.map((s) => `${s} (no file)`)].join(", ");
}

/** This second in UTC as the CLI names migrations (YYYYMMDDHHMMSS), or one past the newest when that is later. */
function nextVersion(newestVersion: string | undefined): string {
  const now = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
  if (!newestVersion || now > newestVersion) return now;
  return (BigInt(newestVersion) + 1n).toString();
}

async function isUncommittedGenerated(file: string): Promise<boolean> {
  const text = await readFile(path.join(MIGRATIONS_DIR, file), "utf8");
  if (!text.startsWith(GENERATED_MIGRATION_HEADER)) return false;
  const committed = spawnSync("git", ["cat-file", "-e", `HEAD:supabase/migrations/${file}`], { stdio: "ignore" });
  return committed.status !== 0;
}
