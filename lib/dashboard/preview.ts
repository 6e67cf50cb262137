import "server-only";
import { createHash } from "node:crypto";
import { ApiError, errors } from "@/lib/api/errors";
import { getCatalogueEntry } from "@/lib/catalogue";
import { recordRateLimitHits } from "@/lib/db/rate-limits";
import type { TemplateRecord } from "@/lib/db/templates";
import { renderTemplate } from "@/lib/render";
import { MAX_TEMPLATE_SOURCE_CHARS, PREVIEW_LIMITS } from "@/lib/limits";
import { compileTemplateOffThread } from "@/lib/render/sandbox/compile-pool";
import { schemaFromPreviewProps } from "@/lib/render/preview-props-schema";
import { readPreviewProps, renderInSandbox, SandboxRenderError } from "@/lib/render/sandbox";
import type { VariableDeclaration } from "@/lib/schemas/templates";
import type { VariablesSchema } from "@/lib/schemas/variables";

type PreviewableTemplate = Pick<
  TemplateRecord,
  "id" | "owner_account_id" | "slug" | "version" | "compiled_code" | "variables"
>;

/**
 * Counts a preview against PREVIEW_LIMITS before it renders; past either limit, throws the 429 (with Retry-After).
 * `address` null (a forwarded address that is not one): such requests share one bucket, so forging garbage addresses
 * does not escape the per-address limit.
 */
export async function admitPreview(accountId: string, address: string | null): Promise<void> {
  const accountBucket = `preview:account:${accountId}`;
  const hits = await recordRateLimitHits(
    [accountBucket, `preview:address:${address ?? "unknown"}`],
    PREVIEW_LIMITS.windowSeconds,
  );
  for (const { bucket, hits: count, retryAfterSeconds } of hits) {
    const perAccount = bucket === accountBucket;
    const limit = perAccount ? PREVIEW_LIMITS.perAccount : PREVIEW_LIMITS.perAddress;
    if (count <= limit) continue;
    throw errors.previewLimitReached(
      `Dashboard previews are limited to ${limit} a minute per ${perAccount ? "account" : "network address"}. Try again in ${retryAfterSeconds} seconds.`,
      limit,
      retryAfterSeconds,
    );
  }
}

/**
 * Sample values for a template's variables: the component's `PreviewProps` (as React Email's own preview server
 * uses them), over the declared defaults, with a placeholder for anything still required.
 */
export async function previewVariables(template: PreviewableTemplate): Promise<Record<string, unknown>> {
  const declared = placeholders(template.variables ?? []);
  let previewProps: Record<string, unknown> | null = null;
  if (template.owner_account_id === null && template.slug) {
    const component = getCatalogueEntry(template.slug)?.component as
      { PreviewProps?: Record<string, unknown> } | undefined;
    previewProps = component?.PreviewProps ?? null;
  } else if (template.compiled_code) {
    try {
      previewProps = await readPreviewProps({
        owner: template.owner_account_id ?? "",
        cacheKey: `${template.id}:${template.version}`,
        compiledCode: template.compiled_code,
      });
    } catch (error) {
      // A busy sandbox says nothing about the template: sample values made without its PreviewProps would be wrong.
      if (error instanceof ApiError) throw error;
      previewProps = null;
    }
  }
  return structuredClone({ ...declared, ...(previewProps ?? {}) });
}

function placeholders(declarations: VariableDeclaration[]): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const variable of declarations) {
    if (variable.default !== undefined) values[variable.name] = variable.default;
    else if (!variable.required) continue;
    else if (variable.type === "number") values[variable.name] = 1;
    else if (variable.type === "boolean") values[variable.name] = false;
    else if (variable.type === "array") values[variable.name] = [];
    else if (variable.type === "object") values[variable.name] = {};
    else values[variable.name] = /url$/i.test(variable.name) ? "https://example.com" : `Sample ${variable.name}`;
  }
  return values;
}

export const THUMBNAIL_UNAVAILABLE_HTML = `<!DOCTYPE html><html><body style="margin:0;display:grid;place-items:center;height:100vh;font:14px system-ui;color:#78716c;background:#f5f5f4">Preview unavailable</body></html>`;

/**
 * The template rendered with its sample values, for card thumbnails; null when it cannot render. A busy sandbox (503)
 * is not the template's failure: it is thrown, for the caller to answer as such.
 */
export async function renderThumbnail(accountId: string, template: PreviewableTemplate): Promise<string | null> {
  try {
    return (await renderTemplate(template, await previewVariables(template), { accountId })).html;
  } catch (error) {
    if (error instanceof ApiError && error.status === 503) throw error;
    return null;
  }
}

export type DraftRender =
  | { ok: true; html: string; props: Record<string, unknown>; variables: VariablesSchema }
  | { ok: false; message: string; line?: number; column?: number };

/**
 * Renders TSX that has not been saved yet, in the same WebAssembly sandbox that renders saved user templates, with
 * `variables` or, when null, the component's PreviewProps (`props`: what it was rendered with). Answers the draft's
 * variables schema too, for the editor to show as the code changes. `signal`: the request's, so an abandoned
 * preview's compile leaves the queue if it has not started.
 */
export async function renderDraft(
  accountId: string,
  code: string,
  variables: Record<string, unknown> | null,
  signal?: AbortSignal,
): Promise<DraftRender> {
  if (code.length > MAX_TEMPLATE_SOURCE_CHARS) {
    return {
      ok: false,
      message: `The source is longer than ${MAX_TEMPLATE_SOURCE_CHARS.toLocaleString("en-US")} characters.`,
    };
  }
  const compiled = await compileTemplateOffThread(accountId, code, signal);
  if (!compiled.ok) {
    if (compiled.line === undefined) return { ok: false, message: compiled.message };
    return { ok: false, message: compiled.message, line: compiled.line, column: compiled.column };
  }
  // Per account: a warm context is never shared between users, even for the same code.
  const cacheKey = `draft:${accountId}:${createHash("sha256").update(compiled.code).digest("hex").slice(0, 32)}`;
  try {
    const previewProps = (await readPreviewProps({ owner: accountId, cacheKey, compiledCode: compiled.code })) ?? {};
    const props = variables ?? previewProps;
    const { html } = await renderInSandbox({ owner: accountId, cacheKey, compiledCode: compiled.code, props });
    // MERGE: where the compile result carries the schema derived from the props type, answer that instead.
    return { ok: true, html, props, variables: schemaFromPreviewProps(previewProps) };
  } catch (error) {
    if (error instanceof SandboxRenderError) return { ok: false, message: error.message };
    throw error;
  }
}
