import { MAX_TEMPLATE_LOCALES } from "@/lib/core/limits";
import { canonicalTag, messagesPath, messagesTag } from "@/lib/templates/files";
import type { VariablesSchema } from "@/lib/templates/variables-schema";

// The dashboard's locales: the editor's (its messages files, a new one, the default), the template page's picker.

/**
 * The locales the template page's picker offers, the default locale first, then the others alphabetically (as the API
 * lists them); null for a template without messages, which shows no picker. Reads a template record's locales
 * (`{ tag }` each) or its details' (tags), so a catalogue template whose details carry locales gets one too.
 */
export function pickerLocales(template: {
  locales?: readonly (string | { tag: string })[] | null;
  default_locale?: string | null;
}): string[] | null {
  const { locales, default_locale: defaultLocale } = template;
  if (!locales || locales.length === 0 || !defaultLocale) return null;
  const tags = locales.map((locale) => (typeof locale === "string" ? locale : locale.tag));
  return [defaultLocale, ...tags.filter((tag) => tag !== defaultLocale).sort()];
}

/**
 * The variables the page's form edits for a template with a picker: all but `locale`, which the picker sets (a render
 * gives the component the resolved tag as its `locale` prop, whatever the variables say).
 */
export function formVariablesSchema(schema: VariablesSchema, locales: string[] | null): VariablesSchema {
  if (!locales || !Object.hasOwn(schema.properties, "locale")) return schema;
  const { locale: _locale, ...properties } = schema.properties;
  const required = schema.required?.filter((name) => name !== "locale");
  return { ...schema, properties, ...(required ? { required } : {}) };
}

/** The tags of the editor's messages files, alphabetical, as the API lists a template's locales. */
export const localesOf = (paths: string[]) =>
  paths
    .map(messagesTag)
    .filter((tag): tag is string => tag !== null)
    .sort();

/** The default locale the save would choose: `chosen` while it is one of them, else `en`, else the first. */
export function effectiveDefault(tags: string[], chosen: string | null): string | null {
  if (chosen !== null && tags.includes(chosen)) return chosen;
  if (tags.length === 0) return null;
  return tags.includes("en") ? "en" : tags[0];
}

/** The `messages/<tag>.json` of a locale the author typed (written as Intl writes it), or why it cannot be added. */
export function newLocale(typed: string, paths: string[]): { path: string } | { error: string } {
  const tag = canonicalTag(typed.trim());
  if (tag === null || typed.trim() === "")
    return { error: "Enter a BCP 47 language tag, such as fr, de, pt-BR or zh-Hant." };
  const path = messagesPath(tag);
  if (paths.includes(path)) return { error: `The template has ${tag} already.` };
  if (localesOf(paths).length >= MAX_TEMPLATE_LOCALES)
    return { error: `A template holds messages for at most ${MAX_TEMPLATE_LOCALES} locales.` };
  return { path };
}
