import { defineOperation, PAGINATED } from "@/lib/api/contract/define";
import { libraryResponseSchema } from "@/lib/schemas/library";

export const listLibrary = defineOperation({
  method: "GET",
  path: "/library",
  operationId: "listLibrary",
  summary: "List the templates in your library, newest addition first",
  metered: true,
  ...PAGINATED,
  success: { status: 200, description: "A page of your library", schema: libraryResponseSchema },
});
