import { NextResponse } from "next/server";
import { renderFailedResponse, sandboxBusyResponse } from "@/lib/api/operation";
import { methodNotAllowed, withApiAuth } from "@/lib/api/with-api-auth";
import { errorBodySchema, validationErrorBodySchema } from "@/lib/schemas/common";
import { templateDetailsResponseSchema, templateRequestSchema } from "@/lib/schemas/templates";
import { createTemplateOrThrow } from "@/lib/user-templates";

// POST /api/v1/templates – create a template of your own from its files (compiled and trial-rendered first)
export const POST = withApiAuth(
  {
    metered: true,
    body: templateRequestSchema,
    openapi: {
      operationId: "createTemplate",
      summary: "Create a template of your own from its TSX files; it is added to your library",
      responses: {
        201: {
          description: "Created: the template, as GET /templates/{id} answers it",
          schema: templateDetailsResponseSchema,
        },
        400: {
          description:
            "A bad name, description, path or entry, or a file that does not compile (field `files.<path>`, the message starting with its line and column) or imports what it may not",
          schema: validationErrorBodySchema,
        },
        403: { description: "The free plan's library is full (LIBRARY_LIMIT_REACHED)", schema: errorBodySchema },
        422: { ...renderFailedResponse, description: "The trial render of its PreviewProps failed (RENDER_ERROR)" },
        503: sandboxBusyResponse,
      },
    },
  },
  async ({ caller, body }) =>
    NextResponse.json(
      { success: true, template: await createTemplateOrThrow(caller.accountId, body) },
      { status: 201 },
    ),
);

const otherMethods = methodNotAllowed(["POST"]);
export {
  otherMethods as GET,
  otherMethods as PUT,
  otherMethods as PATCH,
  otherMethods as DELETE,
  otherMethods as OPTIONS,
};
