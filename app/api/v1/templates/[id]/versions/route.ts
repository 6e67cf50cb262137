import { contract } from "@/lib/api/contract";
import { implement, routeHandlers } from "@/lib/api/route";
import { listTemplateVersionsOrThrow } from "@/lib/templates/versions";

// GET /api/v1/templates/{id}/versions – a page of a template's versions, newest first, and its draft
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers({
  GET: implement(contract.listTemplateVersions, ({ caller, params, query }) =>
    listTemplateVersionsOrThrow(caller.accountId, params.id, query.limit, query.offset),
  ),
});
