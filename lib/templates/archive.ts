import "server-only";
import { errors } from "@/lib/core/errors";
import { findTemplateForAccount, type TemplateRecord } from "@/lib/templates/data/templates";
import { isFreeCatalogueTemplate } from "@/lib/render/access";
import { templateSourceFiles } from "@/lib/templates/details";
import { filesEntryFirst } from "@/lib/templates/files";
import { writeZip } from "@/lib/templates/zip";

// The dashboard's "Download": a zip of a template's files, for templates the account may read the source of.

type NamedTemplate = Pick<TemplateRecord, "slug" | "name">;

/** A file name for a template: its catalogue slug, else its name in lowercase words joined by `-`. */
function templateBaseName(template: NamedTemplate): string {
  if (template.slug) return template.slug;
  // One pass each, no backtracking: `[^a-z0-9]+` and the two anchored single characters.
  const words = template.name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
  return words || "template";
}

/** The name of a template's one file, when it has one: `<slug>.tsx`. */
export const templateFileName = (template: NamedTemplate) => `${templateBaseName(template)}.tsx`;

type TemplateArchive = { fileName: string; zip: Uint8Array<ArrayBuffer> };

/**
 * The zip of a template the account may download: one in its library, or a public free catalogue template (a paid
 * one not bought is the product, and is not given away). A template of several files keeps its paths, the entry
 * first (a localized catalogue template's messages among them); one file is `<slug>.tsx`. Anything else is 404
 * TEMPLATE_NOT_FOUND, as if it did not exist.
 */
export async function getTemplateArchiveOrThrow(accountId: string, templateId: string): Promise<TemplateArchive> {
  const template = await findTemplateForAccount(accountId, templateId);
  if (!template || !(template.in_library || isFreeCatalogueTemplate(template))) throw errors.templateNotFound();
  const several = templateSourceFiles(template);
  const entries = several
    ? filesEntryFirst(several.files, several.entry)
    : [{ path: templateFileName(template), content: template.code }];
  return { fileName: `${templateBaseName(template)}.zip`, zip: writeZip(entries) };
}
