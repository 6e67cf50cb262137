import "server-only";
import { getDb, jsonParameter } from "@/lib/db/client";
import { assertLibraryHasRoom, lockAccountPlan } from "@/lib/catalogue/service";
import { templateIdSql } from "@/lib/templates/data/templates";
import {
  auditPublish,
  auditTemplate,
  jsonOrNull,
  lockOwnTemplate,
  publishLockedContent,
  writeDraft,
  type PublishedBy,
  type TemplateContent,
} from "@/lib/templates/data/versions";
import { errors } from "@/lib/core/errors";
import { holdPinnedComponents } from "@/lib/components/sources";

// The templates users write: created (into their library), saved again, given an alias, deleted.

/** `alias` sets the template's alias; null clears it, and a replace that leaves it out keeps the one it has. */
/** `publishedBy`: who publishes it, as its versions record (null: not recorded). */
export type NewUserTemplate = {
  name: string;
  description: string;
  alias?: string | null;
  publishedBy?: PublishedBy | null;
} & TemplateContent;

/**
 * Runs a statement that stores a template's alias, answering the unique index's refusal (another of the account's
 * templates has it, even one saved a moment before by a concurrent request) as ALIAS_TAKEN.
 */
async function refusingTakenAlias<T>(alias: string | null | undefined, statement: Promise<T>): Promise<T> {
  try {
    return await statement;
  } catch (error) {
    if (alias && (error as { constraint_name?: unknown }).constraint_name === "templates_owner_alias_key") {
      throw errors.aliasTaken(alias);
    }
    throw error;
  }
}

/**
 * Stores a template the user wrote and adds it to their library as `created`: published as version 1, or with
 * `publish` false only as its draft (revision 1).
 */
export async function createUserTemplate(
  accountId: string,
  input: NewUserTemplate,
  publish = true,
): Promise<{ id: string; name: string }> {
  const created = getDb().begin(async (tx) => {
    // The components before the account's row: a component's update holds the component, then its audit entries
    // reach the account's row (lib/components/data.ts), so the other order could deadlock with it.
    await holdPinnedComponents(tx, accountId, input.components, !publish);
    const plan = await lockAccountPlan(tx, accountId);
    await assertLibraryHasRoom(tx, accountId, plan);
    const [template] = await tx<{ id: string; name: string }[]>`
      insert into templates (owner_account_id, name, description, is_public, price, code, compiled_code, variables,
                             preview_props, compatibility, files, entry, locales, default_locale, components, author,
                             alias, published_version)
      select ${accountId}, ${input.name}, ${input.description}, false, 0, ${input.code}, ${input.compiledCode},
             ${jsonParameter(tx, input.variables)}, ${jsonOrNull(tx, input.previewProps)},
             ${jsonOrNull(tx, input.compatibility)}, ${jsonOrNull(tx, input.files)}, ${input.entry ?? null},
             ${jsonOrNull(tx, input.locales)}, ${input.defaultLocale ?? null},
             ${input.components?.length ? tx.json(input.components) : null}, name, ${input.alias ?? null},
             ${publish ? 1 : null}
      from accounts where id = ${accountId}
      returning id, name`;
    await tx`insert into library_entries (account_id, template_id, added_via) values (${accountId}, ${template.id}, 'created')`;
    if (publish) {
      await tx`
        insert into template_versions (template_id, version, code, files, entry, compiled_code, variables, preview_props,
                                       compatibility, locales, default_locale, components, published_via,
                                       published_by_key_id)
        select id, 1, code, files, entry, compiled_code, variables, preview_props, compatibility, locales,
               default_locale, components,
               ${input.publishedBy?.via ?? null},
               ${input.publishedBy?.via === "api_key" ? input.publishedBy.keyId : null}
        from templates where id = ${template.id}`;
    } else {
      await writeDraft(tx, template.id, input);
    }
    await auditTemplate(tx, accountId, "template.created", template, { published: publish });
    return template;
  });
  return refusingTakenAlias(input.alias, created);
}

/**
 * Saves new source (and what was derived from it), name and description of a template the account owns (by id or
 * alias), and its alias when `input` names one: as its next version, published at once (renders stop using what was
 * made from the old code), or with `publish` false as its draft, leaving what sends use untouched. Null when the
 * account owns no such template.
 */
export async function replaceUserTemplate(
  accountId: string,
  templateId: string,
  input: NewUserTemplate,
  publish = true,
): Promise<{ id: string; name: string } | null> {
  const saved = getDb().begin(async (tx) => {
    // The components before the template, in the order a component's update locks them (lib/components/data.ts).
    await holdPinnedComponents(tx, accountId, input.components, !publish);
    const locked = await lockOwnTemplate(tx, accountId, templateId);
    if (!locked) return null;
    const [template] = await tx<{ id: string; name: string }[]>`
      update templates
      set name = ${input.name}, description = ${input.description},
          alias = ${input.alias === undefined ? tx`alias` : input.alias}, updated_at = now()
      where id = ${locked.id}
      returning id, name`;
    // Under the template's lock, a save racing a publish is one or the other, never lost; a published save leaves
    // the draft (someone's work in progress, perhaps) as it is.
    if (publish) {
      const published = await publishLockedContent(tx, locked.id, input, input.publishedBy ?? null);
      await auditPublish(tx, accountId, { ...locked, name: template.name }, published);
    } else await writeDraft(tx, locked.id, input);
    return template;
  });
  return refusingTakenAlias(input.alias, saved);
}

/**
 * Sets (or, null, clears) the alias of a template the account owns, by id or alias; its id, or null when the account
 * owns no such template.
 */
export async function setUserTemplateAlias(
  accountId: string,
  templateId: string,
  alias: string | null,
): Promise<string | null> {
  const db = getDb();
  const id = templateIdSql(db, accountId, templateId);
  if (!id) return null;
  const [template] = await refusingTakenAlias(
    alias,
    db<{ id: string }[]>`
      update templates set alias = ${alias}, updated_at = now()
      where id = ${id} and owner_account_id = ${accountId}
      returning id`,
  );
  return template?.id ?? null;
}

/**
 * Deletes a template the account owns (by id or alias), and with it its library entry; false when it owns no such
 * template.
 */
export async function deleteUserTemplate(accountId: string, templateId: string): Promise<boolean> {
  const db = getDb();
  const id = templateIdSql(db, accountId, templateId);
  if (!id) return false;
  return db.begin(async (tx) => {
    const [deleted] = await tx<{ id: string; name: string }[]>`
      delete from templates where id = ${id} and owner_account_id = ${accountId} returning id, name`;
    if (deleted) await auditTemplate(tx, accountId, "template.deleted", deleted);
    return deleted !== undefined;
  });
}
