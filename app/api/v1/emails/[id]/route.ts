import { z } from "zod";
import { errors } from "@/lib/errors";
import { methodNotAllowed, withApiAuth } from "@/lib/api/with-api-auth";
import { getEmailOrThrow } from "@/lib/emails";
import { errorBodySchema } from "@/lib/schemas/common";
import { emailResponseSchema } from "@/lib/schemas/emails";

// GET /api/v1/emails/{id} – one of the caller's emails, by the id POST /send answered with, and its delivery events
export const GET = withApiAuth(
  {
    metered: true,
    notFound: errors.emailNotFound,
    sendingAccess: true,
    openapi: {
      operationId: "getEmail",
      summary: "An email you sent, its status and its delivery events",
      pathParameters: {
        id: z.string().max(256).meta({ description: "The id POST /send answered with (data.id)" }),
      },
      responses: {
        200: { description: "The email", schema: emailResponseSchema },
        404: { description: "Not one of your emails (EMAIL_NOT_FOUND)", schema: errorBodySchema },
      },
    },
  },
  async ({ caller, params }) => ({ success: true, email: await getEmailOrThrow(caller.accountId, params.id) }),
);

const otherMethods = methodNotAllowed(["GET", "HEAD"]);
export {
  otherMethods as POST,
  otherMethods as PUT,
  otherMethods as PATCH,
  otherMethods as DELETE,
  otherMethods as OPTIONS,
};
