import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { runAdmin } from "@/bin/admin";

/**
 * The admin CLI run in the test's own process (bin/admin.ts `runAdmin`, which its entry point calls with the
 * command line): its JSON answer, or an error holding what it wrote to stderr, as a failed run shows it. A process of
 * its own costs more than a second of loading the app; one test per CLI file still runs the real command.
 */
export async function admin(args: string[]): Promise<any> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await runAdmin(args, { log: (text) => stdout.push(text), error: (text) => stderr.push(text) });
  if (code !== 0) throw new Error(stderr.join("\n"));
  return JSON.parse(stdout.join("\n"));
}

/**
 * The admin CLI as users run it, in a process of its own, in the embedded default (no Resend): its JSON answer. One
 * test per CLI file runs the real command; the others call `admin`.
 */
export async function adminProcess(args: string[]): Promise<any> {
  const { stdout } = await promisify(execFile)(
    "node_modules/.bin/tsx",
    ["--import", "./bin/server-only-hook.mjs", "bin/admin.ts", ...args],
    { env: { ...process.env, RESEND_API_KEY: undefined, RESEND_BASE_URL: undefined }, timeout: 60_000 },
  );
  return JSON.parse(stdout);
}
