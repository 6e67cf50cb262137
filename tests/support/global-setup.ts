import { randomBytes } from "node:crypto";
import postgres from "postgres";
import type { TestProject } from "vitest/node";
import { resetConfig } from "@/lib/core/config";
import { closeDb } from "@/lib/db/client";
import { startEmbeddedDatabase } from "@/lib/db/embedded";
import { migrate } from "@/lib/db/migrate";
import { seedCatalogue } from "@/lib/catalogue/data/seed";

// The first project's database, migrated and seeded: each other project's starts as a copy of it (PostgreSQL's
// template database, PGlite's copy of its files), which takes a fraction of migrating again. Kept on globalThis: Vitest
// imports this module afresh for each project, in the same process, and runs every project's setup before any test:
// PostgreSQL copies a template database only while nothing is connected to it.
type FirstDatabase = { kind: "postgresql"; name: string } | { kind: "embedded"; files: Blob };
const shared = globalThis as { letterpressFirstTestDatabase?: FirstDatabase };

// A database of each project's for the whole run: a fresh database on TEST_DATABASE_URL's server (real PostgreSQL),
// or an in-memory embedded PGlite served over the wire protocol — the same client path as production either way.
export default async function setup(project: TestProject) {
  const serverUrl = process.env.TEST_DATABASE_URL;
  const copied = shared.letterpressFirstTestDatabase;
  let url: string;
  let teardown: () => Promise<void>;
  if (serverUrl) {
    const name = `letterpress_test_${randomBytes(4).toString("hex")}`;
    const admin = postgres(serverUrl, { prepare: false, max: 1, onnotice: () => {} });
    const template = copied?.kind === "postgresql" ? ` template ${copied.name}` : "";
    await admin.unsafe(`create database ${name}${template}`);
    const target = new URL(serverUrl);
    target.pathname = `/${name}`;
    url = target.toString();
    teardown = async () => {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    };
    if (!copied) {
      await migrateAndSeed(url);
      shared.letterpressFirstTestDatabase = { kind: "postgresql", name };
    }
  } else {
    const copyOf = copied?.kind === "embedded" ? copied.files : undefined;
    const embedded = await startEmbeddedDatabase({ dataDir: "memory://", maxConnections: 32, copyOf });
    url = embedded.url;
    teardown = embedded.stop;
    if (!copied) {
      await migrateAndSeed(url);
      shared.letterpressFirstTestDatabase = { kind: "embedded", files: await embedded.copy() };
    }
  }
  project.provide("databaseUrl", url);
  project.provide("databaseKind", serverUrl ? "postgresql" : "embedded");
  return teardown;
}

async function migrateAndSeed(url: string) {
  const db = postgres(url, { prepare: false, max: 1, onnotice: () => {} });
  await migrate(db);
  await db.end();
  process.env.DATABASE_URL = url;
  resetConfig();
  await seedCatalogue();
  await closeDb();
}

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
    databaseKind: "postgresql" | "embedded";
  }
}
