import { MAX_TEMPLATE_SOURCE_CHARS } from "../../limits";
import type { VariablesSchema } from "../../schemas/variables";

// Apart from ./compile.ts so that the server's side of the compile pool checks a source's size without loading the
// parsers, which only the compile workers need.

/**
 * What compileTemplate (./compile.ts) answers: CommonJS for the sandbox and the variables schema derived from the
 * props type (null when the props are untyped), or why not with a 1-based position.
 */
export type CompileResult =
  | { ok: true; code: string; variables: VariablesSchema | null }
  | { ok: false; message: string; line: number; column: number };

/** The failure of a source past MAX_TEMPLATE_SOURCE_CHARS, or null. */
export function oversizedSource(tsx: string): (CompileResult & { ok: false }) | null {
  if (tsx.length <= MAX_TEMPLATE_SOURCE_CHARS) return null;
  return {
    ok: false,
    message: `Template source is larger than ${MAX_TEMPLATE_SOURCE_CHARS} characters`,
    line: 1,
    column: 1,
  };
}
