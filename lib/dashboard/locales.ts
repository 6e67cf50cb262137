import type { VariablesSchema } from "@/lib/templates/variables-schema";

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
