import "server-only";
import { getDb } from "@/lib/db/client";
import { canBeEmailId, emailAddressedBy } from "@/lib/sent-emails/data/resources";

/**
 * The template the account's email `id` was rendered from: its id, its name and the version recorded (a number as
 * text, or "draft"; null for emails sent before versions were recorded). Undefined when there is no such email, or it
 * names no template (a deleted template's emails name none).
 */
export async function findEmailTemplateVersion(
  accountId: string,
  id: string,
): Promise<{ template_id: string; name: string; version: string | null } | undefined> {
  if (!canBeEmailId(id)) return undefined;
  const db = getDb();
  const [row] = await db<{ template_id: string; name: string; version: string | null }[]>`
    select e.template_id, t.name, e.template_version as version
    from (select template_id, template_version from sent_emails where ${emailAddressedBy(accountId, id)}) e
    join templates t on t.id = e.template_id`;
  return row;
}
