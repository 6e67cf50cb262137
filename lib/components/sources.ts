import "server-only";
import type { CompileComponents, ComponentSource } from "@/lib/render/sandbox/compile-result";
import type { TemplateFiles } from "@/lib/templates/files";
import { findComponentSources } from "@/lib/components/data";

// What templates use of the account's components: what a compile of their files is given, the versions a stored
// content pinned (to compile it again), and the hold a save takes on those it pins.
export {
  findDraftPins,
  findPinnedComponentSources,
  holdPinnedComponents,
  PinnedComponentChanged,
} from "@/lib/components/data";

/** Every name `@components/<name>` in the files' text: a superset of what they import, read in one pass each. */
const COMPONENT_IMPORT = /@components\/([a-z][a-z0-9-]{0,63})/g;

function namesIn(files: TemplateFiles): Set<string> {
  const names = new Set<string>();
  for (const source of Object.values(files)) for (const [, name] of source.matchAll(COMPONENT_IMPORT)) names.add(name);
  return names;
}

/**
 * The account's components a compile of `files` may link: the current version of each one they name (with `drafts`,
 * for a template's draft, each one's draft when it has one), and of each one those import, in turn (at most the
 * account's components, MAX_COMPONENTS).
 */
export async function componentsForCompile(
  accountId: string,
  files: TemplateFiles,
  drafts = false,
): Promise<CompileComponents> {
  const available: Record<string, ComponentSource> = {};
  let wanted = [...namesIn(files)];
  const asked = new Set<string>(wanted);
  while (wanted.length > 0) {
    const found = await findComponentSources(accountId, wanted, drafts);
    wanted = [];
    for (const [name, { imports, ...source }] of Object.entries(found)) {
      available[name] = source;
      for (const imported of imports) {
        if (asked.has(imported)) continue;
        asked.add(imported);
        wanted.push(imported);
      }
    }
  }
  return { available };
}
