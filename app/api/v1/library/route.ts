import { contract } from "@/lib/api/contract";
import { implement, routeHandlers } from "@/lib/api/route";
import { listLibrary } from "@/lib/db/templates";

// GET /api/v1/library – list the caller's templates, newest addition first
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers({
  GET: implement(contract.listLibrary, async ({ caller, query }) => {
    const { templates, total } = await listLibrary(caller.accountId, query.limit, query.offset);
    return { success: true, templates, pagination: { limit: query.limit, offset: query.offset, total } };
  }),
});
