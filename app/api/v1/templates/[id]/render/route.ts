import { NextResponse } from "next/server";
import { contract } from "@/lib/api/contract";
import type { SuccessBody } from "@/lib/api/contract/define";
import { implement, routeHandlers } from "@/lib/api/route";
import { errors } from "@/lib/errors";
import { getRenderableTemplateOrThrow } from "@/lib/render/access";
import { checkVariables, renderTemplateAsJson } from "@/lib/render";
import { applyVariablesOffThread } from "@/lib/render/sandbox/compile-pool";

// POST /api/v1/templates/{id}/render – render a template with variables to HTML (and text) or React source
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers({
  POST: implement(contract.renderTemplate, async ({ request, caller, params, body }) => {
    const template = await getRenderableTemplateOrThrow(caller.accountId, params.id, body.version);
    const checked = checkVariables(template, body.variables);
    if (body.format === "react") {
      const react = await applyVariablesOffThread(caller.accountId, template.code, checked.props, request.signal);
      if (!react.ok) throw errors.renderFailed(react.message);
      // The entry's relative imports need its other files: a template of several files answers them all, the entry's
      // with the variables applied.
      const { files, entry } = template;
      return {
        success: true,
        react: react.source,
        ...(files && entry ? { files: { ...files, [entry]: react.source }, entry } : {}),
        ...(checked.warnings.length > 0 ? { warnings: checked.warnings } : {}),
      };
    }
    // JSON already serialized as the HTML was rendered (a catalogue template's off the event loop): answered as it is.
    const json = await renderTemplateAsJson(
      template,
      checked,
      { accountId: caller.accountId, plainText: body.plain_text, signal: request.signal },
      { success: true },
    );
    return new NextResponse<SuccessBody<typeof contract.renderTemplate>>(json, {
      headers: { "Content-Type": "application/json" },
    });
  }),
});
