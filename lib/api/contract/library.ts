import { defineOperation } from "@/lib/api/contract/define";
import { paginationQuerySchema } from "@/lib/schemas/common";
import { libraryResponseSchema } from "@/lib/schemas/library";

export const listLibrary = defineOperation({
  method: "GET",
  path: "/library",
  operationId: "listLibrary",
  summary: "List the templates in your library, newest addition first",
  metered: true,
  query: paginationQuerySchema,
  success: { status: 200, description: "A page of your library", schema: libraryResponseSchema },
  errors: [],
  errorDescriptions: { VALIDATION_ERROR: "Bad limit or offset" },
});
