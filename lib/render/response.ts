import "server-only";
import type { z } from "zod";
import { errors } from "@/lib/core/errors";
import { getRenderableTemplateOrThrow } from "@/lib/render/access";
import { checkVariables, renderTemplateAsJson } from "@/lib/render";
import { applyVariablesOffThread } from "@/lib/render/sandbox/compile-pool";
import type { renderRequestSchema, renderResponseSchema } from "@/lib/templates/schemas";

export type RenderBody = z.input<typeof renderResponseSchema>;

/** A render's body, or (HTML) that body as UTF-8 JSON, serialized while rendering, to be sent as it is. */
export type RenderResponseBody = { body: RenderBody } | { json: Uint8Array<ArrayBuffer> };

/**
 * What a render of template `templateId` (an id or alias) answers: POST /api/v1/templates/{id}/render's body, and the
 * template page's previews (/api/dashboard/templates/{id}/render), which are not API calls. `compatibility`: add the
 * warnings of the HTML's email client support (the API's answer has them; the template page shows its own panel).
 * lib/api/render-response.ts makes the response.
 */
export async function renderResponseBody(
  accountId: string,
  templateId: string,
  body: z.output<typeof renderRequestSchema>,
  signal: AbortSignal,
  compatibility = true,
): Promise<RenderResponseBody> {
  if (body.format === "react") {
    const template = await getRenderableTemplateOrThrow(accountId, templateId, body.version);
    const checked = checkVariables(template, body.variables, body.locale);
    const locale = checked.locale === undefined ? {} : { locale: checked.locale };
    const react = await applyVariablesOffThread(accountId, template.code, checked.props, signal);
    if (!react.ok) throw errors.renderFailed(react.message);
    // The entry's relative imports need its other files: a template of several files answers them all, the entry's
    // with the variables applied.
    const { files, entry } = template;
    return {
      body: {
        success: true,
        ...locale,
        react: react.source,
        ...(files && entry ? { files: { ...files, [entry]: react.source }, entry } : {}),
        ...(checked.warnings.length > 0 ? { warnings: checked.warnings } : {}),
      },
    };
  }
  // HTML needs no source: a user template's is left out of the lookup.
  const template = await getRenderableTemplateOrThrow(accountId, templateId, body.version, { source: false });
  const checked = checkVariables(template, body.variables, body.locale);
  // The resolved tag, after `success`; a template without messages answers none.
  const locale = checked.locale === undefined ? {} : { locale: checked.locale };
  // JSON already serialized as the HTML was rendered (a catalogue template's off the event loop): answered as it is.
  const json = await renderTemplateAsJson(
    template,
    checked,
    { accountId, plainText: body.plain_text, signal, compatibility },
    { success: true, ...locale },
  );
  return { json };
}
