import "server-only";
import { getDb } from "@/lib/db/client";
import { canBeEmailId, emailAddressedBy } from "@/lib/db/emails/resources";

/**
 * The template the account's email `id` was rendered from: its id, its name (null once deleted) and the version
 * recorded (a number as text, or "draft"; null for emails sent before versions were recorded). Undefined when there
 * is no such email, or it names no template.
 */
export async function findEmailTemplateVersion(
  accountId: string,
  id: string,
): Promise<{ template_id: string; name: string | null; version: string | null } | undefined> {
  if (!canBeEmailId(id)) return undefined;
  const db = getDb();
  const [row] = await db<{ template_id: string | null; name: string | null; version: string | null }[]>`
    select template_id, (select t.name from templates t where t.id = template_id) as name, template_version as version
    from sent_emails where ${emailAddressedBy(accountId, id)}`;
  return row?.template_id ? { template_id: row.template_id, name: row.name, version: row.version } : undefined;
}
