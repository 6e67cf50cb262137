import { contract } from "@/lib/api/contract";
import { implement, routeHandlers } from "@/lib/api/route";
import { getTemplateVersionOrThrow } from "@/lib/templates/versions";

// GET /api/v1/templates/{id}/versions/{n} – one version of a template, with its files
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers({
  GET: implement(contract.getTemplateVersion, ({ caller, params }) =>
    getTemplateVersionOrThrow(caller.accountId, params.id, params.n),
  ),
});
