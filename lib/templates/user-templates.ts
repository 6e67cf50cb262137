import "server-only";
import { withPassedThroughVariables } from "@/lib/render/analysis/props-schema";
import { componentsForCompile, findPinnedComponentSources, PinnedComponentChanged } from "@/lib/components/sources";
import type { CompileComponents, ComponentPin } from "@/lib/render/sandbox/compile-result";
import { randomUUID } from "node:crypto";
import { AppError, errors, type SourceProblem } from "@/lib/core/errors";
import type { PublishedBy } from "@/lib/templates/data/versions";
import {
  createUserTemplate,
  deleteUserTemplate,
  replaceUserTemplate,
  setUserTemplateAlias,
} from "@/lib/templates/data/user-templates";
import { findOwnTemplateId } from "@/lib/templates/data/templates";
import { listTailwindTemplateSources, replaceCompiledCode } from "@/lib/templates/data/restyle";
import { checkMessagesOffThread, compileTemplateFilesOffThread } from "@/lib/render/sandbox/compile-pool";
import { readPreviewProps, renderInSandbox } from "@/lib/render/sandbox";
import { compatibilityWarnings, type CompatibilityFinding, type RenderWarning } from "@/lib/render/analysis/warnings";
import {
  compileVariablesSchema,
  defaultsProblem,
  previewPropsRenderFailure,
  schemaFromPreviewProps,
  variablesProblem,
} from "@/lib/render/analysis/variables";
import type { TemplateDetails } from "@/lib/templates/schemas";
import type { VariablesSchema } from "@/lib/templates/variables-schema";
import { getTemplateDetailsOrThrow } from "@/lib/templates/details";
import {
  defaultEntry,
  messagesTag,
  SINGLE_FILE,
  templateFilesProblems,
  type TemplateFiles,
  type TemplateFilesProblem,
} from "@/lib/templates/files";
import { deliverWebhookSoon } from "@/lib/webhooks/delivery";
import {
  checkMessages,
  messagesTags,
  resolveLocale,
  type MessagesCheck,
  type MessagesProblem,
  type TemplateLocales,
} from "@/lib/templates/messages";

/**
 * A template's source: one file (the dashboard's editor), or files by relative path with an optional entry (the API
 * and the admin CLI; see lib/templates/files.ts for the paths allowed and the entry chosen when none is named).
 */
export type TemplateSource = { code: string } | { files: TemplateFiles; entry?: string; default_locale?: string };
/** A stored template's source as a save gives it: its files (with its entry and default locale), or its one file. */
export function storedSource(stored: {
  code: string;
  files: TemplateFiles | null;
  entry: string | null;
  default_locale: string | null;
}): TemplateSource {
  if (!stored.files) return { code: stored.code };
  return {
    files: stored.files,
    entry: stored.entry ?? undefined,
    ...(stored.default_locale ? { default_locale: stored.default_locale } : {}),
  };
}

/**
 * `alias` sets the template's alias (null clears it; a replace that leaves it out keeps the one it has); `publish`
 * false saves the template's draft instead of publishing a new version (published by default).
 */
export type NewTemplateSource = {
  name: string;
  description: string;
  alias?: string | null;
  publish?: boolean;
  /** Who publishes it, as its versions record; left out: not recorded. */
  publishedBy?: PublishedBy;
} & TemplateSource;

export type CheckedTemplate = {
  compiledCode: string;
  variables: VariablesSchema;
  previewProps: Record<string, unknown> | null;
  /**
   * Email client support of the trial render: its example's; null when the check was skipped (stored as not known, so
   * that GET /templates/{id} checks it again).
   */
  compatibility: CompatibilityFinding[] | null;
  /** The entry's source. */
  code: string;
  /** Every file and the entry, for a template of several files; null for one file. */
  files: TemplateFiles | null;
  entry: string | null;
  /** A template with messages: its locales and default locale (null, both, without). */
  locales: TemplateLocales["locales"] | null;
  defaultLocale: string | null;
  /** Each key of the default locale another locale lacks: the save's `messages` warnings. */
  messageWarnings: MessagesProblem[];
  /** The shared components linked in, with their versions (null: none). */
  components: ComponentPin[] | null;
};

/**
 * Compiles a user's template once and proves it renders: a trial render of its PreviewProps inside the sandbox, under
 * the same limits as every later render. Nothing is stored unless both succeed. Every way of saving a template (the
 * API, the dashboard's editor, the admin CLI) goes through here.
 */
export async function checkTemplate(
  accountId: string,
  source: TemplateSource,
  build: {
    /** The components it is built with, when not the account's current ones (a component's update). */
    components?: CompileComponents;
    /** A draft's save: built with the components' drafts where they have one. */
    draft?: boolean;
  } = {},
): Promise<CheckedTemplate> {
  const { files, entry } =
    "code" in source
      ? { files: { [SINGLE_FILE]: withLineFeeds(source.code) }, entry: SINGLE_FILE }
      : { files: mapFiles(source.files, withLineFeeds), entry: source.entry ?? defaultEntry(source.files) };
  // One source is checked as it always was: by the compiler alone.
  const problems = "code" in source ? [] : templateFilesProblems(files, source.entry);
  if (problems.length > 0) throw templateFilesRefused(problems);
  throwAtNul(files);
  const { messages, warnings: messageWarnings } = await checkedMessages(
    accountId,
    files,
    "files" in source ? source.default_locale : undefined,
  );
  const components = build.components ?? (await componentsForCompile(accountId, files, build.draft));
  const compiled = await compileTemplateFilesOffThread(
    accountId,
    files,
    entry,
    messages?.defaultLocale ?? null,
    components,
  );
  if (!compiled.ok) {
    // The position stays apart from the message (each place that shows it says where in its own way); a compile that
    // ran past its deadline has none.
    const path = "path" in compiled && compiled.path !== null ? compiled.path : undefined;
    throw sourceRefused({ message: compiled.message, path, line: compiled.line, column: compiled.column });
  }
  const badDefault = compiled.variables && defaultsProblem(compiled.variables);
  if (badDefault) throw sourceRefused({ message: badDefault, path: entry });
  // A one-off key: the trial context is never reused for another template or user.
  const cacheKey = `trial:${randomUUID()}`;
  // The PreviewProps once read: a render of them that then fails says which required variables they lack.
  let previewProps: Record<string, unknown> | null | undefined;
  try {
    previewProps = await readPreviewProps({ owner: accountId, cacheKey, compiledCode: compiled.code });
    // PreviewProps are the example GET /templates/{id} answers: variables a caller could send, and that pass.
    const tooBig = previewProps && variablesProblem(previewProps);
    if (tooBig) throw sourceRefused({ message: `PreviewProps ${tooBig}`, path: entry });
    const { compatibility = [] } = await renderInSandbox({
      owner: accountId,
      cacheKey,
      compiledCode: compiled.code,
      props: trialProps(previewProps ?? {}, messages),
      compatibility: true,
    });
    // The props type says what the template takes; a template with untyped props is described by its PreviewProps.
    // What it passes through to its components is typed by theirs (a footer's `address`).
    const variables = withPassedThroughVariables(
      compiled.variables ?? schemaFromPreviewProps(previewProps),
      compiled.passedThrough,
    );
    const mismatches = compiled.variables && previewProps ? compileVariablesSchema(variables)(previewProps) : [];
    if (mismatches.length > 0) {
      const [first] = mismatches;
      const more = mismatches.length > 1 ? ` (and ${mismatches.length - 1} more)` : "";
      throw sourceRefused({
        message: `PreviewProps do not match the props type: ${first.field.replace(/^variables\./, "")} ${first.message}${more}`,
        path: entry,
      });
    }
    const several = Object.keys(files).length > 1;
    return {
      compiledCode: compiled.code,
      variables,
      previewProps,
      compatibility,
      code: files[entry],
      files: several ? files : null,
      entry: several ? entry : null,
      locales: messages?.locales ?? null,
      defaultLocale: messages?.defaultLocale ?? null,
      components: compiled.components ?? null,
      messageWarnings,
    };
  } catch (error) {
    if (error instanceof AppError && error.code === "RENDER_ERROR") {
      const lacking =
        previewProps !== undefined && previewPropsRenderFailure(compiled.variables, previewProps, error.message);
      throw errors.renderFailed(lacking || `The trial render failed: ${error.message}`, error);
    }
    throw error;
  }
}

/**
 * The messages checked (lib/templates/messages.ts): on a compile worker when the template has any, since parsing up
 * to 50 files of ICU messages is no work for the event loop; without any, only `default_locale` is checked, here.
 * A problem is the 400 naming its file (or `default_locale`) and the key.
 */
async function checkedMessages(
  accountId: string,
  files: TemplateFiles,
  defaultLocale: string | undefined,
): Promise<{ messages: TemplateLocales | null; warnings: MessagesProblem[] }> {
  const tags = messagesTags(files);
  const messagesOnly = Object.fromEntries(Object.entries(files).filter(([path]) => messagesTag(path) !== null));
  const checked: MessagesCheck | { ok: false; message: string } =
    tags.length === 0
      ? checkMessages(messagesOnly, defaultLocale)
      : await checkMessagesOffThread(accountId, messagesOnly, defaultLocale);
  if (checked.ok) return checked;
  if ("message" in checked) throw sourceRefused({ message: checked.message });
  const named = checked.problems.find(({ field }) => field.startsWith("files."));
  throw errors.sourceRefused(checked.problems, {
    message: checked.problems.map(({ field, message }) => `${field} ${message}`).join("; "),
    path: named?.field.slice("files.".length),
  });
}

/** The trial render's props: a localized template's PreviewProps in the locale they name, else its default locale. */
function trialProps(previewProps: Record<string, unknown>, messages: TemplateLocales | null): Record<string, unknown> {
  if (!messages) return previewProps;
  const requested = typeof previewProps.locale === "string" ? previewProps.locale : undefined;
  const tags = messages.locales.map(({ tag }) => tag);
  let locale: string;
  try {
    locale = resolveLocale(requested, tags, messages.defaultLocale);
  } catch {
    locale = messages.defaultLocale;
  }
  return { ...previewProps, locale };
}

/**
 * A source is stored with \n line endings whoever sent it (a browser's form posts \r\n; an old Mac file has lone \r),
 * so GET /source answers what the compiler's line and column numbers point into. JavaScript reads \r\n and a lone \r
 * as one line break (a template literal's text holds \n for either).
 */
function withLineFeeds(content: string): string {
  return content.replaceAll("\r\n", "\n").replaceAll("\r", "\n");
}

function mapFiles(files: TemplateFiles, change: (content: string) => string): TemplateFiles {
  return Object.fromEntries(Object.entries(files).map(([path, content]) => [path, change(content)]));
}

/** A template's (or component's) files are stored as text, which cannot hold NUL: the first one is refused where it is. */
export function throwAtNul(files: TemplateFiles): void {
  for (const [path, content] of Object.entries(files)) {
    const at = content.indexOf("\0");
    if (at === -1) continue;
    const before = content.slice(0, at);
    const line = before.split("\n").length;
    const column = at - before.lastIndexOf("\n");
    throw sourceRefused({
      message: "A template's source must not contain the NUL character (\\u0000)",
      path,
      line,
      column,
    });
  }
}

/** The files themselves are refused (their count, size or paths, or the entry), before anything is compiled. */
export function templateFilesRefused(problems: TemplateFilesProblem[]): AppError {
  const named = problems.find(({ path }) => path !== undefined);
  return errors.sourceRefused(
    problems.map(({ field, message }) => ({ field, message })),
    { message: problems.map(({ field, message }) => `${field} ${message}`).join("; "), path: named?.path },
  );
}

/** The API's detail names the file (`files.<path>`) and says where in it; the editor and the CLI point there. */
function sourceRefused(problem: SourceProblem): AppError {
  const where = problem.line === undefined ? "" : `line ${problem.line}, column ${problem.column}: `;
  const field = problem.path === undefined ? "files" : `files.${problem.path}`;
  return errors.sourceRefused([{ field, message: `${where}${problem.message}` }], problem);
}

/**
 * Stores a user's own template (after checking it), published as version 1 or only as its draft, and adds it to their
 * library as `created`.
 */
export async function createTemplateFromSource(accountId: string, input: NewTemplateSource) {
  return savedWithCurrentComponents(async () => {
    const checked = await checkTemplate(accountId, input, { draft: input.publish === false });
    const { name, description, alias, publishedBy } = input;
    const created = await createUserTemplate(
      accountId,
      { name, description, alias, publishedBy, ...checked },
      input.publish ?? true,
    );
    return { ...created, compatibility: checked.compatibility, messageWarnings: checked.messageWarnings };
  });
}

/** Times a save is made again when a component it links changes between its compile and its transaction. */
export const SAVE_ATTEMPTS = 3;

/**
 * Runs a save (compile, then store) again when a component it was compiled with changed before it was stored (an
 * update of that component committed in between), so the save is built with the component's new version rather than
 * lost or stored with the old one.
 */
async function savedWithCurrentComponents<T>(save: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await save();
    } catch (error) {
      if (!(error instanceof PinnedComponentChanged)) throw error;
      if (attempt === SAVE_ATTEMPTS || error.nowVersion === undefined) throw error.refusal();
    }
  }
}

/**
 * Replaces the name and description of a template the account owns and saves its new source (after checking it) as
 * its next published version, or as its draft; null when it owns no template `templateId`, which is then looked at
 * before anything is compiled.
 */
export async function replaceTemplateFromSource(accountId: string, templateId: string, input: NewTemplateSource) {
  const id = await findOwnTemplateId(accountId, templateId);
  if (!id) return null;
  return savedWithCurrentComponents(async () => {
    const checked = await checkTemplate(accountId, input, { draft: input.publish === false });
    const { name, description, alias, publishedBy } = input;
    const replaced = await replaceUserTemplate(
      accountId,
      id,
      { name, description, alias, publishedBy, ...checked },
      input.publish ?? true,
    );
    return replaced && { ...replaced, compatibility: checked.compatibility, messageWarnings: checked.messageWarnings };
  });
}

/**
 * Makes again the Tailwind styles of every user template that has them (of one account, or all), from its stored
 * source: its own code, its versions' and its draft's. Styles made before each compile had Tailwind to itself may hold
 * rules made for another account's classes: run once after deploying (`npm run admin -- template:restyle`). A template
 * that no longer compiles keeps its code and is listed.
 */
export async function restyleTailwindTemplates(
  accountId: string | null,
): Promise<{ restyled: number; failed: { id: string; message: string }[] }> {
  let restyled = 0;
  const failed: { id: string; message: string }[] = [];
  // A template's own code is also its published version's: each source is compiled once.
  const compiledBySource = new Map<string, Awaited<ReturnType<typeof compileTemplateFilesOffThread>>>();
  for (const saved of await listTailwindTemplateSources(accountId)) {
    const files = saved.files ?? { [SINGLE_FILE]: saved.code };
    const entry = saved.entry ?? SINGLE_FILE;
    const source = JSON.stringify([saved.id, entry, files, saved.components]);
    let compiled = compiledBySource.get(source);
    if (!compiled) {
      const available = await findPinnedComponentSources(saved.owner_account_id, saved.components ?? []);
      compiled = await compileTemplateFilesOffThread(saved.owner_account_id, files, entry, saved.default_locale, {
        available,
      });
      compiledBySource.set(source, compiled);
      if (!compiled.ok) failed.push({ id: saved.id, message: compiled.message });
    }
    if (compiled.ok && compiled.code !== saved.compiled_code) {
      if (await replaceCompiledCode(saved, saved.compiled_code, compiled.code)) restyled++;
    }
  }
  return { restyled, failed };
}

/** A save's answer: the template as GET /templates/{id} describes it, and the warnings of its email client support. */
export type SavedTemplate = { template: TemplateDetails; warnings?: RenderWarning[] };

async function savedTemplate(
  accountId: string,
  {
    id,
    compatibility,
    messageWarnings,
  }: { id: string; compatibility: CompatibilityFinding[] | null; messageWarnings: MessagesProblem[] },
): Promise<SavedTemplate> {
  const template = await getTemplateDetailsOrThrow(accountId, id);
  const warnings = [
    ...messageWarnings.map((warning) => ({ ...warning, kind: "messages" as const })),
    ...compatibilityWarnings(compatibility),
  ];
  return warnings.length > 0 ? { template, warnings } : { template };
}

/** POST /templates: 201's template and warnings. */
export async function createTemplateOrThrow(accountId: string, input: NewTemplateSource): Promise<SavedTemplate> {
  const created = await createTemplateFromSource(accountId, input);
  deliverWebhookSoon(accountId); // its template.published event
  return savedTemplate(accountId, created);
}

/**
 * PUT /templates/{id} (by id or alias): the template replaced, and its warnings; 404 unless the account owns it (a
 * catalogue template never is).
 */
export async function replaceTemplateOrThrow(
  accountId: string,
  templateId: string,
  input: NewTemplateSource,
): Promise<SavedTemplate> {
  const replaced = await replaceTemplateFromSource(accountId, templateId, input);
  if (!replaced) throw errors.templateNotFound();
  deliverWebhookSoon(accountId); // a published save's template.published event
  // By its id: the alias it was named by may just have changed.
  return savedTemplate(accountId, replaced);
}

/** PATCH /templates/{id}: the template with its alias set or cleared; 404 unless the account owns it. */
export async function setTemplateAliasOrThrow(
  accountId: string,
  templateId: string,
  alias: string | null,
): Promise<TemplateDetails> {
  const id = await setUserTemplateAlias(accountId, templateId, alias);
  if (!id) throw errors.templateNotFound();
  return getTemplateDetailsOrThrow(accountId, id);
}

/** DELETE /templates/{id}: the template and its library entry are gone; 404 unless the account owns it. */
export async function deleteTemplateOrThrow(accountId: string, templateId: string): Promise<void> {
  if (!(await deleteUserTemplate(accountId, templateId))) throw errors.templateNotFound();
}
