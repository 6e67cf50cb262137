import "server-only";
import { z } from "zod";
import { errors, zodDetails } from "@/lib/core/errors";
import { catalogueVariablesSchema, getCatalogueEntry } from "@/lib/catalogue/catalogue";
import { catalogueLocales, catalogueSubject, catalogueSubjectMessage } from "@/lib/catalogue/locales";
import type { RenderableTemplate } from "@/lib/sending/pipeline";
import {
  renderCatalogueJsonOffThread,
  renderCatalogueOffThread,
  type RenderedEmail,
} from "@/lib/render/workers/catalogue-pool";
import { renderInSandbox } from "@/lib/render/sandbox";
import {
  compileVariablesSchema,
  undeclaredVariableWarnings,
  type VariablesChecker,
} from "@/lib/render/analysis/variables";
import { resolveLocale } from "@/lib/templates/messages";
import {
  compatibilityWarnings,
  inKindOrder,
  withHtmlWarning,
  type RenderWarning,
} from "@/lib/render/analysis/warnings";

export type { RenderedEmail };

/**
 * `accountId`: the account the render is for; accounts take turns on the render workers. `signal`: the request's, so
 * a render still waiting for a worker when the client goes away leaves the queue. `onSandboxTime`: told how long a
 * user template's render ran in the sandbox (a batch's renders share a budget of that time). `compatibility`: add the
 * warnings of the HTML's email client support (a render's answer has them; a send's does not).
 */
export type RenderOptions = {
  accountId: string;
  plainText?: boolean;
  compatibility?: boolean;
  signal?: AbortSignal;
  onSandboxTime?: (ms: number) => void;
  /** Format the resolved locale's `subject` message with the props (a send without a subject), as `subject`. */
  subject?: boolean;
};

/** A render's result, with the subject its locale's messages gave when RenderOptions.subject asked for it. */
export type RenderedLocalizedEmail = RenderedEmail & { subject?: string };

// The sandbox's subject message (lib/render/sandbox/index.ts: `subjectMessage` in, `subject` out), as this file uses it.
type SandboxOptions = Parameters<typeof renderInSandbox>[0] & { subjectMessage?: string };
type SandboxResult = Awaited<ReturnType<typeof renderInSandbox>> & { subject?: string };

/**
 * Renders a template with variables checked by checkVariables: catalogue templates natively (on a render worker, see
 * catalogue-pool.ts); user-authored templates only inside the WebAssembly sandbox. A template that fails answers 422
 * RENDER_ERROR. `warnings` are the variables' and the HTML's own (Gmail clipping; email client support when asked
 * for), left out when there are none.
 */
export async function renderTemplate(
  template: RenderableTemplate,
  { props, warnings, subjectMessage }: CheckedVariables,
  options: RenderOptions,
): Promise<RenderedLocalizedEmail> {
  const plainText = options.plainText ?? false;
  const rendered: RenderedLocalizedEmail =
    template.owner_account_id === null
      ? await renderCatalogue(template, props, options, plainText, subjectMessage !== undefined)
      : await renderUserTemplate(template, template.owner_account_id, props, plainText, options, subjectMessage);
  const { warnings: htmlWarnings = [], ...email } = rendered;
  const all = inKindOrder([...warnings, ...htmlWarnings]);
  return all.length > 0 ? { ...email, warnings: all } : email;
}

/** The render with the HTML's own warnings (Gmail clipping, email client support), as the catalogue worker answers it. */
function withHtmlWarnings({ compatibility, ...rendered }: SandboxResult): RenderedLocalizedEmail {
  const warnings = [
    ...(withHtmlWarning([], Buffer.byteLength(rendered.html)) ?? []),
    ...(compatibility !== undefined ? compatibilityWarnings(compatibility) : []),
  ];
  return warnings.length > 0 ? { ...rendered, warnings } : rendered;
}

const utf8 = new TextEncoder();

/**
 * The render as UTF-8 JSON, `{ ...fields, html, text?, warnings? }`: the body of POST /render. A catalogue template's
 * JSON is written by the render worker along with the HTML, so the event loop, which every request shares, does not
 * spend time serializing and encoding the document. A user template's warnings include the HTML's email client support
 * unless `options.compatibility` is false; a catalogue template's never do (catalogue-pool.ts says why).
 */
export async function renderTemplateAsJson(
  template: RenderableTemplate,
  checked: CheckedVariables,
  options: RenderOptions,
  fields: Record<string, unknown>,
): Promise<Uint8Array<ArrayBuffer>> {
  const plainText = options.plainText ?? false;
  const compatibility = options.compatibility ?? true;
  if (template.owner_account_id === null) {
    const slug = catalogueSlug(template);
    const jsonFields = checked.warnings.length > 0 ? { ...fields, warnings: checked.warnings } : fields;
    const { accountId, signal } = options;
    return renderCatalogueJsonOffThread(accountId, slug, checked.props, plainText, jsonFields, signal);
  }
  const rendered = await renderTemplate(template, checked, { ...options, compatibility });
  return utf8.encode(JSON.stringify({ ...fields, ...rendered }));
}

/**
 * `locale`: the template's tag the render's `locale` resolved to (its `locale` prop), and `subjectMessage` that
 * locale's top-level `subject` message; both left out for a template without messages.
 */
export type CheckedVariables = {
  props: Record<string, unknown>;
  warnings: RenderWarning[];
  locale?: string;
  subjectMessage?: string;
};

/**
 * The locale a render of `template` uses (resolveLocale among its locales: 400 field `locale` when malformed), with
 * that locale's subject message; null for a template without messages, which ignores `requested`.
 */
export function templateLocale(
  template: Pick<RenderableTemplate, "locales" | "default_locale">,
  requested: string | undefined,
): { tag: string; subject?: string } | null {
  const { locales, default_locale: defaultLocale } = template;
  if (!locales || locales.length === 0 || defaultLocale === null) return null;
  const tag = resolveLocale(
    requested,
    locales.map((locale) => locale.tag),
    defaultLocale,
  );
  return locales.find((locale) => locale.tag === tag) ?? { tag };
}

/**
 * The props a template receives: the variables checked against the template's variables schema (a catalogue
 * template's zod schema also applies its defaults), undeclared variables passed through unchanged, each with a
 * warning. Throws the 400 listing every missing or mistyped variable.
 */
export function checkVariables(
  template: RenderableTemplate,
  variables: Record<string, unknown>,
  requestedLocale?: string,
): CheckedVariables {
  const entry = template.owner_account_id === null && template.slug ? getCatalogueEntry(template.slug) : undefined;
  if (entry) {
    const localized = catalogueLocales(entry.slug);
    if (!localized) {
      const props = parseCatalogueVariables(entry.variables, variables);
      return { props, warnings: undeclaredVariableWarnings(catalogueVariablesSchema(entry), variables) };
    }
    // As a user template's: the component receives the resolved tag as its `locale` prop, whatever the variables say.
    const { locale: _locale, ...others } = variables;
    const tag = resolveLocale(requestedLocale, localized.locales, localized.defaultLocale);
    const props = { ...parseCatalogueVariables(entry.variables, others), locale: tag };
    const warnings = undeclaredVariableWarnings(catalogueVariablesSchema(entry), others);
    const subjectMessage = catalogueSubjectMessage(entry.slug, tag);
    return subjectMessage === null
      ? { props, warnings, locale: tag }
      : { props, warnings, locale: tag, subjectMessage };
  }
  const locale = templateLocale(template, requestedLocale);
  if (!locale) {
    const problems = userVariablesChecker(template)(variables);
    if (problems.length > 0) throw errors.validation(problems);
    return { props: variables, warnings: undeclaredVariableWarnings(template.variables, variables) };
  }
  // The component receives the resolved tag as its `locale` prop, whatever the variables say: a props type that
  // declares `locale` is satisfied by it, and it is no undeclared variable.
  const props = { ...variables, locale: locale.tag };
  const problems = userVariablesChecker(template)(props);
  if (problems.length > 0) throw errors.validation(problems);
  const { locale: _locale, ...others } = variables;
  const checked = { props, warnings: undeclaredVariableWarnings(template.variables, others), locale: locale.tag };
  return locale.subject === undefined ? checked : { ...checked, subjectMessage: locale.subject };
}

function parseCatalogueVariables(schema: z.ZodObject, variables: Record<string, unknown>): Record<string, unknown> {
  const parsed = schema.safeParse(variables);
  if (!parsed.success) {
    // A missing variable reads "is required" whatever its schema's own message for a wrong value (say, "must be an
    // http(s) URL"). Looked up here rather than with zod's reportInput, which slows down every successful parse.
    const valueAt = (path: PropertyKey[]) =>
      path.reduce<unknown>((value, key) => (value as Record<PropertyKey, unknown> | undefined)?.[key], variables);
    const messageOf = (issue: z.core.$ZodIssue) =>
      issue.code === "invalid_type" && valueAt(issue.path) === undefined ? "is required" : issue.message;
    throw errors.validation(zodDetails(parsed.error, "variables", messageOf));
  }
  return parsed.data as Record<string, unknown>;
}

async function renderCatalogue(
  template: RenderableTemplate,
  props: Record<string, unknown>,
  { accountId, signal, subject }: RenderOptions,
  plainText: boolean,
  hasSubjectMessage: boolean,
): Promise<RenderedLocalizedEmail> {
  const slug = catalogueSlug(template);
  // React escapes every text and attribute value, so variables cannot inject markup.
  const rendered = await renderCatalogueOffThread(accountId, slug, props, plainText, signal);
  if (!subject || !hasSubjectMessage || typeof props.locale !== "string") return rendered;
  const formatted = catalogueSubject(slug, props.locale, props);
  return formatted === null ? rendered : { ...rendered, subject: formatted };
}

function catalogueSlug(template: RenderableTemplate): string {
  const entry = template.slug ? getCatalogueEntry(template.slug) : undefined;
  if (!entry) throw new Error(`Catalogue template ${template.id} (${template.slug}) has no component in emails/`);
  return entry.slug;
}

async function renderUserTemplate(
  template: RenderableTemplate,
  owner: string,
  props: Record<string, unknown>,
  plainText: boolean,
  { signal, onSandboxTime, compatibility, subject }: RenderOptions,
  subjectMessage: string | undefined,
): Promise<RenderedLocalizedEmail> {
  if (!template.compiled_code) {
    throw errors.renderFailed("This template has not been compiled. Save it again to compile it.");
  }
  const options: SandboxOptions = {
    owner,
    cacheKey: `${template.id}:${template.content_key}`,
    compiledCode: template.compiled_code,
    props,
    plainText,
    compatibility,
    signal,
    onRunTime: onSandboxTime,
    ...(subject && subjectMessage !== undefined ? { subjectMessage } : {}),
  };
  return withHtmlWarnings(await renderInSandbox(options));
}

// Compiling a schema costs more than checking with it: keep one checker per content rendered, as the sandbox keeps one
// warm context per content (its schema changes only with it).
const MAX_CHECKERS = 1000;
const checkers = new Map<string, VariablesChecker>();

function userVariablesChecker(template: RenderableTemplate): VariablesChecker {
  const key = `${template.id}:${template.content_key}`;
  let checker = checkers.get(key);
  if (!checker) {
    checker = compileVariablesSchema(template.variables);
    checkers.set(key, checker);
    if (checkers.size > MAX_CHECKERS) checkers.delete(checkers.keys().next().value!);
  }
  return checker;
}
