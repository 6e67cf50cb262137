import { contract } from "@/lib/api/contract";
import { implement, routeHandlers } from "@/lib/api/route";
import { listCatalogueTemplatesPage } from "@/lib/catalogue/library";

// GET /api/v1/catalogue – the public catalogue, free templates first, each saying whether it is in the caller's library
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers({
  GET: implement(contract.listCatalogue, async ({ caller, query }) => ({
    success: true,
    ...(await listCatalogueTemplatesPage(caller.accountId, query)),
  })),
});
