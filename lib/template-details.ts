import "server-only";
import { errors } from "@/lib/errors";
import { catalogueVariablesSchema, getCatalogueEntry } from "@/lib/catalogue";
import { findReadableTemplate, type TemplateRecord } from "@/lib/db/templates";
import { exampleFromSchema } from "@/lib/render/variables";
import type { TemplateDetails } from "@/lib/schemas/templates";
import type { VariablesSchema } from "@/lib/schemas/variables";

type TemplateContract = Pick<TemplateRecord, "owner_account_id" | "slug" | "variables" | "preview_props">;

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
    example: templatePreviewProps(template) ?? (exampleFromSchema(variables) as Record<string, unknown>),
  };
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
export function templatePreviewProps(template: TemplateContract): Record<string, unknown> | null {
  if (template.owner_account_id !== null) return template.preview_props;
  const component = template.slug
    ? (getCatalogueEntry(template.slug)?.component as { PreviewProps?: Record<string, unknown> } | undefined)
    : undefined;
  return component?.PreviewProps ?? null;
}
