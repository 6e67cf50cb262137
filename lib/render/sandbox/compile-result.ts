import { MAX_TEMPLATE_SOURCE_CHARS } from "../../core/limits";
import type { TemplateFiles } from "../../templates/files";
import type { VariablesSchema } from "../../templates/variables-schema";
import type { PassedThroughVariable } from "../analysis/props-schema";
import type { TailwindConfigSite } from "./tailwind-usage";

// Apart from ./compile.ts so that the server's side of the compile pool checks a source's size without loading the
// parsers, which only the compile workers need.

/** One of the account's shared components as a compile reads it. */
export type ComponentSource = { id: string; version: number; files: TemplateFiles; entry: string };
/** A component version a compile linked in. */
export type ComponentPin = {
  name: string;
  version: number;
  /** The component's own id: a name deleted and given again is another component. */ id: string;
};
/** What a compile may import besides its own files: the account's components by name, and the one being saved. */
export type CompileComponents = { available: Readonly<Record<string, ComponentSource>>; saving?: string };

/** A template's `<Tailwind>` configs and candidate classes, which ./tailwind-styles.ts turns into styles. */
export type TailwindRequest = { configs: TailwindConfigSite[]; candidates: string[]; literals: string[] };

/**
 * What compileTemplate (./compile.ts) answers: CommonJS for the sandbox and the variables schema derived from the
 * props type (null when the props are untyped), or why not with a 1-based position. `tailwind` is there until
 * ./tailwind-styles.ts has added the styles to the code (the compile worker does, before answering).
 */
export type CompileResult =
  | {
      ok: true;
      code: string;
      variables: VariablesSchema | null;
      /** The account's components linked in, by name, with their versions (none: absent). */
      components?: ComponentPin[];
      /** The variables its entry passes through to those components, as their props type them (none: absent). */
      passedThrough?: Record<string, PassedThroughVariable>;
      tailwind?: TailwindRequest;
    }
  | { ok: false; message: string; line: number; column: number };

/** What compileTemplateFiles (./compile.ts) answers: a failure also names the file it is in (null: no one file). */
export type FilesCompileResult =
  Extract<CompileResult, { ok: true }> | (Extract<CompileResult, { ok: false }> & { path: string | null });

const tooLarge = (): CompileResult & { ok: false } => ({
  ok: false,
  message: `Template source is larger than ${MAX_TEMPLATE_SOURCE_CHARS} characters`,
  line: 1,
  column: 1,
});

/** The failure of a source past MAX_TEMPLATE_SOURCE_CHARS, or null. */
export function oversizedSource(tsx: string): (CompileResult & { ok: false }) | null {
  return tsx.length <= MAX_TEMPLATE_SOURCE_CHARS ? null : tooLarge();
}

/**
 * The same failure for files whose sources together pass MAX_TEMPLATE_SOURCE_CHARS, or null. JSON files (messages)
 * have caps of their own (lib/templates/files.ts) and do not count.
 */
export function oversizedFiles(files: Record<string, string>): (FilesCompileResult & { ok: false }) | null {
  return codeCharacters(files) <= MAX_TEMPLATE_SOURCE_CHARS ? null : { ...tooLarge(), path: null };
}

/** The characters of code files hold, as the source caps count them: messages (JSON) have caps of their own. */
export function codeCharacters(files: Record<string, string>): number {
  let characters = 0;
  for (const [path, source] of Object.entries(files)) if (!path.endsWith(".json")) characters += source.length;
  return characters;
}
