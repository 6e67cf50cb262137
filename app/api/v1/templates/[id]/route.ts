import { contract } from "@/lib/api/contract";
import { implement, routeHandlers } from "@/lib/api/route";
import { getTemplateDetailsOrThrow } from "@/lib/templates/details";
import { publishedByCaller } from "@/lib/templates/versions";
import { deleteTemplateOrThrow, replaceTemplateOrThrow, setTemplateAliasOrThrow } from "@/lib/templates/user-templates";

// {id} is a template's id or alias (lib/templates/data/templates.ts `templateIdSql`), as on every path under it.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers({
  // GET /api/v1/templates/{id} – a template's details and variables schema, from your library or the public catalogue
  GET: implement(contract.getTemplate, async ({ caller, params }) => ({
    success: true,
    template: await getTemplateDetailsOrThrow(caller.accountId, params.id),
  })),
  // PUT /api/v1/templates/{id} – replace the files, name and description of a template you created
  PUT: implement(contract.replaceTemplate, async ({ caller, params, body }) => ({
    success: true,
    ...(await replaceTemplateOrThrow(caller.accountId, params.id, { ...body, publishedBy: publishedByCaller(caller) })),
  })),
  // PATCH /api/v1/templates/{id} – set or clear the alias of a template you created
  PATCH: implement(contract.setTemplateAlias, async ({ caller, params, body }) => ({
    success: true,
    template: await setTemplateAliasOrThrow(caller.accountId, params.id, body.alias),
  })),
  // DELETE /api/v1/templates/{id} – delete a template you created, and its library entry
  DELETE: implement(contract.deleteTemplate, async ({ caller, params }) => {
    await deleteTemplateOrThrow(caller.accountId, params.id);
    return { success: true };
  }),
});
