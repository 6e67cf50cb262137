import { z } from "zod";
import { errors } from "@/lib/errors";
import { methodNotAllowed, withApiAuth } from "@/lib/api/with-api-auth";
import { cancelEmailOrThrow } from "@/lib/emails";
import { errorBodySchema } from "@/lib/schemas/common";
import { emailResponseSchema } from "@/lib/schemas/emails";

// POST /api/v1/emails/{id}/cancel – cancel a scheduled email; it no longer counts toward the month's emails
export const POST = withApiAuth(
  {
    metered: true,
    notFound: errors.emailNotFound,
    sendingAccess: true,
    openapi: {
      operationId: "cancelEmail",
      summary: "Cancel a scheduled email; it no longer counts toward your monthly emails",
      pathParameters: {
        id: z.string().max(256).meta({ description: "The id POST /send answered with (data.id)" }),
      },
      responses: {
        200: { description: "Canceled: the email, now with status canceled", schema: emailResponseSchema },
        404: { description: "Not one of your emails (EMAIL_NOT_FOUND)", schema: errorBodySchema },
        409: { description: "The email is not scheduled (EMAIL_NOT_CANCELABLE)", schema: errorBodySchema },
        502: { description: "The email provider did not cancel it; nothing changed", schema: errorBodySchema },
      },
    },
  },
  async ({ caller, params }) => ({ success: true, email: await cancelEmailOrThrow(caller.accountId, params.id) }),
);

const otherMethods = methodNotAllowed(["POST"]);
export {
  otherMethods as GET,
  otherMethods as PUT,
  otherMethods as PATCH,
  otherMethods as DELETE,
  otherMethods as OPTIONS,
};
