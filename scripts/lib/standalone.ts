import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdtemp, readdir, rm } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";

// Next's standalone server (`output: "standalone"`, built with LETTERPRESS_STANDALONE=1) as a deployment runs it: the
// traced output copied to a folder outside the repository, started with `node server.js`. Shared by
// `npm run check:deploy` (scripts/check-deploy.ts) and the bench's cold-start measurement (scripts/bench/cold-start.ts).

export type StandaloneCopy = { dir: string; remove: () => Promise<void> };

export type StandaloneServer = {
  url: string;
  child: ChildProcess;
  /** performance.now() when the process was spawned. */
  spawnedAt: number;
  output: () => string;
  stop: () => Promise<void>;
};

/** The folder holding server.js in .next/standalone: its root, or the app's path under the tracing root. */
async function findServerDir(standalone: string): Promise<string> {
  if (existsSync(path.join(standalone, "server.js"))) return standalone;
  for (const entry of await readdir(standalone, { withFileTypes: true, recursive: true })) {
    const parent = entry.parentPath;
    if (entry.name === "server.js" && !parent.split(path.sep).includes("node_modules")) return parent;
  }
  throw new Error(`no server.js under ${standalone}`);
}

/**
 * Copies .next/standalone, with .next/static and public/ where the server looks for them, to a new temporary folder,
 * and answers the folder holding server.js. Nothing else comes along: no node_modules but the traced ones.
 */
export async function copyStandaloneBuild(root: string): Promise<StandaloneCopy & { serverDir: string }> {
  const standalone = path.join(root, ".next", "standalone");
  if (!existsSync(standalone)) {
    throw new Error(
      "No .next/standalone: build with Next's standalone output first (LETTERPRESS_STANDALONE=1 npm run build).",
    );
  }
  // Node looks for packages in every parent folder: one there would hide a file the tracer missed.
  for (let dir = os.tmpdir(); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, "node_modules"))) {
      throw new Error(`${path.join(dir, "node_modules")} exists: the copy would resolve packages from it`);
    }
    if (path.dirname(dir) === dir) break;
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), "letterpress-standalone-"));
  const remove = () => rm(dir, { recursive: true, force: true });
  try {
    await cp(standalone, dir, { recursive: true, verbatimSymlinks: true });
    const serverDir = path.join(dir, path.relative(standalone, await findServerDir(standalone)));
    await cp(path.join(root, ".next", "static"), path.join(serverDir, ".next", "static"), { recursive: true });
    if (existsSync(path.join(root, "public"))) {
      await cp(path.join(root, "public"), path.join(serverDir, "public"), { recursive: true });
    }
    return { dir, serverDir, remove };
  } catch (error) {
    await remove();
    throw error;
  }
}

/** A port on 127.0.0.1 that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Whether something accepts TCP connections on the port: a connection opened and closed, no request sent. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/**
 * `node server.js` in `serverDir` with only `env` (and PATH): nothing from this process's environment leaks in.
 * Resolves once the port accepts connections, having sent the server no request: its first request is the caller's.
 */
export async function startStandaloneServer(opts: {
  serverDir: string;
  env: Record<string, string>;
  node?: string;
  timeoutMs?: number;
}): Promise<StandaloneServer> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    PORT: String(port),
    HOSTNAME: "127.0.0.1",
    ...opts.env,
  };
  const spawnedAt = performance.now();
  const child = spawn(opts.node ?? process.execPath, ["server.js"], {
    cwd: opts.serverDir,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => void (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => void (output += chunk.toString()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
    await exited;
    clearTimeout(timer);
  };
  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`node server.js exited with ${child.exitCode}:\n${output}`);
    if (await accepts(port)) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`node server.js did not listen on ${port} in time:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return { url: `http://127.0.0.1:${port}`, child, spawnedAt, output: () => output, stop };
}
