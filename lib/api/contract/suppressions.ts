import { z } from "zod";
import { defineOperation, PAGINATED } from "@/lib/api/contract/define";
import { MAX_ADDRESS_LENGTH } from "@/lib/core/limits";
import { deleteSuppressionResponseSchema, listSuppressionsResponseSchema } from "@/lib/suppressions/schemas";

export const listSuppressions = defineOperation({
  method: "GET",
  path: "/suppressions",
  operationId: "listSuppressions",
  summary: "List the addresses you may not send to: they hard-bounced or complained",
  metered: true,
  ...PAGINATED,
  success: { status: 200, description: "A page of your suppressed addresses", schema: listSuppressionsResponseSchema },
});

export const deleteSuppression = defineOperation({
  method: "DELETE",
  path: "/suppressions/{email}",
  operationId: "deleteSuppression",
  summary: "Remove an address from your suppressions, so you can send to it again",
  metered: true,
  pathParameters: {
    email: z.string().max(MAX_ADDRESS_LENGTH).meta({ description: "The address (any case), URL-encoded" }),
  },
  notFound: "SUPPRESSION_NOT_FOUND",
  success: { status: 200, description: "Removed", schema: deleteSuppressionResponseSchema },
  errors: ["SUPPRESSION_NOT_FOUND"],
  errorDescriptions: { SUPPRESSION_NOT_FOUND: "The address is not suppressed" },
});
