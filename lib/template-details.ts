import "server-only";
import { ApiError, errors } from "@/lib/api/errors";
import { catalogueVariablesSchema, getCatalogueEntry } from "@/lib/catalogue";
import { findReadableTemplate, type TemplateRecord } from "@/lib/db/templates";
import { readPreviewProps } from "@/lib/render/sandbox";
import { exampleFromSchema } from "@/lib/render/variables";
import type { TemplateDetails } from "@/lib/schemas/templates";
import type { VariablesSchema } from "@/lib/schemas/variables";

type TemplateContract = Pick<
  TemplateRecord,
  "id" | "owner_account_id" | "slug" | "version" | "compiled_code" | "variables" | "preview_props"
>;

/** GET /templates/{id}: a template's details and its contract, for its library's owner or any public catalogue one. */
export async function getTemplateDetailsOrThrow(accountId: string, templateId: string): Promise<TemplateDetails> {
  const template = await findReadableTemplate(accountId, templateId);
  if (!template) throw errors.templateNotFound();
  const variables = templateVariablesSchema(template);
  return {
    id: template.id,
    name: template.name,
    description: template.description,
    is_public: template.is_public,
    price: Number(template.price),
    slug: template.slug,
    category: template.category,
    author: template.author,
    in_library: template.added_via !== null,
    added_via: template.added_via,
    updated_at: template.updated_at.toISOString(),
    variables,
    example: (await templatePreviewProps(template)) ?? (exampleFromSchema(variables) as Record<string, unknown>),
  };
}

/** A catalogue template's schema comes from its code (the stored copy is the seed's); a user template's is stored. */
export function templateVariablesSchema(template: TemplateContract): VariablesSchema {
  const entry = template.owner_account_id === null && template.slug ? getCatalogueEntry(template.slug) : undefined;
  return entry ? catalogueVariablesSchema(entry) : template.variables;
}

/**
 * A template's PreviewProps: the catalogue component's, or a user template's as read when it was saved (templates
 * saved before they were kept are read in the sandbox now). Null when it has none.
 */
export async function templatePreviewProps(template: TemplateContract): Promise<Record<string, unknown> | null> {
  if (template.owner_account_id === null) {
    const component = template.slug
      ? (getCatalogueEntry(template.slug)?.component as { PreviewProps?: Record<string, unknown> } | undefined)
      : undefined;
    return component?.PreviewProps ?? null;
  }
  if (template.preview_props) return template.preview_props;
  if (!template.compiled_code) return null;
  try {
    return await readPreviewProps({
      owner: template.owner_account_id,
      cacheKey: `${template.id}:${template.version}`,
      compiledCode: template.compiled_code,
    });
  } catch (error) {
    // A busy sandbox says nothing about the template: sample values made without its PreviewProps would be wrong.
    if (error instanceof ApiError) throw error;
    return null;
  }
}
