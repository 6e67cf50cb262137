import { contract } from "@/lib/api/contract";
import { implement, routeHandlers } from "@/lib/api/route";
import { publishedByCaller, restoreTemplateVersionOrThrow } from "@/lib/templates/versions";

// POST /api/v1/templates/{id}/versions/{n}/restore – a version copied into the draft, or published again at once
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers({
  POST: implement(contract.restoreTemplateVersion, ({ caller, params, body }) =>
    restoreTemplateVersionOrThrow(caller.accountId, params.id, params.n, body.publish, publishedByCaller(caller)),
  ),
});
