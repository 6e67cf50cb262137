import { methodNotAllowed, withApiAuth } from "@/lib/api/with-api-auth";
import { listEmailsPage } from "@/lib/emails";
import { validationErrorBodySchema } from "@/lib/schemas/common";
import { listEmailsQuerySchema, listEmailsResponseSchema } from "@/lib/schemas/emails";

// GET /api/v1/emails – list the caller's emails with their status, newest first, optionally of one status
export const GET = withApiAuth(
  {
    metered: true,
    sendingAccess: true,
    query: listEmailsQuerySchema,
    openapi: {
      operationId: "listEmails",
      summary: "List your emails and their status, newest first",
      responses: {
        200: { description: "A page of your emails", schema: listEmailsResponseSchema },
        400: { description: "Bad limit, offset or status", schema: validationErrorBodySchema },
      },
    },
  },
  async ({ caller, query }) => ({ success: true, ...(await listEmailsPage(caller.accountId, query)) }),
);

const otherMethods = methodNotAllowed(["GET", "HEAD"]);
export {
  otherMethods as POST,
  otherMethods as PUT,
  otherMethods as PATCH,
  otherMethods as DELETE,
  otherMethods as OPTIONS,
};
