import { defineOperation } from "@/lib/api/contract/define";
import { catalogueQuerySchema, catalogueResponseSchema } from "@/lib/catalogue/schemas";

export const listCatalogue = defineOperation({
  method: "GET",
  path: "/catalogue",
  operationId: "listCatalogue",
  summary: "List the public catalogue, free templates first, saying which are in your library",
  metered: true,
  query: catalogueQuerySchema,
  errorDescriptions: { VALIDATION_ERROR: "Bad limit, offset or category" },
  success: { status: 200, description: "A page of the catalogue", schema: catalogueResponseSchema },
});
