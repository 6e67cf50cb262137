import { contract } from "@/lib/api/contract";
import { renderResponse } from "@/lib/api/render-response";
import { implement, routeHandlers } from "@/lib/api/route";

// POST /api/v1/templates/{id}/render – render a template with variables to HTML (and text) or React source
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers({
  POST: implement(contract.renderTemplate, ({ request, caller, params, body }) =>
    renderResponse(caller.accountId, params.id, body, request.signal),
  ),
});
