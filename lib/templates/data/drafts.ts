import "server-only";
import { getDb } from "@/lib/db/client";
import { isUuid } from "@/lib/core/schemas";
import type { VariablesSchema } from "@/lib/templates/variables-schema";
import type { TemplateFiles } from "@/lib/templates/files";
import type { TemplateLocale } from "@/lib/templates/messages";
import type { ComponentPin } from "@/lib/render/sandbox/compile-result";

/** A template's draft with its content: what the dashboard's editor opens and its draft preview renders. */
export type DraftContent = {
  revision: number;
  updated_at: Date;
  code: string;
  files: TemplateFiles | null;
  entry: string | null;
  compiled_code: string | null;
  variables: VariablesSchema;
  preview_props: Record<string, unknown> | null;
  locales: TemplateLocale[] | null;
  default_locale: string | null;
  /** The shared components it was built with (null: none). */
  components: ComponentPin[] | null;
};

/** The draft of a template the account owns, or null (no draft, or no such template of its own). */
export async function findOwnDraft(accountId: string, templateId: string): Promise<DraftContent | null> {
  if (!isUuid(templateId)) return null;
  const [row] = await getDb()<DraftContent[]>`
    select d.revision, d.updated_at, d.code, d.files, d.entry, d.compiled_code, d.variables, d.preview_props,
           d.locales, d.default_locale, d.components
    from template_drafts d join templates t on t.id = d.template_id
    where d.template_id = ${templateId} and t.owner_account_id = ${accountId}`;
  return row ?? null;
}
