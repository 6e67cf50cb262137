import { methodNotAllowed, withApiAuth } from "@/lib/api/with-api-auth";
import { errorBodySchema, uuidSchema } from "@/lib/schemas/common";
import { templateDetailsResponseSchema } from "@/lib/schemas/templates";
import { getTemplateDetailsOrThrow } from "@/lib/template-details";

// GET /api/v1/templates/{id} – a template's details and variables schema, from your library or the public catalogue
export const GET = withApiAuth(
  {
    metered: false,
    openapi: {
      operationId: "getTemplate",
      summary: "A template's details, the variables it takes (JSON Schema) and sample variables that render",
      pathParameters: { id: uuidSchema },
      responses: {
        200: { description: "The template", schema: templateDetailsResponseSchema },
        404: {
          description: "Neither in your library nor in the public catalogue (TEMPLATE_NOT_FOUND)",
          schema: errorBodySchema,
        },
      },
    },
  },
  async ({ caller, params }) => ({
    success: true,
    template: await getTemplateDetailsOrThrow(caller.accountId, params.id),
  }),
);

const otherMethods = methodNotAllowed(["GET", "HEAD"]);
export {
  otherMethods as POST,
  otherMethods as PUT,
  otherMethods as PATCH,
  otherMethods as DELETE,
  otherMethods as OPTIONS,
};
