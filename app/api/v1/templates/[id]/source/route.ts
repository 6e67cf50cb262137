import { contract } from "@/lib/api/contract";
import { implement, routeHandlers } from "@/lib/api/route";
import { getTemplateSourceOrThrow } from "@/lib/templates/details";

// GET /api/v1/templates/{id}/source – the React Email source of a template in the caller's library
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers({
  GET: implement(contract.getTemplateSource, async ({ caller, params }) => ({
    success: true,
    source: await getTemplateSourceOrThrow(caller.accountId, params.id),
  })),
});
