import { contract } from "@/lib/api/contract";
import { implement, routeHandlers } from "@/lib/api/route";
import { renderAnswer } from "@/lib/render/answer";

// POST /api/v1/templates/{id}/render – render a template with variables to HTML (and text) or React source
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers({
  POST: implement(contract.renderTemplate, ({ request, caller, params, body }) =>
    renderAnswer(caller.accountId, params.id, body, request.signal),
  ),
});
