import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { ConfigError, parseConfig } from "@/lib/core/config";

// Vercel rules (issue 2, item 13). The build with Vercel-like variables and an unreachable DATABASE_URL is a step of
// scripts/test.sh (`next build` takes 10–20 s and most of a core, too much to repeat inside each vitest pass).

const DATABASE_URL = "postgres://postgres.abcdefghijkl:secret@aws-0-eu-central-1.pooler.supabase.com:6543/postgres";
const SESSION_SECRET = "a-session-secret-that-is-long-enough-0123456789";
// As the Supabase integration for Vercel sets it: the transaction pooler, with its own marker parameter.
const POSTGRES_URL =
  "postgres://postgres.abcdefghijkl:secret@aws-0-eu-central-1.pooler.supabase.com:6543/postgres?sslmode=require&supa=base-pooler.x";

const vercel = {
  VERCEL: "1",
  VERCEL_URL: "letterpress-abc123-acme.vercel.app",
  VERCEL_BRANCH_URL: "letterpress-git-feature-x-acme.vercel.app",
  VERCEL_PROJECT_PRODUCTION_URL: "letterpress.example.com",
};
const preview = { ...vercel, VERCEL_ENV: "preview" };
const production = { ...vercel, VERCEL_ENV: "production" };

function configError(env: Record<string, string | undefined>): ConfigError {
  try {
    parseConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error("expected parseConfig to throw a ConfigError");
}

describe("configuration on Vercel", () => {
  it("refuses a missing DATABASE_URL, naming it, instead of falling back to the embedded database", () => {
    for (const env of [production, preview]) {
      const error = configError({ ...env, SESSION_SECRET });
      expect(error.message).toContain("DATABASE_URL");
      expect(error.problems).toEqual([
        "DATABASE_URL is required on Vercel, or POSTGRES_URL as the Supabase integration sets it (the embedded database is for local development only)",
      ]);
    }
  });

  it("accepts a complete Vercel environment", () => {
    const config = parseConfig({ ...production, DATABASE_URL, SESSION_SECRET });
    expect(config.onVercel).toBe(true);
    expect(config.databaseUrl).toBe(DATABASE_URL);
    expect(config.databaseUrlVariable).toBe("DATABASE_URL");
  });

  it("reads POSTGRES_URL, as the Supabase integration sets it, when DATABASE_URL is unset, and names it", () => {
    for (const env of [production, preview]) {
      const config = parseConfig({ ...env, POSTGRES_URL, SESSION_SECRET });
      expect(config.databaseUrl).toBe(POSTGRES_URL);
      expect(config.databaseUrlVariable).toBe("POSTGRES_URL");
      // Its port is the transaction pooler's, so statements go unnamed.
      expect(config.databasePreparedStatements).toBe(false);
    }
    const direct = "postgres://postgres:secret@db.abcdefghijkl.supabase.co:5432/postgres?sslmode=require";
    expect(parseConfig({ POSTGRES_URL: direct })).toMatchObject({
      databaseUrl: direct,
      databaseUrlVariable: "POSTGRES_URL",
      databasePreparedStatements: true,
    });
    // DATABASE_URL, set by hand, wins over the integration's.
    expect(parseConfig({ ...production, DATABASE_URL: direct, POSTGRES_URL, SESSION_SECRET })).toMatchObject({
      databaseUrl: direct,
      databaseUrlVariable: "DATABASE_URL",
      databasePreparedStatements: true,
    });
    expect(parseConfig({ DATABASE_URL: "", POSTGRES_URL: " " })).toMatchObject({
      databaseUrl: undefined,
      databaseUrlVariable: null,
    });
    expect(configError({ POSTGRES_URL: "mysql://db.example.com/letterpress" }).problems).toEqual([
      "POSTGRES_URL must be a postgres:// connection URL",
    ]);
  });

  it("requires a session secret on Vercel when Supabase Auth is not configured", () => {
    const error = configError({ ...production, DATABASE_URL });
    expect(error.problems).toEqual([expect.stringContaining("SESSION_SECRET")]);
    const config = parseConfig({
      ...production,
      DATABASE_URL,
      NEXT_PUBLIC_SUPABASE_URL: "https://abcdefghijkl.supabase.co",
      NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY: "sb_publishable_abc123",
    });
    expect(config.supabase).toEqual({
      url: "https://abcdefghijkl.supabase.co",
      publishableKey: "sb_publishable_abc123",
    });
  });

  it("names every malformed variable in one message", () => {
    const error = configError({
      ...production,
      DATABASE_URL: "mysql://db.example.com/letterpress",
      SITE_URL: "letterpress.example.com",
      NEXT_PUBLIC_SUPABASE_URL: "not a url",
      NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY: "sb_publishable_abc123",
      RESEND_BASE_URL: "nope",
      SHARED_SENDING_DOMAIN: "not a domain",
      SESSION_SECRET: "short",
      CRON_SECRET: "short",
      PORT: "eighty",
      DATABASE_POOL_SIZE: "0",
    });
    const named = [
      "DATABASE_URL",
      "DATABASE_POOL_SIZE",
      "SITE_URL",
      "NEXT_PUBLIC_SUPABASE_URL",
      "RESEND_BASE_URL",
      "SHARED_SENDING_DOMAIN",
      "SESSION_SECRET",
      "CRON_SECRET",
      "PORT",
    ];
    for (const name of named) expect(error.message).toMatch(new RegExp(`^  - ${name} `, "m"));
    expect(error.problems).toHaveLength(named.length);
  });

  it("reports a missing DATABASE_URL together with the malformed variables", () => {
    const error = configError({ ...preview, SITE_URL: "letterpress.example.com", CRON_SECRET: "short" });
    expect(error.problems).toEqual([
      expect.stringMatching(/^SITE_URL /),
      expect.stringMatching(/^CRON_SECRET /),
      expect.stringMatching(/^DATABASE_URL is required on Vercel/),
      expect.stringMatching(/^SESSION_SECRET is required on Vercel/),
    ]);
  });

  it("names the Supabase variable that is missing from a half-configured pair", () => {
    expect(configError({ NEXT_PUBLIC_SUPABASE_URL: "https://abcdefghijkl.supabase.co" }).problems).toEqual([
      expect.stringMatching(/^NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY /),
    ]);
    expect(configError({ NEXT_PUBLIC_SUPABASE_PUBLISHABLE_KEY: "sb_publishable_abc123" }).problems).toEqual([
      expect.stringMatching(/^NEXT_PUBLIC_SUPABASE_URL /),
    ]);
  });

  it("treats empty variables as unset", () => {
    const config = parseConfig({ DATABASE_URL: "", SITE_URL: " ", RESEND_API_KEY: "" });
    expect(config.databaseUrl).toBeUndefined();
    expect(config.resend).toBeNull();
    expect(configError({ ...production, DATABASE_URL: "", SESSION_SECRET }).problems).toEqual([
      expect.stringMatching(/^DATABASE_URL is required on Vercel/),
    ]);
  });
});

describe("site URL for absolute links", () => {
  const base = { DATABASE_URL, SESSION_SECRET };

  it("uses SITE_URL when set, on any deployment, without a trailing slash", () => {
    expect(parseConfig({ ...base, ...preview, SITE_URL: "https://letterpress.example.com/" }).siteUrl).toBe(
      "https://letterpress.example.com",
    );
    expect(parseConfig({ ...base, ...production, SITE_URL: "https://mail.example.org" }).siteUrl).toBe(
      "https://mail.example.org",
    );
  });

  it("links a preview deployment to its branch URL, else its deployment URL", () => {
    expect(parseConfig({ ...base, ...preview }).siteUrl).toBe("https://letterpress-git-feature-x-acme.vercel.app");
    expect(parseConfig({ ...base, ...preview, VERCEL_BRANCH_URL: undefined }).siteUrl).toBe(
      "https://letterpress-abc123-acme.vercel.app",
    );
  });

  it("links production to the project's production domain, else the deployment URL", () => {
    expect(parseConfig({ ...base, ...production }).siteUrl).toBe("https://letterpress.example.com");
    expect(parseConfig({ ...base, ...production, VERCEL_PROJECT_PRODUCTION_URL: undefined }).siteUrl).toBe(
      "https://letterpress-abc123-acme.vercel.app",
    );
  });

  it("reads the pool size: 10 connections when unset, 1 on Vercel", () => {
    expect(parseConfig({}).databasePoolSize).toBe(10);
    expect(parseConfig({ ...production, DATABASE_URL, SESSION_SECRET }).databasePoolSize).toBe(1);
    expect(parseConfig({ ...production, DATABASE_URL, SESSION_SECRET, DATABASE_POOL_SIZE: "3" }).databasePoolSize).toBe(
      3,
    );
    expect(parseConfig({ DATABASE_POOL_SIZE: "12" }).databasePoolSize).toBe(12);
    expect(() => parseConfig({ DATABASE_POOL_SIZE: "ten" })).toThrow(
      /DATABASE_POOL_SIZE must be a whole number from 1 to 999/,
    );
  });

  it("prepares statements except on Supabase's transaction pooler (port 6543), unless told otherwise", () => {
    expect(parseConfig({ ...production, DATABASE_URL, SESSION_SECRET }).databasePreparedStatements).toBe(false);
    expect(
      parseConfig({ DATABASE_URL: "postgres://app:secret@db.example.com:5432/app" }).databasePreparedStatements,
    ).toBe(true);
    expect(parseConfig({}).databasePreparedStatements).toBe(true);
    expect(parseConfig({ DATABASE_URL, DATABASE_PREPARED_STATEMENTS: "on" }).databasePreparedStatements).toBe(true);
    expect(parseConfig({ DATABASE_PREPARED_STATEMENTS: "off" }).databasePreparedStatements).toBe(false);
    expect(() => parseConfig({ DATABASE_PREPARED_STATEMENTS: "yes" })).toThrow(
      /DATABASE_PREPARED_STATEMENTS must be on or off/,
    );
  });

  it("falls back to localhost on PORT locally", () => {
    expect(parseConfig({}).siteUrl).toBe("http://localhost:3000");
    expect(parseConfig({ PORT: "4010" }).siteUrl).toBe("http://localhost:4010");
  });
});

describe("npm start on Vercel", () => {
  it("exits with a clear error naming DATABASE_URL, never starting the embedded database", async () => {
    const root = path.resolve(import.meta.dirname, "..", "..");
    const tsx = path.join(root, "node_modules", ".bin", "tsx");
    expect(existsSync(tsx)).toBe(true);
    const env: NodeJS.ProcessEnv = { ...process.env, ...production, SESSION_SECRET, PORT: "0" };
    delete env.DATABASE_URL;
    delete env.POSTGRES_URL;
    delete env.TEST_DATABASE_URL;
    delete env.NODE_OPTIONS; // vitest's own loader flags must not leak into the child
    const child = spawn(tsx, ["--import", "./bin/server-only-hook.mjs", "bin/serve.ts", "start"], {
      cwd: root,
      env,
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => void (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => void (output += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    clearTimeout(timer);

    expect(code, output).not.toBe(0);
    expect(code, `killed after 15 s, so it was serving:\n${output}`).not.toBeNull();
    expect(output).toContain("DATABASE_URL is required on Vercel");
    expect(output).not.toMatch(/Embedded database .* ready|Letterpress is running/);
  });
});

describe("npm run db:migrate with the Supabase integration's variable", () => {
  it("migrates the database POSTGRES_URL names, and says so", async () => {
    const root = path.resolve(import.meta.dirname, "..", "..");
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      POSTGRES_URL: inject("databaseUrl"),
      // Not the pooler's port: the embedded test database keeps what connections prepare, so nothing is.
      DATABASE_PREPARED_STATEMENTS: "off",
    };
    delete env.DATABASE_URL;
    delete env.TEST_DATABASE_URL;
    delete env.NODE_OPTIONS;
    const child = spawn(
      path.join(root, "node_modules", ".bin", "tsx"),
      ["--import", "./bin/server-only-hook.mjs", "bin/db.ts", "migrate"],
      { cwd: root, env },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => void (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => void (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 25_000);
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    clearTimeout(timer);

    expect(code, stderr).toBe(0);
    expect(stderr).not.toMatch(/Embedded database/);
    expect(JSON.parse(stdout)).toEqual({
      database: "POSTGRES_URL",
      applied: [],
      already_applied: (await readdir("supabase/migrations")).filter((f) => f.endsWith(".sql")).length,
    });
  }, 30_000);
});
