import "server-only";
import { getDb, jsonParameter, type Tx } from "@/lib/db/client";
import { errors } from "@/lib/core/errors";
import { MAX_COMPONENTS } from "@/lib/core/limits";
import type { ComponentPin, ComponentSource } from "@/lib/render/sandbox/compile-result";
import type { TemplateFiles } from "@/lib/templates/files";
import { auditPublish, publishLockedContent, type PublishedBy, type TemplateContent } from "@/lib/templates/service";

// An account's shared components and their versions (supabase/migrations/20261206220000_components.sql).

export type ComponentRow = {
  id: string;
  name: string;
  description: string;
  version: number;
  files: TemplateFiles;
  entry: string;
  used_by: { template_id: string; name: string; component_version: number }[];
  /** Its draft (a later version saved with `publish` false), null when it has none; created_at as JSON writes it. */
  draft: { version: number; files: TemplateFiles; entry: string; created_at: string } | null;
  created_at: Date;
  updated_at: Date;
};

export type ComponentContent = { files: TemplateFiles; entry: string; imports: string[] };

/**
 * The templates of the account whose content (what renders and sends use) or draft imports component `name`, with the
 * version each was built with (the content's, else the draft's), by name.
 */
const usedBy = (db: Tx | ReturnType<typeof getDb>, accountId: string) => db`
  coalesce((
    select json_agg(json_build_object('template_id', t.id, 'name', t.name, 'component_version', u.version)
                    order by t.name, t.id)
    from templates t
    cross join lateral (
      select (p ->> 'version')::int as version
      from (select jsonb_array_elements(coalesce(t.components, '[]'::jsonb)) as p, 0 as o
            union all
            select jsonb_array_elements(coalesce(d.components, '[]'::jsonb)), 1
            from template_drafts d where d.template_id = t.id) pins
      where p ->> 'id' = c.id::text
      order by o
      limit 1
    ) u
    where t.owner_account_id = ${accountId}
  ), '[]'::json)`;

const componentColumns = (db: Tx | ReturnType<typeof getDb>, accountId: string) => db`
  c.id, c.name, c.description, c.version, v.files, v.entry, ${usedBy(db, accountId)} as used_by,
  (select json_build_object('version', d.version, 'files', d.files, 'entry', d.entry, 'created_at', d.created_at)
   from component_versions d where d.component_id = c.id and d.version = c.draft_version) as draft,
  c.created_at, c.updated_at`;

export async function listComponentRows(accountId: string): Promise<ComponentRow[]> {
  const db = getDb();
  return db<ComponentRow[]>`
    select ${componentColumns(db, accountId)}
    from components c join component_versions v on v.component_id = c.id and v.version = c.version
    where c.account_id = ${accountId}
    order by c.name`;
}

export async function findComponentRow(accountId: string, name: string): Promise<ComponentRow | null> {
  const db = getDb();
  const [row] = await db<ComponentRow[]>`
    select ${componentColumns(db, accountId)}
    from components c join component_versions v on v.component_id = c.id and v.version = c.version
    where c.account_id = ${accountId} and c.name = ${name}`;
  return row ?? null;
}

/**
 * The components `names` import, and each one those import, in turn, in one statement: of each, the current version
 * (with `drafts`, its draft when it has one). A name no component has is left out; cycles end (a union). "too_large"
 * when their source (but messages) holds more than `budget` characters in all.
 */
export async function findLinkedComponentSources(
  accountId: string,
  names: string[],
  drafts: boolean,
  budget: number,
): Promise<Record<string, ComponentSource> | "too_large"> {
  if (names.length === 0) return {};
  const rows = await getDb()<
    { id: string; name: string; version: number; files: TemplateFiles | null; entry: string }[]
  >`
    with recursive linked (component_id, name, version) as (
      select c.id, c.name, case when ${drafts} then coalesce(c.draft_version, c.version) else c.version end
      from components c where c.account_id = ${accountId} and c.name = any(${names})
      union
      select c.id, c.name, case when ${drafts} then coalesce(c.draft_version, c.version) else c.version end
      from linked l
      join component_versions v on v.component_id = l.component_id and v.version = l.version
      join components c on c.account_id = ${accountId} and c.name = any(v.imports)
    )
    select id, name, version, entry, case when sum(characters) over () <= ${budget} then files end as files
    from (
      select l.component_id as id, l.name, l.version, v.files, v.entry,
             (select coalesce(sum(length(f.value)), 0) from json_each_text(v.files) f
              where f.key not like '%.json') as characters
      from linked l join component_versions v on v.component_id = l.component_id and v.version = l.version
    ) sized`;
  // Past the budget, no files are sent: their source is not read into the server only to be refused.
  if (rows.some((row) => row.files === null)) return "too_large";
  return Object.fromEntries(rows.map(({ name, files, ...source }) => [name, { ...source, files: files! }]));
}

/** A pinned version's key: the very component (a component deleted is gone, and one given its name since is another). */
export const pinKey = ({ id, version }: { id: string; version: number }) => `${id}@${version}`;

/** The versions of the account's components that `pins` name, by pinKey, with each one's name: one statement. */
export async function findComponentVersions(
  accountId: string,
  pins: ComponentPin[],
): Promise<Map<string, { name: string; source: ComponentSource }>> {
  if (pins.length === 0) return new Map();
  const rows = await getDb()<{ id: string; name: string; version: number; files: TemplateFiles; entry: string }[]>`
    select c.id, c.name, v.version, v.files, v.entry
    from components c join component_versions v on v.component_id = c.id
    where c.account_id = ${accountId} and c.id::text = any(${pins.map(({ id }) => id)})
      and v.version = any(${pins.map(({ version }) => version)})`;
  const wanted = new Set(pins.map(pinKey));
  return new Map(
    rows.filter((row) => wanted.has(pinKey(row))).map(({ name, ...source }) => [pinKey(source), { name, source }]),
  );
}

/** Of `versions` (findComponentVersions), those `pins` name, by component name: what a compile of a stored content links. */
export function pinnedSources(
  versions: Map<string, { name: string; source: ComponentSource }>,
  pins: ComponentPin[],
): Record<string, ComponentSource> {
  return Object.fromEntries(
    pins.flatMap((pin) => {
      const found = versions.get(pinKey(pin));
      return found ? [[found.name, found.source]] : [];
    }),
  );
}

/** The versions of the account's components that `pins` name, by name. */
export async function findPinnedComponentSources(
  accountId: string,
  pins: ComponentPin[],
): Promise<Record<string, ComponentSource>> {
  return pinnedSources(await findComponentVersions(accountId, pins), pins);
}

/**
 * Inside a template save's transaction: holds the components its compile linked in (a delete waits for the save, and
 * then sees it), and refuses the save when one is gone or has a newer version than the one compiled (a PUT of it
 * came in between): the save would pin what no longer is, so it is made again.
 */
export async function holdPinnedComponents(
  tx: Tx,
  accountId: string,
  pins: ComponentPin[] | null | undefined,
  drafts: boolean,
) {
  if (!pins || pins.length === 0) return;
  const rows = await tx<{ id: string; name: string; version: number }[]>`
    select id, name, case when ${drafts} then coalesce(draft_version, version) else version end as version
    from components
    where account_id = ${accountId} and name = any(${pins.map(({ name }) => name)})
    for share`;
  const current = new Map(rows.map((row) => [row.name, row]));
  for (const { name, version, id } of pins) {
    const now = current.get(name);
    if (now?.id !== id || now.version !== version) throw new PinnedComponentChanged(name, now?.version);
  }
}

/** A save's compile linked a component version that is no longer current: the save is made again (user-templates.ts). */
export class PinnedComponentChanged extends Error {
  constructor(
    readonly component: string,
    readonly nowVersion: number | undefined,
  ) {
    super(`@components/${component} changed while a template was saved`);
  }

  /** What the save answers when it changed again each time it was made again. */
  refusal() {
    const message =
      this.nowVersion === undefined
        ? `@components/${this.component} was deleted while this was saved`
        : `@components/${this.component} kept changing while this was saved: save again`;
    return errors.sourceRefused([{ field: "files", message }], { message });
  }
}

/** Adds a component as its version 1; COMPONENT_EXISTS when the account has one of that name. */
export async function insertComponent(
  accountId: string,
  name: string,
  description: string,
  content: ComponentContent,
): Promise<void> {
  try {
    await getDb().begin(async (tx) => {
      // The account's row serializes its adds, so the cap holds under concurrent requests.
      await tx`select 1 from accounts where id = ${accountId} for update`;
      const [{ count }] = await tx<{ count: number }[]>`
        select count(*)::int as count from components where account_id = ${accountId}`;
      if (count >= MAX_COMPONENTS) throw errors.componentLimitReached(MAX_COMPONENTS);
      const [component] = await tx<{ id: string }[]>`
        insert into components (account_id, name, description, version)
        values (${accountId}, ${name}, ${description}, 1)
        returning id`;
      await insertVersion(tx, component.id, 1, content);
    });
  } catch (error) {
    if ((error as { constraint_name?: unknown }).constraint_name === "components_account_id_name_key")
      throw errors.componentExists(name);
    throw error;
  }
}

export async function updateComponentDescription(accountId: string, name: string, description: string) {
  await getDb()`
    update components set description = ${description}, updated_at = now()
    where account_id = ${accountId} and name = ${name}`;
}

function insertVersion(tx: Tx, componentId: string, version: number, content: ComponentContent, draft = false) {
  return tx`
    insert into component_versions (component_id, version, files, entry, imports, draft)
    values (${componentId}, ${version}, ${jsonParameter(tx, content.files)}, ${content.entry}, ${content.imports},
            ${draft})`;
}

/** The components `pins` names at a version saved as a draft: a content built with one may not be published. */
export async function findDraftPins(tx: Tx, accountId: string, pins: ComponentPin[]): Promise<ComponentPin[]> {
  if (pins.length === 0) return [];
  const rows = await tx<ComponentPin[]>`
    select c.id::text as id, c.name, v.version
    from components c join component_versions v on v.component_id = c.id
    where c.account_id = ${accountId} and c.id::text = any(${pins.map(({ id }) => id)})
      and v.version = any(${pins.map(({ version }) => version)}) and v.draft`;
  const pinned = new Set(pins.map(({ id, version }) => `${id}@${version}`));
  return rows.filter(({ id, version }) => pinned.has(`${id}@${version}`));
}

/**
 * The components `pins` names at a published version older than the component's current one: a content built with
 * them is built again before it is published (a draft saved before an update of its footer keeps the new footer).
 * None when a pin is a component's draft not yet published: that publish is refused (COMPONENT_NOT_PUBLISHED), not
 * built again without the draft.
 */
export async function findStalePins(accountId: string, pins: ComponentPin[]): Promise<ComponentPin[]> {
  if (pins.length === 0) return [];
  const rows = await getDb()<{ id: string; version: number; draft_version: number | null }[]>`
    select c.id::text as id, c.version, c.draft_version
    from components c
    where c.account_id = ${accountId} and c.id::text = any(${pins.map(({ id }) => id)})`;
  const current = new Map(rows.map((row) => [row.id, row]));
  if (pins.some((pin) => pin.version === current.get(pin.id)?.draft_version)) return [];
  return pins.filter((pin) => {
    const now = current.get(pin.id);
    return now !== undefined && pin.version < now.version;
  });
}

/**
 * Inside a draft's publish, before its template is locked (the order a component's update locks them): holds the
 * components the draft pins, and throws PinnedComponentChanged when one has a version newer than the pin (an update
 * committed since the publish looked), so the draft is built again rather than published with the old one.
 */
export async function holdCurrentPins(tx: Tx, accountId: string, pins: ComponentPin[]): Promise<void> {
  if (pins.length === 0) return;
  const rows = await tx<{ id: string; version: number; draft_version: number | null }[]>`
    select id::text as id, version, draft_version from components
    where account_id = ${accountId} and id::text = any(${pins.map(({ id }) => id)})
    for share`;
  const current = new Map(rows.map((row) => [row.id, row]));
  // Built with a component's draft: the publish refuses it (COMPONENT_NOT_PUBLISHED), as findStalePins leaves it.
  if (pins.some((pin) => pin.version === current.get(pin.id)?.draft_version)) return;
  for (const pin of pins) {
    const now = current.get(pin.id)?.version;
    if (now !== undefined && pin.version < now) throw new PinnedComponentChanged(pin.name, now);
  }
}

/**
 * Deletes a component no template's content or draft imports; COMPONENT_IN_USE naming them otherwise, false when the
 * account has no such component. The component's row is locked first: a template save holding it (for share) is
 * seen, or waits.
 */
export async function deleteComponentRow(accountId: string, name: string): Promise<boolean> {
  return getDb().begin(async (tx) => {
    const [locked] = await tx<{ id: string }[]>`
      select id from components where account_id = ${accountId} and name = ${name} for update`;
    if (!locked) return false;
    // Read after the lock, in a statement of its own: it sees a save that held the component until it committed.
    const [{ used_by }] = await tx<{ used_by: ComponentRow["used_by"] }[]>`
      select ${usedBy(tx, accountId)} as used_by from components c where c.id = ${locked.id}`;
    if (used_by.length > 0) throw errors.componentInUse(name, used_by);
    await tx`delete from components where id = ${locked.id}`;
    return true;
  });
}

/** A template whose published content imports a component: what its republish is made from. */
export type DependentTemplate = {
  id: string;
  name: string;
  /** Its content counter when read: a save since then makes the update start over. */
  version: number;
  code: string;
  files: TemplateFiles | null;
  entry: string | null;
  default_locale: string | null;
  components: ComponentPin[];
};

/** The account's templates whose published content was built with the component `componentId`, by name. */
export async function findPublishedDependents(accountId: string, componentId: string): Promise<DependentTemplate[]> {
  const db = getDb();
  return db<DependentTemplate[]>`
    select id, name, version, code, files, entry, default_locale, components from templates
    where owner_account_id = ${accountId} and published_version is not null
      and components @> ${db.json([{ id: componentId }])}::jsonb
    order by name, id`;
}

/** Thrown inside the update's transaction to undo it: a component or a dependent changed since it was checked. */
class ChangedMeanwhile extends Error {}

/**
 * A component's next version and a new published version of each dependent (made from `republish`, each with its
 * `reason`), in one transaction: all of them, or, when the component or a dependent changed since they were checked,
 * none ("changed": check again). The component's row is locked first, then the templates' in id order, as a template
 * save holds the component before its template (lib/templates/data/user-templates.ts).
 */
export async function publishComponentVersion(
  accountId: string,
  name: string,
  /** The component as the update read it: its version, its draft's and (unless a draft) the templates it found. */
  checkedAgainst: { version: number; draftVersion: number | null },
  description: string | undefined,
  content: ComponentContent,
  republish: { dependent: DependentTemplate; content: TemplateContent }[],
  publishedBy: PublishedBy | null,
  asDraft = false,
): Promise<
  { status: "saved"; republished: { template_id: string; version: number }[] } | { status: "not_found" | "changed" }
> {
  try {
    return await getDb().begin(async (tx) => {
      const [locked] = await tx<{ id: string; version: number; draft_version: number | null }[]>`
        select id, version, draft_version from components
        where account_id = ${accountId} and name = ${name} for update`;
      if (!locked) return { status: "not_found" as const };
      if (locked.version !== checkedAgainst.version || locked.draft_version !== checkedAgainst.draftVersion)
        throw new ChangedMeanwhile();
      if (!asDraft) {
        // Read under the lock: a template saved with the component since the update looked is one it must check too
        // (a save still under way holds the component and waits, then is made again with the new version).
        const dependents = await tx<{ id: string }[]>`
          select id from templates
          where owner_account_id = ${accountId} and published_version is not null
            and components @> ${tx.json([{ id: locked.id }])}::jsonb`;
        const checked = new Set(republish.map(({ dependent }) => dependent.id));
        if (dependents.length !== checked.size || dependents.some(({ id }) => !checked.has(id)))
          throw new ChangedMeanwhile();
      }
      const version = Math.max(locked.version, locked.draft_version ?? 0) + 1;
      await insertVersion(tx, locked.id, version, content, asDraft);
      // A draft leaves what templates publish with as it is; a publish supersedes the draft.
      await tx`
        update components
        set version = ${asDraft ? locked.version : version}, draft_version = ${asDraft ? version : null},
            description = coalesce(${description ?? null}, description), updated_at = now()
        where id = ${locked.id}`;
      const republished: { template_id: string; version: number }[] = [];
      const byId = [...republish].sort((a, b) => (a.dependent.id < b.dependent.id ? -1 : 1));
      for (const { dependent, content: templateContent } of byId) {
        const [template] = await tx<
          { id: string; name: string; published_version: number | null; draft_revision: number; version: number }[]
        >`
          select id, name, published_version, draft_revision, version from templates
          where id = ${dependent.id} and owner_account_id = ${accountId} for update`;
        if (!template || template.version !== dependent.version) throw new ChangedMeanwhile();
        const published = await publishLockedContent(
          tx,
          template.id,
          templateContent,
          publishedBy,
          undefined,
          `component ${name} v${version}`,
        );
        await auditPublish(tx, accountId, template, published);
        republished.push({ template_id: template.id, version: published.version });
      }
      const inListOrder = new Map(republish.map(({ dependent }, i) => [dependent.id, i]));
      republished.sort((a, b) => inListOrder.get(a.template_id)! - inListOrder.get(b.template_id)!);
      return { status: "saved" as const, republished };
    });
  } catch (error) {
    if (error instanceof ChangedMeanwhile) return { status: "changed" };
    throw error;
  }
}
