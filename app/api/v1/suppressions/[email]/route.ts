import { z } from "zod";
import { errors } from "@/lib/errors";
import { methodNotAllowed, withApiAuth } from "@/lib/api/with-api-auth";
import { MAX_ADDRESS_LENGTH } from "@/lib/limits";
import { errorBodySchema } from "@/lib/schemas/common";
import { deleteSuppressionResponseSchema } from "@/lib/schemas/suppressions";
import { removeSuppressionOrThrow } from "@/lib/suppressions";

// DELETE /api/v1/suppressions/{email} – let the caller send to a suppressed address again
export const DELETE = withApiAuth(
  {
    metered: true,
    notFound: errors.suppressionNotFound,
    openapi: {
      operationId: "deleteSuppression",
      summary: "Remove an address from your suppressions, so you can send to it again",
      pathParameters: {
        email: z.string().max(MAX_ADDRESS_LENGTH).meta({ description: "The address (any case), URL-encoded" }),
      },
      responses: {
        200: { description: "Removed", schema: deleteSuppressionResponseSchema },
        404: { description: "The address is not suppressed (SUPPRESSION_NOT_FOUND)", schema: errorBodySchema },
      },
    },
  },
  async ({ caller, params }) => ({
    success: true,
    suppression: await removeSuppressionOrThrow(caller.accountId, params.email),
  }),
);

const otherMethods = methodNotAllowed(["DELETE"]);
export {
  otherMethods as GET,
  otherMethods as POST,
  otherMethods as PUT,
  otherMethods as PATCH,
  otherMethods as OPTIONS,
};
