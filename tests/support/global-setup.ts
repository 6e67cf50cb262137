import { randomBytes } from "node:crypto";
import postgres from "postgres";
import type { TestProject } from "vitest/node";
import { resetConfig } from "@/lib/config";
import { closeDb } from "@/lib/db/client";
import { startEmbeddedDatabase } from "@/lib/db/embedded";
import { migrate } from "@/lib/db/migrate";
import { seedCatalogue } from "@/lib/db/seed";

// One database for the whole run: a fresh database on TEST_DATABASE_URL's server (real PostgreSQL), or an in-memory
// embedded PGlite served over the wire protocol — the same client path as production either way.
export default async function setup(project: TestProject) {
  const serverUrl = process.env.TEST_DATABASE_URL;
  let url: string;
  let teardown: () => Promise<void>;
  if (serverUrl) {
    const name = `letterpress_test_${randomBytes(4).toString("hex")}`;
    const admin = postgres(serverUrl, { prepare: false, max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    const target = new URL(serverUrl);
    target.pathname = `/${name}`;
    url = target.toString();
    teardown = async () => {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    };
  } else {
    const embedded = await startEmbeddedDatabase({ dataDir: "memory://", maxConnections: 32 });
    url = embedded.url;
    teardown = embedded.stop;
  }
  const db = postgres(url, { prepare: false, max: 1, onnotice: () => {} });
  await migrate(db);
  await db.end();
  process.env.DATABASE_URL = url;
  resetConfig();
  await seedCatalogue();
  await closeDb();
  project.provide("databaseUrl", url);
  project.provide("databaseKind", serverUrl ? "postgresql" : "embedded");
  return teardown;
}

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
    databaseKind: "postgresql" | "embedded";
  }
}
