#!/usr/bin/env node
import { writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { Letterpress } from "./client.ts";
import { tsconfigAdvice } from "./tsconfig-check.ts";
import { templatesDeclaration } from "./types-file.ts";

const USAGE = `Usage: letterpress types [--out FILE]

Writes a declaration file (letterpress-templates.d.ts by default) typing each template of your library's variables,
by id, alias and slug, for send() and render(), and says what to change when tsconfig.json here does not include it.
Reads LETTERPRESS_API_KEY and LETTERPRESS_BASE_URL.`;

async function main(args: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    options: { out: { type: "string", default: "letterpress-templates.d.ts" }, help: { type: "boolean" } },
  });
  if (values.help || positionals.join(" ") !== "types") {
    console.log(USAGE);
    return values.help ? 0 : 1;
  }
  // A template left out is a warning, not a failure: the file types the rest, and code naming that template no longer
  // compiles, which says the same as the warning where it matters.
  await writeFile(values.out, await templatesDeclaration(new Letterpress(), (warning) => console.error(warning)));
  console.log(`Wrote ${values.out}`);
  // The file types send() only if tsc reads it: the commonest reason a first run shows no compile error.
  const advice = tsconfigAdvice(process.cwd(), values.out);
  if (advice) console.log(advice);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
