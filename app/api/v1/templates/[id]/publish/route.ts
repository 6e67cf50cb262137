import { contract } from "@/lib/api/contract";
import { implement, routeHandlers } from "@/lib/api/route";
import { publishedByCaller, publishTemplateOrThrow } from "@/lib/templates/versions";

// POST /api/v1/templates/{id}/publish – the draft becomes the next version (checked against a revision when named)
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers({
  POST: implement(contract.publishTemplate, ({ caller, params, body }) =>
    publishTemplateOrThrow(caller.accountId, params.id, body.revision, publishedByCaller(caller)),
  ),
});
