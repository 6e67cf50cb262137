import { methodNotAllowed, withApiAuth } from "@/lib/api/with-api-auth";
import { paginationQuerySchema, validationErrorBodySchema } from "@/lib/schemas/common";
import { listSuppressionsResponseSchema } from "@/lib/schemas/suppressions";
import { listSuppressionsPage } from "@/lib/suppressions";

// GET /api/v1/suppressions – the addresses the caller may not send to (hard bounces and complaints), newest first
export const GET = withApiAuth(
  {
    metered: true,
    query: paginationQuerySchema,
    openapi: {
      operationId: "listSuppressions",
      summary: "List the addresses you may not send to: they hard-bounced or complained",
      responses: {
        200: { description: "A page of your suppressed addresses", schema: listSuppressionsResponseSchema },
        400: { description: "Bad limit or offset", schema: validationErrorBodySchema },
      },
    },
  },
  async ({ caller, query }) => ({ success: true, ...(await listSuppressionsPage(caller.accountId, query)) }),
);

const otherMethods = methodNotAllowed(["GET", "HEAD"]);
export {
  otherMethods as POST,
  otherMethods as PUT,
  otherMethods as PATCH,
  otherMethods as DELETE,
  otherMethods as OPTIONS,
};
