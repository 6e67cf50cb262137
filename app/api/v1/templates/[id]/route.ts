import { errors } from "@/lib/errors";
import { renderFailedResponse, sandboxBusyResponse } from "@/lib/api/operation";
import { methodNotAllowed, withApiAuth } from "@/lib/api/with-api-auth";
import { errorBodySchema, uuidSchema, validationErrorBodySchema } from "@/lib/schemas/common";
import {
  deleteTemplateResponseSchema,
  templateDetailsResponseSchema,
  templateRequestSchema,
} from "@/lib/schemas/templates";
import { getTemplateDetailsOrThrow } from "@/lib/template-details";
import { deleteTemplateOrThrow, replaceTemplateOrThrow } from "@/lib/user-templates";

// GET /api/v1/templates/{id} – a template's details and variables schema, from your library or the public catalogue
export const GET = withApiAuth(
  {
    metered: false,
    notFound: errors.templateNotFound,
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

// PUT /api/v1/templates/{id} – replace the files, name and description of a template you created
export const PUT = withApiAuth(
  {
    metered: true,
    notFound: errors.templateNotFound,
    body: templateRequestSchema,
    openapi: {
      operationId: "replaceTemplate",
      summary: "Replace the files, name and description of a template you created (checked as on creation)",
      pathParameters: { id: uuidSchema },
      responses: {
        200: { description: "The template as it is now", schema: templateDetailsResponseSchema },
        400: {
          description:
            "As for POST /templates: a bad field, or a file that does not compile or imports what it may not",
          schema: validationErrorBodySchema,
        },
        404: { description: "Not a template you created (TEMPLATE_NOT_FOUND)", schema: errorBodySchema },
        422: { ...renderFailedResponse, description: "The trial render of its PreviewProps failed (RENDER_ERROR)" },
        503: sandboxBusyResponse,
      },
    },
  },
  async ({ caller, params, body }) => ({
    success: true,
    template: await replaceTemplateOrThrow(caller.accountId, params.id, body),
  }),
);

// DELETE /api/v1/templates/{id} – delete a template you created, and its library entry
export const DELETE = withApiAuth(
  {
    metered: true,
    notFound: errors.templateNotFound,
    openapi: {
      operationId: "deleteTemplate",
      summary: "Delete a template you created; it leaves your library",
      pathParameters: { id: uuidSchema },
      responses: {
        200: { description: "Deleted", schema: deleteTemplateResponseSchema },
        404: { description: "Not a template you created (TEMPLATE_NOT_FOUND)", schema: errorBodySchema },
      },
    },
  },
  async ({ caller, params }) => {
    await deleteTemplateOrThrow(caller.accountId, params.id);
    return { success: true };
  },
);

const otherMethods = methodNotAllowed(["GET", "HEAD", "PUT", "DELETE"]);
export { otherMethods as POST, otherMethods as PATCH, otherMethods as OPTIONS };
