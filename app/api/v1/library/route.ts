import { methodNotAllowed, withApiAuth } from "@/lib/api/with-api-auth";
import { listLibrary } from "@/lib/db/templates";
import { paginationQuerySchema, validationErrorBodySchema } from "@/lib/schemas/common";
import { libraryResponseSchema } from "@/lib/schemas/library";

// GET /api/v1/library – list the caller's templates, newest addition first
export const GET = withApiAuth(
  {
    metered: true,
    query: paginationQuerySchema,
    openapi: {
      operationId: "listLibrary",
      summary: "List the templates in your library, newest addition first",
      responses: {
        200: { description: "A page of your library", schema: libraryResponseSchema },
        400: { description: "Bad limit or offset", schema: validationErrorBodySchema },
      },
    },
  },
  async ({ caller, query }) => {
    const { templates, total } = await listLibrary(caller.accountId, query.limit, query.offset);
    return { success: true, templates, pagination: { limit: query.limit, offset: query.offset, total } };
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
