import { execFile, execFileSync } from "node:child_process";
import { closeSync, constants, openSync, writeSync } from "node:fs";
import { mkdir, mkdtemp, readFile, symlink, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { revokeApiKey } from "@/lib/api-keys/data";
import { createUser, type TestUser } from "../support/api";
import { API_BASE_URL, inProcessClient, inProcessFetch } from "../support/client";

const ROOT = path.resolve(import.meta.dirname, "../..");
// This worktree's source of the command, run as `npx letterpress types` runs its build.
const CLI = path.join(ROOT, "packages/letterpress/src/cli.ts");
const TSX = path.join(ROOT, "node_modules/.bin/tsx");

const ORDER = `type Props = { orderId: string; note?: string };
export default function Order({ orderId, note = "" }: Props) {
  return <p>{orderId} {note}</p>;
}
`;

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * The API behind a real HTTP server, as the command reaches a deployment (it only reads: GETs without a body), each
 * JSON answer passed through `change` on its way.
 */
function apiServer(change: (json: any) => void = () => {}): Server {
  const app = inProcessFetch();
  const serve = async (request: IncomingMessage, response: ServerResponse) => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (typeof value === "string" && name !== "host" && name !== "connection") headers.set(name, value);
    }
    const answer = await app(new Request(new URL(request.url!, API_BASE_URL), { method: request.method, headers }));
    const json = await answer.json();
    change(json);
    response.writeHead(answer.status, { "content-type": "application/json" }).end(JSON.stringify(json));
  };
  // A failure is left unhandled on purpose: Vitest fails the run with it.
  return createServer((request, response) => void serve(request, response));
}

/** `letterpress types` with `args`, run in `cwd` against `baseUrl` with `key`: its exit code and whole output. */
function runTypes(args: string[], cwd: string, key: string, baseUrl: string) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = execFile(
      TSX,
      [CLI, "types", ...args],
      { cwd, env: { ...process.env, LETTERPRESS_API_KEY: key, LETTERPRESS_BASE_URL: baseUrl } },
      (_error, stdout, stderr) => resolve({ code: child.exitCode, stdout, stderr }),
    );
  });
}

/**
 * A FIFO, and whether anything opened it for reading: a reader's open blocks until a writer comes, so polling for one
 * (a non-blocking open for writing succeeds only while a reader waits or reads) catches every open, then lets it read.
 */
function watchedFifo(file: string) {
  execFileSync("mkfifo", [file]);
  let opened = false;
  const poll = () => {
    let fd: number;
    try {
      fd = openSync(file, constants.O_WRONLY | constants.O_NONBLOCK);
    } catch {
      return; // ENXIO: no reader
    }
    if (!opened) writeSync(fd, JSON.stringify({ type: "string", description: "read from the FIFO" }));
    opened = true;
    closeSync(fd);
  };
  const timer = setInterval(poll, 10);
  return {
    opened: () => {
      poll();
      return opened;
    },
    stop: () => clearInterval(timer),
  };
}

describe("npx letterpress types, given schemas whose $refs point outside them", () => {
  let user: TestUser;
  const beaconRequests: string[] = [];
  let beacon: Server;
  let beaconUrl: string;
  let api: Server;
  let baseUrl: string;
  let fifo: ReturnType<typeof watchedFifo>;
  let project: string;
  let secret: string;
  let ids: { order: string; broken: string };

  beforeAll(async () => {
    user = await createUser("monthly");
    const lp = inProcessClient(user.key);
    const create = async (name: string, alias: string) =>
      (await lp.templates.create({ name, files: { "email.tsx": ORDER }, alias })).template.id;
    ids = { order: await create("Order", "order"), broken: await create("Broken", "broken") };

    beacon = createServer((request, response) => {
      beaconRequests.push(`${request.method} ${request.url}`);
      response.writeHead(200, { "content-type": "application/json" }).end('{ "type": "string" }');
    });
    beaconUrl = await listen(beacon);

    const folder = await mkdtemp(path.join(tmpdir(), "letterpress-types-"));
    project = path.join(folder, "project");
    await mkdir(project);
    secret = path.join(folder, "secret.json");
    fifo = watchedFifo(secret);

    // Schemas as a server answers them whatever it stores (templates saved before it refused `$ref` in defaults):
    // `$ref`s in data, by URL, absolute and relative path, and in schemas, beside an internal one, which is followed.
    const schemas: Record<string, unknown> = {
      order: {
        type: "object",
        $defs: { OrderId: { type: "string", pattern: "^A-" } },
        properties: {
          orderId: { $ref: "#/$defs/OrderId" },
          note: { type: "string", default: { $ref: `${beaconUrl}/default` } },
          // A const is data: its `$ref` is part of the literal type, not the schema it points at.
          reference: { const: { $ref: "#/$defs/OrderId" } },
          shipping: {
            type: "object",
            properties: { street: { type: "string" } },
            default: { $ref: secret },
            examples: [{ $ref: "../secret.json" }, { $ref: `${beaconUrl}/examples` }],
          },
        },
        required: ["orderId"],
        additionalProperties: true,
      },
      broken: {
        type: "object",
        properties: { logo: { $ref: `${beaconUrl}/schema` }, footer: { $ref: secret } },
        additionalProperties: true,
      },
    };
    api = apiServer((json) => {
      const alias: string | undefined = json.template?.alias;
      if (alias && Object.hasOwn(schemas, alias)) json.template.variables = schemas[alias];
    });
    baseUrl = `${await listen(api)}/api/v1`;
  });

  afterAll(() => {
    fifo?.stop();
    beacon?.close();
    api?.close();
  });

  it("fetches no URL and opens no file, and skips the template it cannot type with a warning naming it", async () => {
    const run = await runTypes(["--out", "types.d.ts"], project, user.key, baseUrl);

    expect({ beaconRequests, fifoOpened: fifo.opened() }).toEqual({ beaconRequests: [], fifoOpened: false });
    expect(run).toEqual({
      code: 0,
      stdout: `Wrote types.d.ts
No tsconfig.json here: for tsc to check send() and render() against types.d.ts, write one such as { "compilerOptions": { "module": "nodenext", "types": ["node"], "strict": true, "noEmit": true, "skipLibCheck": true } }
`,
      stderr: `Skipped template "Broken" (${ids.broken}): its variables schema could not be made into a type: Refs should have been resolved by the resolver! { '$ref': '${beaconUrl}/schema' }\n`,
    });
    const declaration = await readFile(path.join(project, "types.d.ts"), "utf8");
    const order = declaration.slice(declaration.indexOf("declare namespace Order"));
    expect(order.slice(0, order.indexOf("\n}\n") + 3)).toEqual(`declare namespace Order {
  export type OrderId = string;
  
  export interface Variables {
    orderId: OrderId;
    note?: string;
    reference?: {$ref: "#/$defs/OrderId"};
    shipping?: {
      street?: string;
    };
  }
}
`);
    expect(declaration.slice(declaration.indexOf('declare module "letterpress"')))
      .toEqual(`declare module "letterpress" {
  interface LetterpressTemplates {
    /** Order */
    "${ids.order}": Order.Variables;
    /** Order */
    "order": Order.Variables;
  }
}
`);
  }, 120_000);
});

describe("npx letterpress types, in a project whose tsconfig.json may leave the file out", () => {
  let key: string;
  let api: Server;
  let baseUrl: string;

  beforeAll(async () => {
    key = (await createUser("monthly")).key;
    api = apiServer();
    baseUrl = `${await listen(api)}/api/v1`;
  });

  afterAll(() => api?.close());

  /** A project with `tsconfig` and TypeScript installed (the repository's, linked), and a source file in src/. */
  async function project(tsconfig: string): Promise<string> {
    const folder = await mkdtemp(path.join(tmpdir(), "letterpress-tsconfig-"));
    await mkdir(path.join(folder, "node_modules"));
    await symlink(path.join(ROOT, "node_modules/typescript"), path.join(folder, "node_modules/typescript"));
    await mkdir(path.join(folder, "src"));
    await writeFile(path.join(folder, "src/index.ts"), "export {};\n");
    await writeFile(path.join(folder, "tsconfig.json"), tsconfig);
    return folder;
  }

  // As `tsc --init` writes them: comments and a trailing comma.
  const SOURCES_ONLY = `{
  // Only the sources
  "compilerOptions": { "module": "nodenext", "strict": true },
  "include": ["src"],
}
`;

  it("prints the include line that reads the file when the tsconfig.json leaves it out", async () => {
    expect(await runTypes([], await project(SOURCES_ONLY), key, baseUrl)).toEqual({
      code: 0,
      stdout: `Wrote letterpress-templates.d.ts
tsc does not read letterpress-templates.d.ts: in tsconfig.json, set "include": ["src", "letterpress-templates.d.ts"]
`,
      stderr: "",
    });
  });

  it("prints only what it wrote when the tsconfig.json reads the file", async () => {
    const inSources = await runTypes(
      ["--out", "src/letterpress-templates.d.ts"],
      await project(SOURCES_ONLY),
      key,
      baseUrl,
    );
    const everything = await runTypes([], await project(`{ "compilerOptions": { "strict": true } }`), key, baseUrl);
    expect({ inSources, everything }).toEqual({
      inSources: { code: 0, stdout: "Wrote src/letterpress-templates.d.ts\n", stderr: "" },
      everything: { code: 0, stdout: "Wrote letterpress-templates.d.ts\n", stderr: "" },
    });
  });
});

describe("npx letterpress types with a key the API refuses", () => {
  let api: Server;
  let baseUrl: string;

  beforeAll(async () => {
    api = apiServer();
    baseUrl = `${await listen(api)}/api/v1`;
  });

  afterAll(() => api?.close());

  it("prints the server's message: the key is unknown or revoked", async () => {
    const user = await createUser();
    await revokeApiKey(user.keyId);
    const project = await mkdtemp(path.join(tmpdir(), "letterpress-types-"));
    const run = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(
        TSX,
        [CLI, "types"],
        { cwd: project, env: { ...process.env, LETTERPRESS_API_KEY: user.key, LETTERPRESS_BASE_URL: baseUrl } },
        (_error, stdout, stderr) => resolve({ code: child.exitCode, stdout, stderr }),
      );
    });
    expect(run).toEqual({
      code: 1,
      stdout: "",
      stderr:
        "The API key is unknown or revoked: use a key listed on the dashboard's API keys page (Settings), or create one.\n",
    });
  }, 120_000);
});
