import "server-only";
import type { ComponentPin } from "@/lib/render/sandbox/compile-result";
import { errors } from "@/lib/core/errors";
import { catalogueVariablesSchema, getCatalogueEntry } from "@/lib/catalogue/catalogue";
import { catalogueLocales, catalogueSourceFiles } from "@/lib/catalogue/locales";
import {
  findLibraryTemplate,
  findReadableTemplate,
  findTemplateToCheck,
  storeTemplateCompatibility,
  type ReadableTemplate,
  type TemplateRecord,
} from "@/lib/templates/data/templates";
import { catalogueCompatibilityOffThread } from "@/lib/render/workers/catalogue-pool";
import { renderInSandbox } from "@/lib/render/sandbox";
import { exampleFromSchema } from "@/lib/render/analysis/variables";
import { compatibilityEntries, type CompatibilityFinding } from "@/lib/render/analysis/warnings";
import type { TemplateDetails } from "@/lib/templates/schemas";
import type { VariablesSchema } from "@/lib/templates/variables-schema";

// The dashboard's template pages read the library's template as it is stored.
export { findLibraryTemplate, type TemplateRecord };

type TemplateContract = Pick<TemplateRecord, "owner_account_id" | "slug" | "variables" | "preview_props">;

/** GET /templates/{id}: a template's details and its contract, for its library's owner or any public catalogue one. */
export async function getTemplateDetailsOrThrow(accountId: string, templateId: string): Promise<TemplateDetails> {
  const template = await findReadableTemplate(accountId, templateId);
  if (!template) throw errors.templateNotFound();
  const variables = templateVariablesSchema(template);
  const example = await templateExample(template);
  return {
    id: template.id,
    name: template.name,
    description: template.description,
    is_public: template.is_public,
    price: Number(template.price),
    slug: template.slug,
    category: template.category,
    author: template.author,
    alias: template.alias,
    in_library: template.added_via !== null,
    added_via: template.added_via,
    updated_at: template.updated_at.toISOString(),
    version: template.published_version,
    draft:
      template.draft_revision === null
        ? null
        : { revision: template.draft_revision, updated_at: template.draft_updated_at!.toISOString() },
    variables,
    example,
    compatibility: compatibilityEntries(await templateCompatibility(accountId, template, example)),
    ...templateLocalesOf(template),
    ...(template.components?.length ? { components: pinsShown(template.components) } : {}),
  };
}

/** `locales` and `default_locale` of a template with messages: a user template's as saved, a catalogue one's files. */
export function templateLocalesOf(
  template: Pick<ReadableTemplate, "owner_account_id" | "slug" | "locales" | "default_locale">,
): { locales: string[]; default_locale: string } | Record<string, never> {
  if (template.owner_account_id === null) {
    const localized = template.slug ? catalogueLocales(template.slug) : null;
    return localized ? { locales: localized.locales, default_locale: localized.defaultLocale } : {};
  }
  return template.locales && template.default_locale !== null
    ? { locales: template.locales.map((locale) => locale.tag), default_locale: template.default_locale }
    : {};
}

/**
 * A template's source as files, when it is more than one: a user template's own files, or a localized catalogue
 * template's component with its messages/<tag>.json (what a user template is saved from). Null for one file alone.
 * The API's source, the dashboard's zip and its source viewer all show these.
 */
export function templateSourceFiles(
  template: Pick<TemplateRecord, "owner_account_id" | "slug" | "code" | "files" | "entry">,
): { files: Record<string, string>; entry: string } | null {
  if (template.owner_account_id === null && template.slug) return catalogueSourceFiles(template.slug, template.code);
  return template.files && template.entry ? { files: template.files, entry: template.entry } : null;
}

/** GET /templates/{id}/source: the React Email source of a template in the account's library. */
export async function getTemplateSourceOrThrow(accountId: string, templateId: string) {
  const template = await findLibraryTemplate(accountId, templateId);
  if (!template) throw errors.templateNotFound();
  const { name, description, code } = template;
  const several = templateSourceFiles(template);
  return several ? { name, description, code: several.files[several.entry], ...several } : { name, description, code };
}

/**
 * Email client support of the template's example render. A user template's was stored with its content when saved;
 * content saved before that was kept is rendered once here, and its findings stored. A catalogue template's is the
 * same for everyone and changes only with a deploy: rendered once per process.
 */
export async function templateCompatibility(
  accountId: string,
  template: Pick<ReadableTemplate, "id" | "owner_account_id" | "slug" | "compatibility">,
  example: Record<string, unknown>,
): Promise<CompatibilityFinding[]> {
  if (template.owner_account_id === null) {
    const entry = template.slug ? getCatalogueEntry(template.slug) : undefined;
    if (!entry) return [];
    let findings = catalogueFindings.get(entry.slug);
    if (!findings) {
      findings = catalogueCompatibilityOffThread(accountId, entry.slug, entry.variables.parse(example));
      catalogueFindings.set(entry.slug, findings);
      findings.then(
        (found) => found === null && catalogueFindings.delete(entry.slug),
        () => catalogueFindings.delete(entry.slug),
      );
    }
    return (await findings) ?? [];
  }
  if (template.compatibility) return template.compatibility;
  const saved = await findTemplateToCheck(template.id);
  if (!saved?.compiled_code) return [];
  const { compatibility = [] } = await renderInSandbox({
    owner: accountId,
    cacheKey: `${template.id}:${saved.version}`,
    compiledCode: saved.compiled_code,
    props: example,
    compatibility: true,
  });
  // A check that was skipped (it ran past its deadline) is not kept: the next read checks again.
  if (compatibility === null) return [];
  await storeTemplateCompatibility(template.id, saved.version, compatibility);
  return compatibility;
}

/** Each catalogue template's findings, once per process (a check that was skipped is not kept). */
const catalogueFindings = new Map<string, Promise<CompatibilityFinding[] | null>>();

/** Sample variables that render: the template's PreviewProps, else values made from its schema. */
export async function templateExample(template: TemplateContract): Promise<Record<string, unknown>> {
  return (
    (await templatePreviewProps(template)) ??
    (exampleFromSchema(templateVariablesSchema(template)) as Record<string, unknown>)
  );
}

/** A catalogue template's schema comes from its code (the stored copy is the seed's); a user template's is stored. */
export function templateVariablesSchema(template: TemplateContract): VariablesSchema {
  const entry = template.owner_account_id === null && template.slug ? getCatalogueEntry(template.slug) : undefined;
  return entry ? catalogueVariablesSchema(entry) : template.variables;
}

/**
 * A template's PreviewProps as kept: the catalogue component's, or a user template's as read when it was saved. Null
 * when it has none, or was saved before they were kept: this never runs the template's code.
 */
export async function templatePreviewProps(template: TemplateContract): Promise<Record<string, unknown> | null> {
  if (template.owner_account_id !== null) return template.preview_props;
  const entry = template.slug ? getCatalogueEntry(template.slug) : undefined;
  const component = (await entry?.loadComponent()) as { PreviewProps?: Record<string, unknown> } | undefined;
  return component?.PreviewProps ?? null;
}

/** The components a content was built with, as the API names them: each one's name and version. */
export function pinsShown(pins: ComponentPin[]): { name: string; version: number }[] {
  return pins.map(({ name, version }) => ({ name, version }));
}
