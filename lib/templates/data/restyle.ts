import "server-only";
import { getDb } from "@/lib/db/client";
import type { TemplateRecord } from "@/lib/templates/data/templates";
import type { ComponentPin } from "@/lib/render/sandbox/compile-result";

// Restyling saved code: the user templates' compiled code that carries Tailwind's styles, listed and replaced when
// the styles are made again.

/**
 * Saved code that carries Tailwind's styles: a user template's own (`revision` and `version` null), one of its
 * published versions, or its draft; with the source it was made from.
 */
export type TailwindTemplateSource = Pick<TemplateRecord, "id" | "code" | "files" | "entry"> & {
  owner_account_id: string;
  /** Its default locale when it has messages: the compile merges them with their fallbacks, as the save did. */
  default_locale: string | null;
  compiled_code: string;
  /** The shared components it was linked with: the compile links the same versions. */
  components: ComponentPin[] | null;
  version: number | null;
  revision: number | null;
};

/**
 * The saved code holding Tailwind's styles (made when it was saved) of the user templates of one account, or all: each
 * template's own, its versions' and its draft's.
 */
export async function listTailwindTemplateSources(accountId: string | null): Promise<TailwindTemplateSource[]> {
  return getDb()<TailwindTemplateSource[]>`
    select t.id, t.owner_account_id, s.code, s.files, s.entry, s.default_locale, s.compiled_code, s.components,
           s.version, s.revision
    from templates t
    cross join lateral (
      select t.code, t.files, t.entry, t.default_locale, t.compiled_code, t.components, null::int as version,
             null::int as revision
      union all
      select v.code, v.files, v.entry, v.default_locale, v.compiled_code, v.components, v.version, null
      from template_versions v where v.template_id = t.id
      union all
      select d.code, d.files, d.entry, d.default_locale, d.compiled_code, d.components, null, d.revision
      from template_drafts d where d.template_id = t.id
    ) s
    where t.owner_account_id = coalesce(${accountId}::uuid, t.owner_account_id) and strpos(s.compiled_code, 'Tailwind') > 0
    order by t.created_at, t.id, s.version nulls first, s.revision nulls first`;
}

/**
 * Replaces saved code (a template's own, a version's or its draft's) unless it was saved again meanwhile (its code is
 * no longer `previous`). A template's own code takes a new content counter, so no sandbox keeps the old code warm; a
 * version's or draft's key stays, and a warm sandbox is reused only for the very code it holds. False when it was
 * saved again.
 */
export async function replaceCompiledCode(
  source: Pick<TailwindTemplateSource, "id" | "version" | "revision">,
  previous: string,
  compiledCode: string,
): Promise<boolean> {
  const db = getDb();
  const updated =
    source.version !== null
      ? await db`
          update template_versions set compiled_code = ${compiledCode}
          where template_id = ${source.id} and version = ${source.version} and compiled_code = ${previous}
          returning version`
      : source.revision !== null
        ? await db`
            update template_drafts set compiled_code = ${compiledCode}
            where template_id = ${source.id} and revision = ${source.revision} and compiled_code = ${previous}
            returning revision`
        : await db`
            update templates set compiled_code = ${compiledCode}, version = version + 1, updated_at = now()
            where id = ${source.id} and compiled_code = ${previous}
            returning id`;
  return updated.length > 0;
}
