import { methodNotAllowed, withApiAuth } from "@/lib/api/with-api-auth";
import { libraryPageJsonSql, type LibraryPage } from "@/lib/db/templates";
import { paginationQuerySchema } from "@/lib/schemas/common";

// GET /api/v1/library – list the caller's templates, newest addition first
export const GET = withApiAuth(
  {
    metered: true,
    query: paginationQuerySchema,
    preload: ({ query }) => ({
      sql: libraryPageJsonSql("caller.account_id", query.limit, query.offset),
      parse: (page) => page as LibraryPage,
    }),
  },
  async ({ query, preloaded: { templates, total } }) => {
    return { success: true, templates, pagination: { limit: query.limit, offset: query.offset, total } };
  },
);

const otherMethods = methodNotAllowed(["GET", "HEAD"]);
export { otherMethods as POST, otherMethods as PUT, otherMethods as PATCH, otherMethods as DELETE, otherMethods as OPTIONS };
