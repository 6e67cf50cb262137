import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, readdir, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLIENT_DECLARATION_FILE, clientFirstRunSteps } from "@/app/docs/client-first-run";
import { GET as getClientTarball } from "@/app/letterpress.tgz/route";
import { addToLibrary, createUser } from "../support/api";
import { API_BASE_URL, inProcessFetch } from "../support/client";

// The typed client's first run in an empty `npm init -y` project, step by step as /docs and the new-key panel show it
// (issue 46): the install from the tarball the app serves, TypeScript, tsconfig.json, `npx letterpress types`, then
// `npx tsc` refusing a misspelt variable. npm prefers its cache, which the repository's own install filled: the
// client's dependencies, and TypeScript and Node's types at versions package-lock.json holds (the docs install the
// newest, which the cache may not have), come without the network; only the tarball is fetched, from the app.

const ROOT = path.resolve(import.meta.dirname, "../..");
const LOCKED: Record<string, { version: string }> = JSON.parse(
  readFileSync(path.join(ROOT, "package-lock.json"), "utf8"),
).packages;

// TypeScript as `npm install -D typescript` installs it today: the lock's newest, which the repository's type check runs.
const LOCK_ENTRY: Record<string, string> = { typescript: "node_modules/typescript-7" };

/** A step, with each package of an `npm install -D` pinned to its version in package-lock.json. */
const pinned = (step: string) =>
  step.replace(/^npm install -D ([^#]+)$/, (_, names: string) => {
    const packages = names.trim().split(" ");
    const version = (name: string) => LOCKED[LOCK_ENTRY[name] ?? `node_modules/${name}`].version;
    return `npm install -D ${packages.map((name) => `${name}@${version(name)}`).join(" ")}`;
  });

type Run = { code: number | null; stdout: string; stderr: string };

/** `command` run by sh in `cwd` with `env` (and nothing of this process's npm settings). */
function sh(command: string, cwd: string, env: Record<string, string>): Promise<Run> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
  return new Promise((resolve) => {
    const options = { cwd, env: { ...inherited, ...env } as NodeJS.ProcessEnv };
    const child = execFile("sh", ["-c", command], options, (_error, stdout, stderr) =>
      resolve({ code: child.exitCode, stdout, stderr }),
    );
  });
}

describe("the TypeScript client's first run, as the docs give it", () => {
  let origin: string;
  let server: Server;
  let key: string;

  beforeAll(async () => {
    // The client's dist/, which the tarball packs, as the repository's `npm install` builds it (postinstall).
    const build = await sh("npm run -s build --workspace letterpress", ROOT, {});
    expect(build).toEqual({ code: 0, stdout: "", stderr: "" });

    const user = await createUser("monthly");
    await addToLibrary(user, "welcome");
    key = user.key;

    const api = inProcessFetch();
    // The app behind a real HTTP server, as npm and the command reach a deployment: the tarball and the API's GETs.
    const serve = async (request: IncomingMessage, response: ServerResponse) => {
      const url = new URL(request.url!, origin);
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers)) {
        if (typeof value === "string" && name !== "host" && name !== "connection") headers.set(name, value);
      }
      const answer =
        url.pathname === "/letterpress.tgz"
          ? await getClientTarball(new NextRequest(url, { headers }))
          : await api(new Request(new URL(`${url.pathname}${url.search}`, API_BASE_URL), { headers }));
      response
        .writeHead(answer.status, Object.fromEntries(answer.headers))
        .end(Buffer.from(await answer.arrayBuffer()));
    };
    // A failure is left unhandled on purpose: Vitest fails the run with it.
    server = createServer((request, response) => void serve(request, response));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }, 120_000);

  afterAll(() => server?.close());

  it("serves the files npm pack would pack", async () => {
    const packed = await sh("npm pack --dry-run --json --ignore-scripts --workspace letterpress", ROOT, {});
    const npmFiles = (JSON.parse(packed.stdout) as [{ files: { path: string }[] }])[0].files;
    const tarball = path.join(await mkdtemp(path.join(tmpdir(), "letterpress-tarball-")), "letterpress.tgz");
    const served = await getClientTarball(new NextRequest(`${origin}/letterpress.tgz`));
    await writeFile(tarball, Buffer.from(await served.arrayBuffer()));
    const listed = await sh(`tar -tzf ${tarball}`, ROOT, {});
    expect({
      status: served.status,
      type: served.headers.get("content-type"),
      files: listed.stdout.split("\n").sort(),
    }).toEqual({
      status: 200,
      type: "application/gzip",
      files: ["", ...npmFiles.map((file) => `package/${file.path}`)].sort(),
    });
  });

  it("installs the served client, writes the types and makes a misspelt variable tsc's error", async () => {
    const project = await mkdtemp(path.join(tmpdir(), "letterpress-first-run-"));
    const env = {
      LETTERPRESS_API_KEY: key,
      npm_config_prefer_offline: "true",
      npm_config_audit: "false",
      npm_config_fund: "false",
      npm_config_update_notifier: "false",
    };
    expect((await sh("npm init -y", project, env)).code).toBe(0);
    // The docs' client setup, then the README's send with `userName` misspelt.
    await writeFile(
      path.join(project, "index.ts"),
      `import { Letterpress } from "letterpress";
const lp = new Letterpress({ apiKey: process.env.LETTERPRESS_API_KEY, baseUrl: "${origin}/api/v1" });
await lp.send({ template_id: "welcome", to: "ada@example.org", subject: "Welcome", variables: { username: "Ada" } });
`,
    );

    const steps = clientFirstRunSteps(origin);
    const runs: Record<string, Run> = {};
    for (const step of steps) runs[step] = await sh(pinned(step), project, env);
    const [setType, installClient, installTypeScript, writeTsconfig, writeTypes, compile] = steps;
    for (const step of [setType, installClient, installTypeScript, writeTsconfig]) {
      expect(runs[step].code, `${step}: ${runs[step].stderr}`).toBe(0);
    }
    expect(runs[writeTypes]).toEqual({ code: 0, stdout: `Wrote ${CLIENT_DECLARATION_FILE}\n`, stderr: "" });
    expect(runs[compile]).toEqual({
      code: 1,
      stdout:
        "index.ts(3,97): error TS2561: Object literal may only specify known properties, but 'username' does not exist in type 'Variables'. Did you mean to write 'userName'?\n",
      stderr: "",
    });
    expect((await readdir(project)).sort()).toEqual([
      "index.ts",
      CLIENT_DECLARATION_FILE,
      "node_modules",
      "package-lock.json",
      "package.json",
      "tsconfig.json",
    ]);
  }, 120_000);
});
