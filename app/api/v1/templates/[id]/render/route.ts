import { errors } from "@/lib/errors";
import { methodNotAllowed, withApiAuth } from "@/lib/api/with-api-auth";
import { getRenderableTemplateOrThrow } from "@/lib/render/access";
import { checkVariables, renderTemplateAsJson } from "@/lib/render";
import { applyVariablesOffThread } from "@/lib/render/sandbox/compile-pool";
import { renderFailedResponse, sandboxBusyResponse } from "@/lib/api/operation";
import { errorBodySchema, uuidSchema, validationErrorBodySchema } from "@/lib/schemas/common";
import { accessDeniedBodySchema, renderRequestSchema, renderResponseSchema } from "@/lib/schemas/templates";

// POST /api/v1/templates/{id}/render – render a template with variables to HTML (and text) or React source
export const POST = withApiAuth(
  {
    metered: true,
    notFound: errors.templateNotFound,
    body: renderRequestSchema,
    openapi: {
      operationId: "renderTemplate",
      summary: "Render a template with variables to HTML (and plain text) or to React source",
      pathParameters: { id: uuidSchema },
      responses: {
        200: { description: "The rendered template", schema: renderResponseSchema },
        400: { description: "Bad variables, format or plain_text", schema: validationErrorBodySchema },
        403: { description: "A paid catalogue template you have not purchased", schema: accessDeniedBodySchema },
        404: { description: "No such template you may render (TEMPLATE_NOT_FOUND)", schema: errorBodySchema },
        422: renderFailedResponse,
        503: sandboxBusyResponse,
      },
    },
  },
  async ({ request, caller, params, body }) => {
    const template = await getRenderableTemplateOrThrow(caller.accountId, params.id);
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
    const json = await renderTemplateAsJson(
      template,
      checked,
      { accountId: caller.accountId, plainText: body.plain_text, signal: request.signal },
      { success: true },
    );
    return new Response(json, { headers: { "Content-Type": "application/json" } });
  },
);

const otherMethods = methodNotAllowed(["POST"]);
export {
  otherMethods as GET,
  otherMethods as PUT,
  otherMethods as PATCH,
  otherMethods as DELETE,
  otherMethods as OPTIONS,
};
