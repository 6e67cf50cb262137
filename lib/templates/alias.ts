import { MAX_TEMPLATE_ALIAS_CHARS } from "@/lib/core/limits";
import { isUuid } from "@/lib/core/schemas";

// A template's alias is read character by character (no regular expression on the caller's text). The database checks
// the same rule (20261126000200_template_aliases.sql).

const isLowerOrDigit = (code: number) => (code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39);
const isAliasCharacter = (code: number) =>
  isLowerOrDigit(code) ||
  code === 0x2d || // -
  code === 0x5f || // _
  code === 0x2e; // .

/**
 * Why `alias` cannot be a template's alias, or null: an alias is 1 to MAX_TEMPLATE_ALIAS_CHARS characters of a-z, 0-9,
 * `-`, `_` and `.`, starting with a letter or digit, and not a uuid (which is always read as an id). Catalogue slugs
 * follow the same rule, so whatever is not an alias names no template either.
 */
export function templateAliasProblem(alias: string): string | null {
  if (alias.length === 0 || alias.length > MAX_TEMPLATE_ALIAS_CHARS)
    return `must be 1 to ${MAX_TEMPLATE_ALIAS_CHARS} characters`;
  for (let i = 0; i < alias.length; i++) {
    if (!isAliasCharacter(alias.charCodeAt(i))) return "may hold only a-z, 0-9, -, _ and .";
  }
  if (!isLowerOrDigit(alias.charCodeAt(0))) return "must start with a letter (a-z) or a digit";
  if (isUuid(alias)) return "must not be a uuid: a uuid always names a template by its id";
  return null;
}

export function isTemplateAlias(value: string): boolean {
  return templateAliasProblem(value) === null;
}

/**
 * What names a template wherever an id is taken (paths under /templates/{id}, `template_id` in sends): a uuid is always
 * an id; anything else that could be an alias is one (or a catalogue slug). Null when it can name no template, so no
 * SQL runs for it.
 */
export function templateRef(idOrAlias: string): { id: string; alias: null } | { id: null; alias: string } | null {
  if (isUuid(idOrAlias)) return { id: idOrAlias, alias: null };
  return isTemplateAlias(idOrAlias) ? { id: null, alias: idOrAlias } : null;
}
