import { errors } from "@/lib/errors";
import { methodNotAllowed, withApiAuth } from "@/lib/api/with-api-auth";
import { findLibraryTemplate } from "@/lib/db/templates";
import { errorBodySchema, uuidSchema } from "@/lib/schemas/common";
import { templateSourceResponseSchema } from "@/lib/schemas/templates";

// GET /api/v1/templates/{id}/source – the React Email source of a template in the caller's library
export const GET = withApiAuth(
  {
    metered: false,
    notFound: errors.templateNotFound,
    openapi: {
      operationId: "getTemplateSource",
      summary: "Download the React Email source of a template in your library",
      pathParameters: { id: uuidSchema },
      responses: {
        200: { description: "The template's source", schema: templateSourceResponseSchema },
        404: { description: "Not in your library (TEMPLATE_NOT_FOUND)", schema: errorBodySchema },
      },
    },
  },
  async ({ caller, params }) => {
    if (!uuidSchema.safeParse(params.id).success) throw errors.templateNotFound();
    const template = await findLibraryTemplate(caller.accountId, params.id);
    if (!template) throw errors.templateNotFound();
    const { name, description, code, files, entry } = template;
    return { success: true, source: { name, description, code, ...(files && entry ? { files, entry } : {}) } };
  },
);

const otherMethods = methodNotAllowed(["GET", "HEAD"]);
export {
  otherMethods as POST,
  otherMethods as PUT,
  otherMethods as PATCH,
  otherMethods as DELETE,
  otherMethods as OPTIONS,
};
