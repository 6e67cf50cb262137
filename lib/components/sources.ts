import "server-only";
import { codeCharacters, type CompileComponents } from "@/lib/render/sandbox/compile-result";
import type { TemplateFiles } from "@/lib/templates/files";
import { findLinkedComponentSources } from "@/lib/components/data";
import { errors } from "@/lib/core/errors";
import { MAX_LINKED_SOURCE_CHARS } from "@/lib/core/limits";

/** A template whose components would take its compile past MAX_LINKED_SOURCE_CHARS: refused before any is sent. */
export function linkedSourceTooLarge() {
  const message = `A template and the components it imports may hold at most ${MAX_LINKED_SOURCE_CHARS.toLocaleString("en-US")} characters of source in all`;
  return errors.sourceRefused([{ field: "files", message }], { message });
}

// What templates use of the account's components: what a compile of their files is given, the versions a stored
// content pinned (to compile it again), and the hold a save takes on those it pins.
export {
  findDraftPins,
  findStalePins,
  holdCurrentPins,
  findPinnedComponentSources,
  holdPinnedComponents,
  PinnedComponentChanged,
} from "@/lib/components/data";

/**
 * Every `"@components/<name>"` string in the files' text, in one pass each: what they import, and at most a few other
 * strings that look the same (the compile links only what is imported).
 */
const COMPONENT_IMPORT = /["'`]@components\/([a-z][a-z0-9-]{0,63})["'`]/g;

function namesIn(files: TemplateFiles): Set<string> {
  const names = new Set<string>();
  for (const source of Object.values(files)) for (const [, name] of source.matchAll(COMPONENT_IMPORT)) names.add(name);
  return names;
}

/**
 * The account's components a compile of `files` may link: the current version of each one they name (with `drafts`,
 * for a template's draft, each one's draft when it has one), and of each one those import, in turn (at most the
 * account's components, MAX_COMPONENTS), read in one statement.
 */
export async function componentsForCompile(
  accountId: string,
  files: TemplateFiles,
  drafts = false,
): Promise<CompileComponents> {
  const own = codeCharacters(files);
  const available = await findLinkedComponentSources(
    accountId,
    [...namesIn(files)],
    drafts,
    MAX_LINKED_SOURCE_CHARS - own,
  );
  if (available === "too_large") throw linkedSourceTooLarge();
  // Counted again as the compile counts them (UTF-16 units, which PostgreSQL's characters may undercount).
  let characters = own;
  for (const source of Object.values(available)) characters += codeCharacters(source.files);
  if (characters > MAX_LINKED_SOURCE_CHARS) throw linkedSourceTooLarge();
  return { available };
}
