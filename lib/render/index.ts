import "server-only";
import { createElement } from "react";
import { z } from "zod";
import { errors, zodDetails } from "@/lib/api/errors";
import { getCatalogueEntry } from "@/lib/catalogue";
import type { RenderableTemplate } from "@/lib/db/templates";
import {
  CatalogueRenderError,
  renderCatalogueJsonOffThread,
  renderCatalogueOffThread,
  type RenderedEmail,
} from "@/lib/render/catalogue-pool";
import { renderEmailDocument } from "@/lib/render/native";
import { toPlainText } from "@/lib/render/plain-text";
import { renderInSandbox, SandboxRenderError } from "@/lib/render/sandbox";
import type { VariableDeclaration } from "@/lib/schemas/templates";

export type { RenderedEmail };

/**
 * `accountId`: the account the render is for; accounts take turns on the render workers. `signal`: the request's, so
 * a catalogue render still waiting for a worker when the client goes away leaves the queue.
 */
export type RenderOptions = { accountId: string; plainText?: boolean; signal?: AbortSignal };

/**
 * Renders a template with the caller's variables: catalogue templates natively (on a render worker, see
 * catalogue-pool.ts); user-authored templates only inside the WebAssembly sandbox. Variables are validated against
 * the template's declaration first (400 with `variables.<name>`); a template that fails answers 422 RENDER_ERROR.
 */
export async function renderTemplate(
  template: RenderableTemplate,
  variables: Record<string, unknown>,
  options: RenderOptions,
): Promise<RenderedEmail> {
  const plainText = options.plainText ?? false;
  if (template.owner_account_id === null) return renderCatalogue(template, options, variables, plainText);
  return renderUserTemplate(template, template.owner_account_id, variables, plainText);
}

const utf8 = new TextEncoder();

/**
 * The render as UTF-8 JSON, `{ ...fields, html, text? }`: the body of POST /render. A catalogue template's JSON is
 * written by the render worker along with the HTML, so the event loop, which every request shares, does not spend
 * time serializing and encoding the document.
 */
export async function renderTemplateAsJson(
  template: RenderableTemplate,
  variables: Record<string, unknown>,
  options: RenderOptions,
  fields: Record<string, unknown>,
): Promise<Uint8Array<ArrayBuffer>> {
  const plainText = options.plainText ?? false;
  if (template.owner_account_id === null && !RENDER_IN_PROCESS) {
    const { slug, props } = catalogueRenderInput(template, variables);
    return withCatalogueErrors(slug, () =>
      renderCatalogueJsonOffThread(options.accountId, slug, props, plainText, fields, options.signal),
    );
  }
  return utf8.encode(JSON.stringify({ ...fields, ...(await renderTemplate(template, variables, options)) }));
}

function withPlainText(html: string, plainText: boolean): RenderedEmail {
  return plainText ? { html, text: toPlainText(html) } : { html };
}

/** The props a template receives: the variables after validation, with declared defaults applied. */
export function resolveVariables(
  template: RenderableTemplate,
  variables: Record<string, unknown>,
): Record<string, unknown> {
  const schema =
    template.owner_account_id === null && template.slug ? getCatalogueEntry(template.slug)?.variables : undefined;
  const parsed = (schema ?? declaredVariablesSchema(template)).safeParse(variables);
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

// `next dev` renders in process, so edits to emails/ show at once; everywhere else the worker's bundle (regenerated
// before every build and test run) serves.
const RENDER_IN_PROCESS = process.env.NODE_ENV === "development";

async function renderCatalogue(
  template: RenderableTemplate,
  { accountId, signal }: RenderOptions,
  variables: Record<string, unknown>,
  plainText: boolean,
): Promise<RenderedEmail> {
  const { slug, props, component } = catalogueRenderInput(template, variables);
  // React escapes every text and attribute value, so variables cannot inject markup.
  if (!RENDER_IN_PROCESS)
    return withCatalogueErrors(slug, () => renderCatalogueOffThread(accountId, slug, props, plainText, signal));
  return withCatalogueErrors(slug, async () =>
    withPlainText(await renderEmailDocument(createElement(component, props)), plainText),
  );
}

function catalogueRenderInput(template: RenderableTemplate, variables: Record<string, unknown>) {
  const entry = template.slug ? getCatalogueEntry(template.slug) : undefined;
  if (!entry) throw new Error(`Catalogue template ${template.id} (${template.slug}) has no component in emails/`);
  return { slug: entry.slug, component: entry.component, props: resolveVariables(template, variables) };
}

/**
 * A catalogue template that throws, makes more HTML than allowed or runs past its deadline answers 422 RENDER_ERROR;
 * a worker without the component is our fault (500).
 */
async function withCatalogueErrors<T>(slug: string, render: () => Promise<T>): Promise<T> {
  try {
    return await render();
  } catch (error) {
    if (error instanceof CatalogueRenderError && error.kind === "missing")
      throw new Error(`The render worker has no component for ${slug}: rebuild it`);
    if (error instanceof CatalogueRenderError && error.kind !== "threw") throw errors.renderFailed(error.message);
    if (RENDER_IN_PROCESS || error instanceof CatalogueRenderError) {
      throw errors.renderFailed(`The template threw while rendering: ${(error as Error).message}`);
    }
    throw error;
  }
}

async function renderUserTemplate(
  template: RenderableTemplate,
  owner: string,
  variables: Record<string, unknown>,
  plainText: boolean,
): Promise<RenderedEmail> {
  if (!template.compiled_code) {
    throw errors.renderFailed("This template has not been compiled. Save it again to compile it.");
  }
  const props = resolveVariables(template, variables);
  try {
    return await renderInSandbox({
      owner,
      cacheKey: `${template.id}:${template.version}`,
      compiledCode: template.compiled_code,
      props,
      plainText,
    });
  } catch (error) {
    if (error instanceof SandboxRenderError) throw errors.renderFailed(error.message);
    throw error;
  }
}

// Building a zod schema costs more than parsing with it: keep one per template version, as the sandbox keeps one
// warm context per template version (its declarations change only with its version).
const MAX_DECLARED_SCHEMAS = 1000;
const declaredSchemas = new Map<string, z.ZodObject>();

function declaredVariablesSchema(template: RenderableTemplate): z.ZodObject {
  const key = `${template.id}:${template.version}`;
  let schema = declaredSchemas.get(key);
  if (!schema) {
    schema = schemaFromDeclarations(template.variables);
    declaredSchemas.set(key, schema);
    if (declaredSchemas.size > MAX_DECLARED_SCHEMAS) declaredSchemas.delete(declaredSchemas.keys().next().value!);
  }
  return schema;
}

const expected = (what: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? "is required" : `must be ${what}`;

const TYPE_SCHEMAS: Record<VariableDeclaration["type"], () => z.ZodType> = {
  string: () => z.string({ error: expected("a string") }),
  number: () => z.number({ error: expected("a number") }),
  boolean: () => z.boolean({ error: expected("a boolean") }),
  array: () => z.array(z.unknown(), { error: expected("an array") }),
  object: () => z.record(z.string(), z.unknown(), { error: expected("an object") }),
};

const objectPrototypeNames = new Set(Object.getOwnPropertyNames(Object.prototype));

/**
 * Whether a user template may declare a variable of this name: an ASCII identifier of at most 100 characters, and not
 * a name every object has already (a declared `toString` would read Object.prototype's when the caller omits it).
 */
export function isDeclarableVariableName(name: string): boolean {
  return /^[A-Za-z_$][A-Za-z0-9_$]{0,99}$/.test(name) && !objectPrototypeNames.has(name);
}

/**
 * A zod schema for a user template's stored declarations. Undeclared variables reach the component unchanged, so a
 * template that declares nothing gets every variable; declarations of names no longer declarable (saved before
 * isDeclarableVariableName) are left out the same way.
 */
export function schemaFromDeclarations(declarations: VariableDeclaration[]): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  for (const declaration of declarations) {
    if (!isDeclarableVariableName(declaration.name)) continue;
    const base = TYPE_SCHEMAS[declaration.type]();
    shape[declaration.name] = declaration.required
      ? base
      : declaration.default !== undefined
        ? base.default(declaration.default as never)
        : base.optional();
  }
  return z.looseObject(shape);
}
