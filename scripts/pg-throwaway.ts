import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { appendFile, chown, mkdtemp, readFile, rm } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";

// A throwaway PostgreSQL cluster (15, from the Debian packages) in a temp directory on a free port of 127.0.0.1,
// stopped and deleted when done. Used by .ci/run (TEST_DATABASE_URL for the test suite) and by `npm run bench`.
//
//   tsx scripts/pg-throwaway.ts [--env NAME] -- COMMAND [ARGS…]
//       starts a cluster, runs COMMAND with NAME (default TEST_DATABASE_URL) set to its URL, then stops and deletes
//       the cluster and exits with COMMAND's status.
//   tsx scripts/pg-throwaway.ts
//       starts a cluster, prints its URL on stdout and keeps it until Ctrl-C.
//
// initdb refuses to run as root: as root the cluster belongs to the `postgres` user (created when missing) and its
// commands run through runuser.

export type ThrowawayPostgres = { url: string; port: number; dir: string; version: string; stop: () => Promise<void> };

const PREFERRED_MAJOR = "15";

/** The directory holding initdb and pg_ctl: on PATH, else Debian's /usr/lib/postgresql/<major>/bin (15 first). */
export function findPostgresBinDir(): string | null {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    if (dir && existsSync(path.join(dir, "initdb")) && existsSync(path.join(dir, "pg_ctl"))) return dir;
  }
  const root = "/usr/lib/postgresql";
  let majors: string[] = [];
  try {
    majors = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  } catch {
    return null;
  }
  for (const major of [PREFERRED_MAJOR, ...majors.filter((m) => m !== PREFERRED_MAJOR)]) {
    const dir = path.join(root, major, "bin");
    if (existsSync(path.join(dir, "initdb")) && existsSync(path.join(dir, "pg_ctl"))) return dir;
  }
  return null;
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

type Runner = { user: string | null; run: (file: string, args: string[]) => { status: number | null; output: string } };

function commandRunner(): Runner {
  const exec = (file: string, args: string[]) => {
    const result = spawnSync(file, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
    if (result.error) return { status: null, output: result.error.message };
    return { status: result.status, output: `${result.stdout}${result.stderr}` };
  };
  if (process.getuid?.() !== 0) return { user: null, run: exec };

  const user = "postgres";
  if (spawnSync("id", ["-u", user]).status !== 0) {
    const created = exec("useradd", ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", user]);
    if (created.status !== 0) {
      throw new Error(
        `Running as root, initdb needs an unprivileged user, and creating "${user}" failed: ${created.output.trim()}`,
      );
    }
  }
  const viaRunuser = spawnSync("runuser", ["--help"], { stdio: "ignore" }).error === undefined;
  return {
    user,
    run: viaRunuser
      ? (file, args) => exec("runuser", ["-u", user, "--", file, ...args])
      : (file, args) => exec("su", [user, "-s", "/bin/sh", "-c", [file, ...args].map(shellQuote).join(" ")]),
  };
}

function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

function userIds(user: string): { uid: number; gid: number } {
  const uid = Number(spawnSync("id", ["-u", user], { encoding: "utf8" }).stdout.trim());
  const gid = Number(spawnSync("id", ["-g", user], { encoding: "utf8" }).stdout.trim());
  return { uid, gid };
}

/** Starts a fresh cluster. Throws with initdb's or the server's own output when something fails. */
export async function startThrowawayPostgres(opts: { log?: (line: string) => void } = {}): Promise<ThrowawayPostgres> {
  const binDir = findPostgresBinDir();
  if (!binDir) {
    throw new Error("PostgreSQL server binaries (initdb, pg_ctl) not found: install the postgresql-15 package.");
  }
  const initdb = path.join(binDir, "initdb");
  const pgCtl = path.join(binDir, "pg_ctl");
  const version = spawnSync(initdb, ["--version"], { encoding: "utf8" })
    .stdout.trim()
    .replace(/^initdb \(PostgreSQL\)/, "PostgreSQL");
  const runner = commandRunner();

  const dir = await mkdtemp(path.join(os.tmpdir(), "letterpress-pg-"));
  const dataDir = path.join(dir, "data");
  const cleanUp = () => rm(dir, { recursive: true, force: true });
  try {
    if (runner.user) {
      const { uid, gid } = userIds(runner.user);
      await chown(dir, uid, gid);
    }
    const init = runner.run(initdb, [
      "-D",
      dataDir,
      "-U",
      "postgres",
      "--auth=trust",
      "-E",
      "UTF8",
      "--no-locale",
      "--no-sync",
    ]);
    if (init.status !== 0) throw new Error(`initdb failed:\n${init.output}`);

    // Durability is pointless for a cluster deleted after the run; turning it off makes the tests faster.
    const settings = {
      listen_addresses: "'127.0.0.1'",
      unix_socket_directories: `'${dir}'`,
      max_connections: "200",
      fsync: "off",
      synchronous_commit: "off",
      full_page_writes: "off",
    };
    const conf = Object.entries(settings)
      .map(([k, v]) => `${k} = ${v}`)
      .join("\n");
    await appendFile(path.join(dataDir, "postgresql.conf"), `\n# letterpress throwaway cluster\n${conf}\n`);

    let port = 0;
    let started: ReturnType<Runner["run"]> = { status: null, output: "" };
    for (let attempt = 0; attempt < 3; attempt++) {
      port = await freePort(); // another process may take it before the server binds: retry on a new one
      started = runner.run(pgCtl, [
        "-D",
        dataDir,
        "-l",
        path.join(dir, "server.log"),
        "-o",
        `-p ${port}`,
        "-w",
        "-t",
        "30",
        "start",
      ]);
      if (started.status === 0) break;
    }
    if (started.status !== 0) {
      const log = await readFile(path.join(dir, "server.log"), "utf8").catch(() => "");
      throw new Error(`pg_ctl start failed:\n${started.output}\n${log}`);
    }
    opts.log?.(`Throwaway ${version} cluster on 127.0.0.1:${port} (${dataDir})`);

    let stopped = false;
    return {
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
      port,
      dir,
      version,
      stop: async () => {
        if (stopped) return;
        stopped = true;
        runner.run(pgCtl, ["-D", dataDir, "-m", "immediate", "-w", "stop"]);
        await cleanUp();
      },
    };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}

/** Synchronous last-resort cleanup for `process.on("exit")`, where nothing asynchronous runs. */
export function stopThrowawayPostgresSync(pg: ThrowawayPostgres): void {
  const binDir = findPostgresBinDir();
  const owner = process.getuid?.() === 0 ? "postgres" : null;
  if (binDir) {
    const args = ["-D", path.join(pg.dir, "data"), "-m", "immediate", "-w", "stop"];
    const pgCtl = path.join(binDir, "pg_ctl");
    if (owner) spawnSync("runuser", ["-u", owner, "--", pgCtl, ...args], { stdio: "ignore" });
    else spawnSync(pgCtl, args, { stdio: "ignore" });
  }
  spawnSync("rm", ["-rf", pg.dir], { stdio: "ignore" });
}

async function main(argv: string[]): Promise<number> {
  let envName = "TEST_DATABASE_URL";
  const separator = argv.indexOf("--");
  const own = separator === -1 ? argv : argv.slice(0, separator);
  const command = separator === -1 ? [] : argv.slice(separator + 1);
  for (let i = 0; i < own.length; i++) {
    if (own[i] === "--env" && own[i + 1]) envName = own[++i];
    else {
      console.error(`Usage: tsx scripts/pg-throwaway.ts [--env NAME] [-- COMMAND [ARGS…]]`);
      return 2;
    }
  }

  const pg = await startThrowawayPostgres({ log: (line) => console.error(`[pg-throwaway] ${line}`) });
  // Whatever happens from here on, the cluster is stopped and its directory deleted.
  process.on("exit", () => stopThrowawayPostgresSync(pg));
  let child: ChildProcess | null = null;
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.on(signal, () => {
      // With a command running, let it stop first (its exit stops the cluster); otherwise stop now.
      if (child && child.exitCode === null && child.signalCode === null) signalGroup(child, signal);
      else process.exit(128 + os.constants.signals[signal]);
    });
  }

  if (command.length === 0) {
    console.log(pg.url);
    console.error("[pg-throwaway] Running until Ctrl-C; the cluster is deleted then.");
    setInterval(() => {}, 1 << 30); // keeps the process alive until a signal arrives
    return await new Promise<number>(() => {});
  }

  console.error(`[pg-throwaway] ${envName}=${pg.url}`);
  // Its own process group, so a signal reaches everything it started: `npm` exits on SIGTERM without waiting for
  // its child, which would otherwise keep running against a deleted cluster.
  child = spawn(command[0], command.slice(1), {
    stdio: "inherit",
    detached: true,
    env: { ...process.env, [envName]: pg.url },
  });
  const running = child;
  const code = await new Promise<number>((resolve) => {
    running.once("error", (error) => {
      console.error(`[pg-throwaway] Could not run ${command[0]}: ${error.message}`);
      resolve(127);
    });
    running.once("exit", (status, signal) =>
      resolve(status ?? (signal ? 128 + (os.constants.signals[signal] ?? 0) : 1)),
    );
  });
  signalGroup(running, "SIGTERM"); // anything the command left behind
  await pg.stop();
  return code;
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid) process.kill(-child.pid, signal);
  } catch {
    // the group is gone already
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: Error) => {
      console.error(`[pg-throwaway] ${error.message}`);
      process.exit(1);
    },
  );
}
