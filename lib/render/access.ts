import "server-only";
import { errors } from "@/lib/api/errors";
import { findTemplateForAccount, type TemplateRecord } from "@/lib/db/templates";
import { uuidSchema } from "@/lib/schemas/common";

/**
 * Who may render what: templates in the caller's library, and public free catalogue templates. A public paid
 * catalogue template not purchased is a 403 that says what to buy; everything else is indistinguishable from a
 * template that does not exist (404), so ids of other users' templates leak nothing.
 */
export async function getRenderableTemplateOrThrow(accountId: string, templateId: string): Promise<TemplateRecord> {
  if (!uuidSchema.safeParse(templateId).success) throw errors.templateNotFound();
  const template = await findTemplateForAccount(accountId, templateId);
  if (!template) throw errors.templateNotFound();
  if (template.in_library) return template;
  const isCatalogue = template.owner_account_id === null && template.is_public;
  if (isCatalogue && Number(template.price) === 0) return template;
  if (isCatalogue) {
    throw errors.templateAccessDenied({ id: template.id, title: template.name, price: Number(template.price).toFixed(2) });
  }
  throw errors.templateNotFound();
}
