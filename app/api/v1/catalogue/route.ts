import { contract } from "@/lib/api/contract";
import { implement, routeHandlers } from "@/lib/api/route";
import { listCataloguePage } from "@/lib/db/templates";

// GET /api/v1/catalogue – the public catalogue, free templates first, each saying whether it is in the caller's library
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers({
  GET: implement(contract.listCatalogue, async ({ caller, query }) => {
    const { templates, total } = await listCataloguePage(caller.accountId, query.limit, query.offset, query.category);
    return { success: true, templates, pagination: { limit: query.limit, offset: query.offset, total } };
  }),
});
