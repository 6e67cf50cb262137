import "server-only";
import { mapConcurrently } from "@/lib/core/concurrency";
import { errors, type ValidationDetail } from "@/lib/core/errors";
import { compileTemplateFilesOffThread } from "@/lib/render/sandbox/compile-pool";
import type { ComponentSource } from "@/lib/render/sandbox/compile-result";
import type { TemplateFiles } from "@/lib/templates/files";
import {
  deleteComponentRow,
  findComponentRow,
  findComponentVersions,
  pinnedSources,
  findPublishedDependents,
  insertComponent,
  listComponentRows,
  publishComponentVersion,
  updateComponentDescription,
  type ComponentRow,
  type DependentTemplate,
} from "@/lib/components/data";
import { componentsForCompile } from "@/lib/components/sources";
import { AppError } from "@/lib/core/errors";
import { MAX_COMPONENT_DEPENDENTS } from "@/lib/core/limits";
import type { PublishedBy, TemplateContent } from "@/lib/templates/service";
import { checkTemplate, storedSource, throwAtNul } from "@/lib/templates/user-templates";
import { deliverWebhookSoon } from "@/lib/webhooks/delivery";
import {
  defaultComponentEntry,
  type ComponentView,
  type CreateComponentBody,
  type UpdateComponentBody,
} from "@/lib/components/schemas";

// An account's shared components: saved after their files compile (with the components they import), read, deleted
// while no template imports them.

function view(row: ComponentRow): ComponentView {
  return {
    name: row.name,
    description: row.description,
    version: row.version,
    files: row.files,
    entry: row.entry,
    used_by: row.used_by,
    draft: row.draft && { ...row.draft, created_at: new Date(row.draft.created_at).toISOString() },
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** A component's files compiled (every file, and the components they import), or the 400 naming where they fail. */
async function checkedContent(accountId: string, name: string, files: TemplateFiles, entry: string, draft = false) {
  throwAtNul(files);
  const { available } = await componentsForCompile(accountId, files, draft);
  const compiled = await compileTemplateFilesOffThread(accountId, files, entry, null, { available, saving: name });
  if (!compiled.ok) {
    const path = "path" in compiled && compiled.path !== null ? compiled.path : undefined;
    const where = compiled.line === undefined ? "" : `line ${compiled.line}, column ${compiled.column}: `;
    const ownFile = path !== undefined && Object.hasOwn(files, path);
    const message = ownFile || path === undefined ? compiled.message : `${path}: ${compiled.message}`;
    throw errors.sourceRefused([{ field: ownFile ? `files.${path}` : "files", message: `${where}${message}` }], {
      message: compiled.message,
      ...(ownFile ? { path, line: compiled.line, column: compiled.column } : {}),
    });
  }
  return { files, entry, imports: (compiled.components ?? []).map(({ name: imported }) => imported) };
}

export async function listComponents(accountId: string): Promise<ComponentView[]> {
  return (await listComponentRows(accountId)).map(view);
}

export async function getComponent(accountId: string, name: string): Promise<ComponentView> {
  const row = await findComponentRow(accountId, name);
  if (!row) throw errors.componentNotFound(name);
  return view(row);
}

export async function createComponent(accountId: string, body: CreateComponentBody): Promise<ComponentView> {
  const entry = body.entry ?? defaultComponentEntry(body.files);
  const content = await checkedContent(accountId, body.name, body.files, entry);
  await insertComponent(accountId, body.name, body.description ?? "", content);
  return getComponent(accountId, body.name);
}

/**
 * PUT /components/{name}: the component's next version, checked, then every template whose published version imports
 * it compiled and trial-rendered with it (its other components as it pinned them): when all pass, the component's
 * version and a new published version of each are made in one transaction; when one fails, nothing changes and the
 * answer names each failing template. A save of the component or of a dependent in between makes it start over.
 */
export async function updateComponent(
  accountId: string,
  name: string,
  body: UpdateComponentBody,
  publishedBy: PublishedBy | null,
): Promise<{ component: ComponentView; republished: { template_id: string; version: number }[] }> {
  const entry = body.entry ?? defaultComponentEntry(body.files);
  for (let attempt = 1; ; attempt++) {
    // Each attempt that another save beat to its transaction checks everything again: a few, then the caller retries.
    if (attempt > UPDATE_ATTEMPTS) throw errors.componentChanging(name);
    const current = await findComponentRow(accountId, name);
    if (!current) throw errors.componentNotFound(name);
    const checkedAgainst = { version: current.version, draftVersion: current.draft?.version ?? null };
    if (body.publish === false) {
      // A draft: checked against the drafts of what it imports; no template is built with it but drafts saved later.
      const draft = await checkedContent(accountId, name, body.files, entry, true);
      const saved = await publishComponentVersion(
        accountId,
        name,
        checkedAgainst,
        body.description,
        draft,
        [],
        publishedBy,
        true,
      );
      if (saved.status === "not_found") throw errors.componentNotFound(name);
      if (saved.status === "saved") return { component: await getComponent(accountId, name), republished: [] };
      continue;
    }
    // The same files make no version (a CI push of an unchanged folder): only a new description is stored.
    if (current.draft === null && current.entry === entry && sameFiles(current.files, body.files)) {
      if (body.description !== undefined && body.description !== current.description)
        await updateComponentDescription(accountId, name, body.description);
      return { component: await getComponent(accountId, name), republished: [] };
    }
    const content = await checkedContent(accountId, name, body.files, entry);
    const dependents = await findPublishedDependents(accountId, current.id);
    if (dependents.length > MAX_COMPONENT_DEPENDENTS)
      throw errors.tooManyDependents(name, dependents.length, MAX_COMPONENT_DEPENDENTS);
    // Numbered after its draft, if any: the version publishComponentVersion stores.
    const next: ComponentSource = {
      id: current.id,
      version: Math.max(current.version, current.draft?.version ?? 0) + 1,
      files: body.files,
      entry,
    };
    const { available: imported } = await componentsForCompile(accountId, body.files);
    const otherPins = (dependent: DependentTemplate) => dependent.components.filter((pin) => pin.id !== current.id);
    const pinnedVersions = await findComponentVersions(accountId, dependents.flatMap(otherPins));
    type Check = { dependent: DependentTemplate; content: TemplateContent } | { broken: ValidationDetail };
    // Checked two at a time, as many as the compile pool has workers; the answer lists them in their order.
    const checks = await mapConcurrently(dependents, DEPENDENTS_CHECKED_AT_ONCE, async (dependent): Promise<Check> => {
      const pinned = pinnedSources(pinnedVersions, otherPins(dependent));
      const available = { ...imported, ...pinned, [name]: next };
      try {
        const checked = await checkTemplate(accountId, storedSource(dependent), { components: { available } });
        return { dependent, content: checked };
      } catch (error) {
        if (!(error instanceof AppError) || !REFUSALS.has(error.code)) throw error;
        return { broken: { field: `templates.${dependent.id}`, message: `${dependent.name}: ${refusalText(error)}` } };
      }
    });
    const republish = checks.flatMap((check) => ("dependent" in check ? [check] : []));
    const broken = checks.flatMap((check) => ("broken" in check ? [check.broken] : []));
    if (broken.length > 0) throw errors.componentBreaksTemplates(name, broken);
    const saved = await publishComponentVersion(
      accountId,
      name,
      checkedAgainst,
      body.description,
      content,
      republish,
      publishedBy,
    );
    if (saved.status === "not_found") throw errors.componentNotFound(name);
    if (saved.status === "saved") {
      if (saved.republished.length > 0) deliverWebhookSoon(accountId); // their template.published events
      return { component: await getComponent(accountId, name), republished: saved.republished };
    }
  }
}

/** Dependents compiled and trial-rendered at once in an update: the compile pool's workers (compile-pool.ts). */
const DEPENDENTS_CHECKED_AT_ONCE = 2;

/** Times an update is checked again when another save came first, before it answers 409 COMPONENT_CHANGING. */
const UPDATE_ATTEMPTS = 3;

function sameFiles(stored: TemplateFiles, given: TemplateFiles): boolean {
  const paths = Object.keys(given);
  return Object.keys(stored).length === paths.length && paths.every((path) => stored[path] === given[path]);
}

/** How a template's failure reads in the update's answer: the save's 400 (each field's message) or the render's. */
const REFUSALS = new Set(["VALIDATION_ERROR", "RENDER_ERROR"]);
function refusalText(error: AppError): string {
  const details = error.options.details as { field: string; message: string }[] | undefined;
  if (error.code === "VALIDATION_ERROR" && details?.length)
    return details.map(({ field, message }) => `${field} ${message}`).join("; ");
  return error.message;
}

export async function deleteComponent(accountId: string, name: string): Promise<void> {
  if (!(await deleteComponentRow(accountId, name))) throw errors.componentNotFound(name);
}
