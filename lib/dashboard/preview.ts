import "server-only";
import { componentsForCompile } from "@/lib/components/sources";
import { createHash } from "node:crypto";
import { AppError, errors } from "@/lib/core/errors";
import { clientAddress } from "@/lib/api/client-address";
import { rateLimitExceeded, type Caller } from "@/lib/api/with-api-auth";
import { authenticateAndMeter, type MeteredCaller } from "@/lib/usage/service";
import { recordRateLimitHits } from "@/lib/db/rate-limits";
import { findTemplateForAccount, type RenderedVersion, type TemplateRecord } from "@/lib/templates/service";
import { checkVariables, renderTemplate } from "@/lib/render";
import {
  exampleFromSchema,
  previewPropsRenderFailure,
  schemaFromPreviewProps,
  variablesProblem,
} from "@/lib/render/analysis/variables";
import type { VariablesSchema } from "@/lib/templates/variables-schema";
import { templatePreviewProps, templateVariablesSchema } from "@/lib/templates/details";
import { PREVIEW_LIMITS } from "@/lib/core/limits";
import { billingPeriod } from "@/lib/core/plans";
import { messagesTag, templateFilesProblems, type TemplateFiles } from "@/lib/templates/files";
import {
  checkMessagesOffThread,
  compileTemplateFilesOffThread,
  compileTemplateOffThread,
} from "@/lib/render/sandbox/compile-pool";
import { resolveLocale, type TemplateLocales } from "@/lib/templates/messages";
import { readPreviewProps, renderInSandbox } from "@/lib/render/sandbox";
import type { CompatibilityFinding } from "@/lib/render/analysis/warnings";

type PreviewableTemplate = Pick<
  TemplateRecord,
  "id" | "owner_account_id" | "slug" | "compiled_code" | "variables" | "preview_props" | "locales" | "default_locale"
> &
  RenderedVersion;

/** Who asks for a dashboard render: the account, its plan and this month's API calls, as withApiAuth reads them. */
type PreviewCaller = Pick<MeteredCaller, "accountId" | "plan" | "used" | "quota">;

/**
 * Admits one of the dashboard's renders (the live preview, a thumbnail, a template's page, a save's compile and trial
 * render), each of which runs the sandbox or the compile workers. A render here is not an API call and is not counted
 * as one (editing would otherwise spend a free month's calls in an afternoon), but once the month's calls are used up
 * it is refused with /render's 429, as /render would be. Then it is counted against PREVIEW_LIMITS, past either of
 * which it is refused with the 429 (with Retry-After). `address` null (a forwarded address that is not one): such
 * requests share one bucket, so forging garbage addresses does not escape the per-address limit.
 */
export async function admitPreview(caller: PreviewCaller, address: string | null): Promise<void> {
  if (caller.quota !== null && caller.used >= caller.quota) throw rateLimitExceeded(caller, billingPeriod().reset);
  const accountBucket = `preview:account:${caller.accountId}`;
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
 * withApiAuth's `admit` for the dashboard's render routes: the signed-in session only (an API key gets 401), then
 * admitPreview, before the request's body is read or parsed.
 */
export async function admitDashboardRender(caller: Caller, request: Request): Promise<void> {
  if (caller.via !== "session") throw errors.unauthorized();
  await admitPreview(caller, clientAddress(request.headers));
}

/** admitPreview for a page or a server action, which knows the signed-in account but not its API calls. */
export async function admitSignedInPreview(accountId: string, address: string | null): Promise<void> {
  const caller = await authenticateAndMeter(
    { kind: "account", accountId },
    { metered: false, sendingAccess: false },
    billingPeriod().start,
  );
  if (!caller) throw errors.unauthorized();
  await admitPreview(caller, address);
}

/**
 * Sample values for a template's variables: the component's `PreviewProps` (as React Email's own preview server
 * uses them), over values made from its variables schema, so that anything required has a value.
 */
export async function previewVariables(template: PreviewableTemplate): Promise<Record<string, unknown>> {
  const fromSchema = exampleFromSchema(templateVariablesSchema(template)) as Record<string, unknown>;
  const previewProps = (await templatePreviewProps(template)) ?? (await readOlderSavesPreviewProps(template));
  return structuredClone({ ...fromSchema, ...(previewProps ?? {}) });
}

/** A user template saved before its PreviewProps were kept: read them in the sandbox (previews are rate-limited). */
async function readOlderSavesPreviewProps(template: PreviewableTemplate): Promise<Record<string, unknown> | null> {
  if (template.owner_account_id === null || template.preview_props !== null || !template.compiled_code) return null;
  try {
    const previewProps = await readPreviewProps({
      owner: template.owner_account_id,
      cacheKey: `${template.id}:${template.content_key}`,
      compiledCode: template.compiled_code,
    });
    return previewProps && !variablesProblem(previewProps) ? previewProps : null;
  } catch (error) {
    // A busy sandbox says nothing about the template: sample values made without its PreviewProps would be wrong.
    if (error instanceof AppError && error.code === "SANDBOX_BUSY") throw error;
    return null;
  }
}

/** A template the dashboard previews for the account: one in its library or a public catalogue one, else not found. */
export async function findPreviewableTemplateOrThrow(accountId: string, templateId: string) {
  const template = await findTemplateForAccount(accountId, templateId);
  const visible = template && (template.in_library || (template.owner_account_id === null && template.is_public));
  if (!template || !visible) throw errors.templateNotFound();
  return template;
}

export const THUMBNAIL_UNAVAILABLE_HTML = `<!DOCTYPE html><html><body style="margin:0;display:grid;place-items:center;height:100vh;font:14px system-ui;color:#78716c;background:#f5f5f4">Preview unavailable</body></html>`;

/**
 * The template rendered with its sample values, for card thumbnails; null when it cannot render. A busy sandbox (503)
 * is not the template's failure: it is thrown, for the caller to answer as such.
 */
export async function renderThumbnail(accountId: string, template: PreviewableTemplate): Promise<string | null> {
  try {
    const sample = checkVariables(template, await previewVariables(template));
    return (await renderTemplate(template, sample, { accountId })).html;
  } catch (error) {
    if (error instanceof AppError && error.code === "SANDBOX_BUSY") throw error;
    return null;
  }
}

export type DraftRender =
  | {
      ok: true;
      html: string;
      props: Record<string, unknown>;
      variables: VariablesSchema;
      /** Email client support of the render (lib/render/analysis/compatibility.ts); null when the check was skipped. */
      compatibility: CompatibilityFinding[] | null;
    }
  | { ok: false; message: string; line?: number; column?: number; path?: string };

/**
 * An unsaved template: one source, or files by path with their entry (the editor's tabs), with the default locale of
 * its messages when it has any, and the locale to preview (by default the variables', else the default locale).
 */
export type DraftSource =
  { code: string } | { files: TemplateFiles; entry: string; default_locale?: string; locale?: string };

/**
 * Renders TSX that has not been saved yet, in the same WebAssembly sandbox that renders saved user templates, with
 * `variables` or, when null, the component's PreviewProps (`props`: what it was rendered with). Answers the draft's
 * variables schema too, for the editor to show as the code changes. Files go through the path rules saving applies
 * first; a failure in one file names it (`path`). `signal`: the request's, so an abandoned preview's compile leaves
 * the queue if it has not started.
 */
export async function renderDraft(
  accountId: string,
  source: DraftSource,
  variables: Record<string, unknown> | null,
  signal?: AbortSignal,
): Promise<DraftRender> {
  const compiled =
    "code" in source ? await compileOne(accountId, source.code, signal) : await compileFiles(accountId, source, signal);
  if (!compiled.ok) return compiled;
  const locale = "files" in source ? source.locale : undefined;
  // Per account: a warm context is never shared between users, even for the same code.
  const cacheKey = `draft:${accountId}:${createHash("sha256").update(compiled.code).digest("hex").slice(0, 32)}`;
  // The PreviewProps once read: a render of them that then fails says which required variables they lack.
  let read: Record<string, unknown> | null | undefined;
  try {
    read = await readPreviewProps({ owner: accountId, cacheKey, compiledCode: compiled.code });
    const previewProps = read ?? {};
    const props = localeProps(variables ?? previewProps, compiled.messages, locale);
    const { html, compatibility = [] } = await renderInSandbox({
      owner: accountId,
      cacheKey,
      compiledCode: compiled.code,
      props,
      compatibility: true,
    });
    // PreviewProps too large to send as variables describe nothing a caller could send.
    const sample = variablesProblem(previewProps) ? null : previewProps;
    return { ok: true, html, props, variables: compiled.variables ?? schemaFromPreviewProps(sample), compatibility };
  } catch (error) {
    if (error instanceof AppError && error.code === "RENDER_ERROR") {
      const lacking =
        variables === null && read !== undefined && previewPropsRenderFailure(compiled.variables, read, error.message);
      return { ok: false, message: lacking || error.message };
    }
    throw error;
  }
}

type DraftCompile =
  | { ok: true; code: string; variables: VariablesSchema | null; messages?: TemplateLocales | null }
  | (DraftRender & { ok: false });

/** A localized draft's props: `locale` (else the props') resolved among its locales, as a render resolves it. */
function localeProps(
  props: Record<string, unknown>,
  messages: TemplateLocales | null | undefined,
  locale: string | undefined,
): Record<string, unknown> {
  if (!messages) return props;
  const requested = locale ?? (typeof props.locale === "string" ? props.locale : undefined);
  const tags = messages.locales.map(({ tag }) => tag);
  return { ...props, locale: resolveLocale(requested, tags, messages.defaultLocale) };
}

async function compileOne(accountId: string, code: string, signal?: AbortSignal): Promise<DraftCompile> {
  const compiled = await compileTemplateOffThread(accountId, code, signal);
  if (compiled.ok) return compiled;
  if (compiled.line === undefined) return { ok: false, message: compiled.message };
  return { ok: false, message: compiled.message, line: compiled.line, column: compiled.column };
}

async function compileFiles(
  accountId: string,
  { files, entry, default_locale: defaultLocale }: { files: TemplateFiles; entry: string; default_locale?: string },
  signal?: AbortSignal,
): Promise<DraftCompile> {
  const [problem] = templateFilesProblems(files, entry);
  if (problem) {
    const { path } = problem;
    return {
      ok: false,
      message: `${path ?? problem.field} ${problem.message}`,
      ...(path !== undefined ? { path } : {}),
    };
  }
  const messagesFiles = Object.fromEntries(Object.entries(files).filter(([path]) => messagesTag(path) !== null));
  let messages: TemplateLocales | null = null;
  if (Object.keys(messagesFiles).length > 0) {
    const checked = await checkMessagesOffThread(accountId, messagesFiles, defaultLocale, signal);
    if (!checked.ok) {
      if ("message" in checked) return { ok: false, message: checked.message };
      const [first] = checked.problems;
      const path = first.field.startsWith("files.") ? first.field.slice("files.".length) : undefined;
      return { ok: false, message: `${path ?? first.field} ${first.message}`, ...(path ? { path } : {}) };
    }
    messages = checked.messages;
  }
  // What saving compiles.
  const compiled = await compileTemplateFilesOffThread(
    accountId,
    files,
    entry,
    messages?.defaultLocale ?? null,
    await componentsForCompile(accountId, files),
    signal,
  );
  if (compiled.ok) return { ...compiled, messages };
  const path = "path" in compiled && compiled.path !== null ? { path: compiled.path } : {};
  if (compiled.line === undefined) return { ok: false, message: compiled.message, ...path };
  return { ok: false, message: compiled.message, line: compiled.line, column: compiled.column, ...path };
}
