import { contract } from "@/lib/api/contract";
import { implement, routeHandlers } from "@/lib/api/route";
import { getTemplateDetailsOrThrow } from "@/lib/template-details";
import { deleteTemplateOrThrow, replaceTemplateOrThrow } from "@/lib/user-templates";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers({
  // GET /api/v1/templates/{id} – a template's details and variables schema, from your library or the public catalogue
  GET: implement(contract.getTemplate, async ({ caller, params }) => ({
    success: true,
    template: await getTemplateDetailsOrThrow(caller.accountId, params.id),
  })),
  // PUT /api/v1/templates/{id} – replace the files, name and description of a template you created
  PUT: implement(contract.replaceTemplate, async ({ caller, params, body }) => ({
    success: true,
    template: await replaceTemplateOrThrow(caller.accountId, params.id, body),
  })),
  // DELETE /api/v1/templates/{id} – delete a template you created, and its library entry
  DELETE: implement(contract.deleteTemplate, async ({ caller, params }) => {
    await deleteTemplateOrThrow(caller.accountId, params.id);
    return { success: true };
  }),
});
