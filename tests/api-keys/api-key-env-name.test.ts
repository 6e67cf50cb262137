import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// Every sample a user copies names the API key's environment variable the same way, so the README, the docs page,
// the landing page and the dashboard can be followed together.
const ROOT = path.resolve(import.meta.dirname, "..", "..");
const KEY_ENV_NAME = "LETTERPRESS_API_KEY";
// Shell variables sent as a credential that are not the API key: Vercel Cron's bearer secret.
const OTHER_CREDENTIALS = new Set(["CRON_SECRET"]);

function userFacingFiles(): string[] {
  const under = (dir: string, pattern: RegExp) =>
    readdirSync(path.join(ROOT, dir), { recursive: true, encoding: "utf8" })
      .filter((file) => pattern.test(file))
      .map((file) => path.join(dir, file));
  return ["README.md", ...under("docs", /\.md$/), ...under("app", /\.tsx?$/), ...under("emails", /\.tsx?$/)];
}

describe("the API key's environment variable", () => {
  it(`is ${KEY_ENV_NAME} in every sample that sends the key or sets it`, () => {
    const names = new Map<string, string[]>();
    for (const file of userFacingFiles()) {
      const text = readFileSync(path.join(ROOT, file), "utf8");
      const uses = [
        ...text.matchAll(/(?:X-API-Key:|Bearer) *\$\{?([A-Z][A-Z0-9_]*)/g),
        ...text.matchAll(/\b([A-Z][A-Z0-9_]*)=lp_live_/g),
      ];
      for (const [, name] of uses) {
        if (OTHER_CREDENTIALS.has(name)) continue;
        names.set(name, [...(names.get(name) ?? []), file]);
      }
    }
    // The files of each name, so a stray one is easy to find.
    expect(Object.fromEntries(names)).toEqual({ [KEY_ENV_NAME]: expect.any(Array) });
  });
});
