import "server-only";
import { checkMessagesOffThread } from "@/lib/render/sandbox/compile-pool";
import { messagesTag, type TemplateFiles } from "@/lib/templates/files";
import type { MessagesProblem } from "@/lib/templates/messages";

/**
 * The missing-key warnings of a save (`files.messages/fr.json`: "missing welcome.title: falls back to en"), for the
 * page the editor's save lands on: the save redirects there, so they are found again from the content it stored, by
 * the check the save ran (on a compile worker). None for a template without messages, or when the check cannot run
 * now (the save's own check passed).
 */
export async function saveWarnings(
  accountId: string,
  content: { files: TemplateFiles | null; default_locale: string | null },
): Promise<MessagesProblem[]> {
  if (!content.files || content.default_locale === null) return [];
  const messages = Object.fromEntries(Object.entries(content.files).filter(([path]) => messagesTag(path) !== null));
  try {
    const checked = await checkMessagesOffThread(accountId, messages, content.default_locale);
    return checked.ok ? checked.warnings : [];
  } catch {
    return [];
  }
}
