import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { lstat, mkdir, readFile, readdir, realpath, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { resetConfig } from "@/lib/core/config";
import { createAccount } from "@/lib/auth/data/accounts";
import { createApiKey } from "@/lib/api-keys/data";
import { closeDb } from "@/lib/db/client";
import { startEmbeddedDatabase } from "@/lib/db/embedded";
import { seedCatalogue } from "@/lib/catalogue/data/seed";
import { findPostgresBinDir, startThrowawayPostgres, stopThrowawayPostgresSync } from "./pg-throwaway";
import { copyStandaloneBuild, startStandaloneServer, type StandaloneServer } from "./lib/standalone";

// npm run check:deploy [-- --skip-build]: the app as it is deployed, not as `npm start` serves it (issue 44).
//   1. Vercel's builder, locally and offline: `vercel build` (the CLI pinned in package.json) with the project settings
//      written here and no runtime secret in the environment, so a page that reads the configuration or the database
//      at build time fails it. Each function's size is printed and must be under Vercel's 250 MB; every function that
//      renders must hold the sandbox's generated bundles and the QuickJS wasm (its .vc-config.json filePathMap).
//   2. Next's own server from the traced output alone: the same build's .next/standalone (LETTERPRESS_STANDALONE=1)
//      copied outside the repository and started with `node server.js` (Node 24 when NODE24_BIN names it, as on
//      Vercel), on a throwaway PostgreSQL that `npm run db:migrate` prepared. Through HTTP only, as users reach it: a
//      catalogue render, a user template saved and rendered (compile worker and sandbox), a Tailwind one, a send to the
//      outbox, a scheduled email that the cron route sends when called as Vercel Cron calls it, /docs and sign-in.
// A file the tracer misses, or a page that needs a secret to build, fails here instead of in a deployment.
// --skip-build reuses the last build (.vercel/output and .next/standalone) to rerun the checks after it.

const ROOT = path.resolve(import.meta.dirname, "..");
const MAX_FUNCTION_BYTES = 250 * 1024 * 1024; // Vercel's limit on a function's uncompressed bundle
const PROJECT_FILE = path.join(ROOT, ".vercel", "project.json");
const OUTPUT_DIR = path.join(ROOT, ".vercel", "output");

/**
 * The settings Vercel's dashboard would hold for the project, so the CLI needs no login or network. No install
 * command: the dependencies are installed already (on Vercel the default `npm install` runs first).
 */
const PROJECT_SETTINGS = {
  projectId: "prj_letterpress_check_deploy",
  orgId: "team_letterpress_check_deploy",
  settings: { framework: "nextjs", nodeVersion: "24.x", installCommand: "" },
};

/** Everything the README's configuration table names, and what the Vercel integration sets: none reaches the build. */
const RUNTIME_VARIABLES =
  /^(DATABASE_|TEST_DATABASE_URL$|POSTGRES_|SESSION_SECRET$|CRON_SECRET$|RESEND_|STRIPE_|SUPABASE_|NEXT_PUBLIC_|SITE_URL$|SHARED_SENDING_DOMAIN$|SYSTEM_EMAIL_FROM$|CLIENT_IP_HEADER$|PAYMENTS_TEST_MODE$|WEBHOOKS_ALLOW_PRIVATE_URLS$|VERCEL)/;

/**
 * Routes whose functions render or compile templates, so must carry what the sandbox loads from disk (no import
 * names those files: next.config.ts traces them by hand). A route missing from the build's functions fails the check,
 * so this list cannot go stale silently.
 */
const RENDERING_ROUTES = [
  "/api/v1/templates/[id]/render",
  "/api/v1/templates",
  "/api/v1/templates/[id]",
  "/api/v1/send",
  "/api/v1/send/batch",
  "/api/dashboard/templates/preview",
  "/api/dashboard/templates/[id]/render",
  "/api/dashboard/templates/[id]/thumbnail",
  // Their Server Actions send test emails and save templates.
  "/dashboard/library/[id]",
  "/dashboard/templates/new",
];
/** Beside the generated bundles (lib/render/**\/*.generated.*, read from the repository): QuickJS, as the engine loads it. */
const SANDBOX_PACKAGE_FILES = [
  "node_modules/@jitl/quickjs-wasmfile-release-sync/dist/emscripten-module.wasm",
  "node_modules/@jitl/quickjs-wasmfile-release-sync/dist/emscripten-module.cjs",
];

const checkStarted = performance.now();
const log = (line: string) =>
  console.log(`[check:deploy ${((performance.now() - checkStarted) / 1000).toFixed(1).padStart(5)} s] ${line}`);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

class CheckFailure extends Error {}
function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new CheckFailure(message);
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv, opts: { quiet?: boolean } = {}) {
  return new Promise<string>((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let all = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      all += chunk.toString();
      if (!opts.quiet) process.stdout.write(chunk);
    });
    child.stderr.on("data", (chunk: Buffer) => {
      all += chunk.toString();
      if (!opts.quiet) process.stderr.write(chunk);
    });
    child.once("error", reject);
    child.once("exit", (code) =>
      code === 0
        ? resolve(stdout)
        : reject(new CheckFailure(`${command} ${args.join(" ")} exited with ${code}${opts.quiet ? `:\n${all}` : ""}`)),
    );
  });
}

// ---- 1. Vercel's build ----

async function vercelBuild(): Promise<void> {
  const env: NodeJS.ProcessEnv = {
    ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !RUNTIME_VARIABLES.test(name))),
    NODE_ENV: process.env.NODE_ENV,
    LETTERPRESS_STANDALONE: "1",
    NEXT_TELEMETRY_DISABLED: "1",
    // No telemetry, and no look for a newer CLI: the version is pinned, and CI may have no network.
    VERCEL_TELEMETRY_DISABLED: "1",
    NO_UPDATE_NOTIFIER: "1",
  };
  const removed = Object.keys(process.env).filter((name) => RUNTIME_VARIABLES.test(name));
  log(`vercel build --yes, without ${removed.length ? removed.join(", ") : "any runtime variable (none was set)"}`);

  // Vercel's builder roots Turbopack at the project: packages reached through a link out of it are refused ("Could not
  // find the Next.js package"), as a git worktree sharing another checkout's node_modules has them.
  const modules = path.join(ROOT, "node_modules");
  const realModules = await realpath(modules).catch(() => modules);
  check(
    !path.relative(ROOT, realModules).startsWith(".."),
    `node_modules is a link to ${realModules}, outside the project, which vercel build does not compile from: install the dependencies here (npm install) to run the check`,
  );
  // A developer's own linked project is put back afterwards.
  const saved = existsSync(PROJECT_FILE) ? await readFile(PROJECT_FILE, "utf8") : null;
  await mkdir(path.dirname(PROJECT_FILE), { recursive: true });
  await writeFile(PROJECT_FILE, `${JSON.stringify(PROJECT_SETTINGS)}\n`);
  await rm(OUTPUT_DIR, { recursive: true, force: true });
  const started = performance.now();
  try {
    await run(path.join(ROOT, "node_modules", ".bin", "vercel"), ["build", "--yes"], env);
  } finally {
    if (saved === null) await rm(PROJECT_FILE, { force: true });
    else await writeFile(PROJECT_FILE, saved);
  }
  log(`vercel build succeeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

type VercelFunction = {
  /** The folder under .vercel/output/functions, without `.func`; several routes may share one (symlinks). */
  dir: string;
  routes: string[];
  runtime: string;
  files: Map<string, number>;
  bytes: number;
};

async function readFunctions(): Promise<VercelFunction[]> {
  const functionsDir = path.join(OUTPUT_DIR, "functions");
  check(existsSync(functionsDir), "vercel build wrote no .vercel/output/functions");
  const byRealPath = new Map<string, VercelFunction>();
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.name.endsWith(".func")) {
        const real = await realpath(full);
        const route =
          `/${path.relative(functionsDir, full).slice(0, -".func".length)}`.replace(/(^|\/)index$/, "") || "/";
        let fn = byRealPath.get(real);
        if (!fn) {
          fn = await readFunction(real, path.relative(functionsDir, real).slice(0, -".func".length));
          byRealPath.set(real, fn);
        }
        fn.routes.push(route);
      } else if (entry.isDirectory()) {
        await walk(full);
      }
    }
  };
  await walk(functionsDir);
  return [...byRealPath.values()];
}

/** Its files: those copied into the folder, and those its filePathMap names in the repository. */
async function readFunction(funcDir: string, name: string): Promise<VercelFunction> {
  const config = JSON.parse(await readFile(path.join(funcDir, ".vc-config.json"), "utf8")) as {
    runtime?: string;
    filePathMap?: Record<string, string>;
  };
  const files = new Map<string, number>();
  const addTree = async (dir: string, prefix: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
      const info = await stat(full);
      if (info.isDirectory()) await addTree(full, relative);
      else files.set(relative, info.size);
    }
  };
  await addTree(funcDir, "");
  for (const [inFunction, source] of Object.entries(config.filePathMap ?? {})) {
    const file = path.resolve(ROOT, source);
    const info = await lstat(file).catch(() => null);
    check(info, `function ${name}: its filePathMap names ${source}, which does not exist`);
    files.set(inFunction, info.isSymbolicLink() ? 0 : info.size);
  }
  const bytes = [...files.values()].reduce((total, size) => total + size, 0);
  return { dir: name, routes: [], runtime: config.runtime ?? "(none)", files, bytes };
}

async function checkFunctions(): Promise<{ largest: VercelFunction }> {
  const functions = (await readFunctions()).sort((a, b) => b.bytes - a.bytes);
  check(functions.length > 0, "vercel build produced no function");
  log(`${functions.length} function${functions.length === 1 ? "" : "s"} (uncompressed, Vercel's limit 250 MB):`);
  for (const fn of functions) {
    // Pages' RSC payloads and segments (`.rsc`, `.segments/…`) ride along with their page: named only in the count.
    const pages = fn.routes.filter((route) => !/\.rsc$|\.segments\//.test(route)).sort();
    const shown = pages.length > 6 ? `${pages.slice(0, 6).join(", ")}, …` : pages.join(", ");
    const routes = `${fn.routes.length} routes: ${shown || fn.routes.join(", ")}`;
    log(`  ${fn.dir}.func  ${mb(fn.bytes)}, ${fn.files.size} files, ${fn.runtime}: ${routes}`);
  }
  for (const fn of functions) {
    check(fn.bytes < MAX_FUNCTION_BYTES, `function ${fn.dir} is ${mb(fn.bytes)}, over Vercel's 250 MB`);
    check(
      fn.runtime === "nodejs24.x" || !fn.runtime.startsWith("nodejs"),
      `function ${fn.dir} runs ${fn.runtime}, not nodejs24.x`,
    );
  }

  const generated = [
    ...(await readdir(path.join(ROOT, "lib/render"), { recursive: true })).map(
      (name) => `lib/render/${name.split(path.sep).join("/")}`,
    ),
  ].filter((file) => /\.generated\./.test(file));
  check(
    generated.length >= 5,
    `expected the sandbox's generated bundles in lib/render/, found ${generated.join(", ")}`,
  );
  const needed = [...generated, ...SANDBOX_PACKAGE_FILES];
  for (const route of RENDERING_ROUTES) {
    const fn = functions.find((candidate) => candidate.routes.includes(route));
    check(fn, `no function serves ${route} (the routes: ${functions.flatMap((f) => f.routes).join(", ")})`);
    const missing = needed.filter((file) => !fn.files.has(file));
    check(missing.length === 0, `function ${fn.dir} (serving ${route}) lacks ${missing.join(", ")}`);
  }
  log(
    `every function rendering templates holds ${needed.length} sandbox files (${needed.map((f) => path.basename(f)).join(", ")})`,
  );
  // GET /letterpress.tgz packs the typed client's built folder, which only next.config.ts names.
  const client = functions.find((candidate) => candidate.routes.includes("/letterpress.tgz"));
  check(client, "no function serves /letterpress.tgz");
  const clientFiles = ["package.json", "README.md", "bin/letterpress.js", "dist/index.js", "dist/cli.js"].map(
    (file) => `packages/letterpress/${file}`,
  );
  const missingClientFiles = clientFiles.filter((file) => !client.files.has(file));
  check(
    missingClientFiles.length === 0,
    `function ${client.dir} (/letterpress.tgz) lacks ${missingClientFiles.join(", ")}`,
  );
  return { largest: functions[0] };
}

// ---- 2. Next's standalone server ----

type Database = { env: Record<string, string>; description: string; stop: () => Promise<void> };

async function startDatabase(): Promise<Database> {
  if (findPostgresBinDir()) {
    const pg = await startThrowawayPostgres();
    process.on("exit", () => stopThrowawayPostgresSync(pg));
    return { env: { DATABASE_URL: pg.url }, description: `throwaway ${pg.version}`, stop: pg.stop };
  }
  const db = await startEmbeddedDatabase({ dataDir: "memory://", maxConnections: 16 });
  return {
    // PGlite is one session for every connection: statements prepared on one would outlive it (bin/database.ts).
    env: { DATABASE_URL: db.url, DATABASE_PREPARED_STATEMENTS: "off" },
    description: "the embedded database, in memory (no PostgreSQL server binaries are installed)",
    stop: db.stop,
  };
}

async function prepareDatabase(database: Database): Promise<{ key: string }> {
  const migrated = JSON.parse(
    await run(
      path.join(ROOT, "node_modules", ".bin", "tsx"),
      ["--import", "./bin/server-only-hook.mjs", "bin/db.ts", "migrate"],
      { ...process.env, ...database.env },
      { quiet: true },
    ),
  ) as { applied: string[] };
  check(migrated.applied.length > 0, "db:migrate applied no migration to the new database");
  // The rest is setup, not what is checked: here, through the lib/ functions `npm run db:seed` and the admin CLI's
  // user:create and key:create call (a process each would cost seconds).
  Object.assign(process.env, database.env);
  resetConfig();
  try {
    const seeded = await seedCatalogue();
    const account = await createAccount({ email: `deploy-check-${randomBytes(4).toString("hex")}@example.com` });
    const { key } = await createApiKey(account.id, { name: "check:deploy" });
    log(
      `db:migrate applied ${migrated.applied.length} migrations; the catalogue's ${seeded.length} templates seeded, ${account.person.email} on the free plan with a key`,
    );
    return { key };
  } finally {
    await closeDb();
  }
}

const USER_TEMPLATE = `import { Body, Container, Heading, Html, Text } from "@react-email/components";

export default function Hello({ name = "there" }: { name?: string }) {
  return (
    <Html>
      <Body>
        <Container>
          <Heading>Hello {name}</Heading>
          <Text>Rendered in the sandbox of a standalone server.</Text>
        </Container>
      </Body>
    </Html>
  );
}
`;

const TAILWIND_TEMPLATE = `import { Body, Button, Container, Html, Tailwind, Text, pixelBasedPreset } from "@react-email/components";

export default function Welcome({ name = "there" }: { name?: string }) {
  return (
    <Html>
      <Tailwind config={{ presets: [pixelBasedPreset], theme: { extend: { colors: { brand: "#007291" } } } }}>
        <Body className="bg-white font-sans">
          <Container className="mx-auto p-[20px]">
            <Text className="text-[14px] text-black">Welcome, {name}</Text>
            <Button className="rounded bg-brand px-5 py-3 text-white" href="https://example.com">Start</Button>
          </Container>
        </Body>
      </Tailwind>
    </Html>
  );
}
`;

type Answer = { status: number; body: any; text: string; headers: Headers }; // eslint-disable-line @typescript-eslint/no-explicit-any

async function request(
  server: StandaloneServer,
  pathname: string,
  init: { method?: string; headers?: Record<string, string>; json?: unknown } = {},
): Promise<Answer> {
  const response = await fetch(server.url + pathname, {
    method: init.method ?? (init.json === undefined ? "GET" : "POST"),
    headers: { ...(init.json === undefined ? {} : { "content-type": "application/json" }), ...init.headers },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
    redirect: "manual",
    signal: AbortSignal.timeout(60_000),
  });
  const text = await response.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    // HTML or empty
  }
  return { status: response.status, body, text, headers: response.headers };
}

function expectStatus(answer: Answer, status: number, what: string): void {
  check(answer.status === status, `${what}: answered ${answer.status}, not ${status}: ${answer.text.slice(0, 500)}`);
}

async function exercise(server: StandaloneServer, key: string, cronSecret: string, sendingDomain: string) {
  const api = (pathname: string, init: Parameters<typeof request>[2] = {}) =>
    request(server, `/api/v1${pathname}`, { ...init, headers: { "x-api-key": key, ...init.headers } });
  const from = `Deploy check <hello@${sendingDomain}>`;

  expectStatus(await request(server, "/api/health"), 200, "GET /api/health");
  const clientTarball = await request(server, "/letterpress.tgz");
  expectStatus(clientTarball, 200, "GET /letterpress.tgz (the typed client)");

  expectStatus(await api("/library", { json: { template_id: "welcome" } }), 201, "POST /library welcome");
  const catalogue = await api("/templates/welcome/render", {
    json: { variables: { userName: "Ada" }, plain_text: true },
  });
  expectStatus(catalogue, 200, "render of the catalogue's welcome");
  check(
    catalogue.body.html.startsWith("<!DOCTYPE html"),
    `the catalogue render is no document: ${catalogue.text.slice(0, 300)}`,
  );
  check(/Ada/.test(catalogue.body.html), `the catalogue render's HTML lacks the variable: ${catalogue.body.html}`);
  check(/Ada/i.test(catalogue.body.text), `the catalogue render's text lacks the variable: ${catalogue.body.text}`);
  log("catalogue template rendered (render worker)");

  const saved = await api("/templates", { json: { name: "Deploy check", files: { "email.tsx": USER_TEMPLATE } } });
  expectStatus(saved, 201, "POST /templates (compile worker)");
  const rendered = await api(`/templates/${saved.body.template.id}/render`, { json: { variables: { name: "Grace" } } });
  expectStatus(rendered, 200, "render of the user template (sandbox)");
  check(
    rendered.body.html.includes("Hello <!-- -->Grace") || rendered.body.html.includes("Hello Grace"),
    `the sandboxed render lacks its heading: ${rendered.body.html.slice(0, 300)}`,
  );
  log("user template saved (compile worker) and rendered (QuickJS sandbox)");

  const tailwind = await api("/templates", {
    json: { name: "Deploy check Tailwind", files: { "email.tsx": TAILWIND_TEMPLATE } },
  });
  expectStatus(tailwind, 201, "POST /templates with <Tailwind>");
  const styled = await api(`/templates/${tailwind.body.template.id}/render`, { json: { variables: { name: "Lin" } } });
  expectStatus(styled, 200, "render of the Tailwind template");
  check(
    styled.body.html.includes("background-color:rgb(0,114,145)") && styled.body.html.includes("font-size:14px"),
    `the Tailwind render lacks its inlined classes: ${styled.body.html.slice(0, 500)}`,
  );
  log("Tailwind template saved and rendered");

  const sent = await api("/send", {
    json: {
      template_id: "welcome",
      from,
      to: "reader@example.com",
      subject: "Welcome",
      variables: { userName: "Ada" },
    },
  });
  expectStatus(sent, 200, "POST /send");
  const email = await api(`/emails/${sent.body.data.id}`);
  expectStatus(email, 200, "GET /emails/{id} of the send");
  check(email.body.email.status === "delivered", `the sent email is ${email.body.email.status}, not delivered`);
  log("sent to the outbox");

  // Due two seconds from now: by the time the cron route is called it is.
  const scheduledAt = new Date(Date.now() + 2000).toISOString();
  const scheduled = await api("/send", {
    json: {
      template_id: "welcome",
      from,
      to: "later@example.com",
      subject: "Later",
      variables: { userName: "Ada" },
      scheduled_at: scheduledAt,
    },
  });
  expectStatus(scheduled, 200, "POST /send with scheduled_at");
  const cron = (authorization?: string) =>
    request(server, "/api/cron/dispatch-scheduled", {
      headers: { "user-agent": "vercel-cron/1.0", ...(authorization ? { authorization } : {}) },
    });
  for (const authorization of [undefined, "Bearer not-the-cron-secret-0123"]) {
    const refused = await cron(authorization);
    expectStatus(refused, 401, `the cron route with ${authorization ? "a wrong" : "no"} bearer`);
  }
  const before = await api(`/emails/${scheduled.body.data.id}`);
  check(before.body.email.status === "scheduled", `the scheduled email is ${before.body.email.status} before the cron`);
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(scheduledAt) - Date.now() + 200)));
  const dispatched = await cron(`Bearer ${cronSecret}`);
  expectStatus(dispatched, 200, "the cron route as Vercel Cron calls it");
  check(dispatched.body.dispatched >= 1, `the cron route dispatched nothing: ${dispatched.text}`);
  const after = await api(`/emails/${scheduled.body.data.id}`);
  check(after.body.email.status === "delivered", `the scheduled email is ${after.body.email.status} after the cron`);
  const usage = await request(server, "/api/cron/report-usage", { headers: { authorization: `Bearer ${cronSecret}` } });
  expectStatus(usage, 200, "the report-usage cron route");
  log("scheduled email sent by GET /api/cron/dispatch-scheduled with the bearer (refused without it)");

  const docs = await request(server, "/docs");
  expectStatus(docs, 200, "GET /docs");
  // Its servers' URL is the site URL read at run time: http://localhost:$PORT without SITE_URL.
  check(
    docs.text.includes("API reference") && docs.text.includes(`localhost:${new URL(server.url).port}/api/v1`),
    "/docs lacks its title or the server's own URL",
  );
  const signIn = await request(server, "/signin");
  expectStatus(signIn, 200, "GET /signin");
  check(/<form[\s>]/.test(signIn.text) && signIn.text.includes('type="password"'), "/signin has no sign-in form");
  const dashboard = await request(server, "/dashboard");
  check(
    dashboard.status === 307 && dashboard.headers.get("location")?.startsWith("/signin"),
    `GET /dashboard signed out answered ${dashboard.status} to ${dashboard.headers.get("location")}, not a redirect to /signin`,
  );
  log("/docs, /signin and the dashboard's redirect to it answered");
}

async function standaloneServer(): Promise<void> {
  // The copy and the database's start and migrations at once: neither waits for the other.
  const [copied, started] = await Promise.allSettled([
    copyStandaloneBuild(ROOT),
    startDatabase().then(async (database) => {
      try {
        return { database, ...(await prepareDatabase(database)) };
      } catch (error) {
        await database.stop();
        throw error;
      }
    }),
  ]);
  if (copied.status === "rejected" || started.status === "rejected") {
    if (copied.status === "fulfilled") await copied.value.remove();
    if (started.status === "fulfilled") await started.value.database.stop();
    throw copied.status === "rejected" ? copied.reason : (started as PromiseRejectedResult).reason;
  }
  const copy = copied.value;
  const { database, key } = started.value;
  log(`.next/standalone (+ .next/static) copied to ${copy.dir}; database: ${database.description}`);
  let server: StandaloneServer | null = null;
  try {
    const node =
      process.env.NODE24_BIN && existsSync(process.env.NODE24_BIN) ? process.env.NODE24_BIN : process.execPath;
    const cronSecret = randomBytes(24).toString("base64url");
    const sendingDomain = "deploy-check.example.com";
    server = await startStandaloneServer({
      serverDir: copy.serverDir,
      node,
      env: {
        ...database.env,
        SESSION_SECRET: randomBytes(32).toString("base64url"),
        CRON_SECRET: cronSecret,
        SHARED_SENDING_DOMAIN: sendingDomain,
      },
    });
    const version = await run(node, ["--version"], process.env, { quiet: true });
    log(`node server.js (Node ${version.trim()}) listening at ${server.url}`);
    await exercise(server, key, cronSecret, sendingDomain);
    const errors = server
      .output()
      .split("\n")
      .filter((line) => /"level":"error"|⨯|Error:/.test(line));
    check(errors.length === 0, `the server logged errors:\n${errors.slice(0, 10).join("\n")}`);
  } catch (error) {
    if (server) console.error(`[check:deploy] the server's output:\n${server.output()}`);
    throw error;
  } finally {
    await server?.stop();
    await database.stop();
    await copy.remove();
  }
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { "skip-build": { type: "boolean", default: false } } });
  const started = performance.now();
  try {
    if (!values["skip-build"]) await vercelBuild();
    const { largest } = await checkFunctions();
    await standaloneServer();
    log(
      `passed in ${((performance.now() - started) / 1000).toFixed(1)} s; the largest function is ${largest.dir}.func, ${mb(largest.bytes)} (${largest.files.size} files)`,
    );
    return 0;
  } catch (error) {
    console.error(
      `[check:deploy] FAILED: ${error instanceof CheckFailure ? error.message : ((error as Error).stack ?? error)}`,
    );
    return 1;
  }
}

process.exitCode = await main();
