import { contract } from "@/lib/api/contract";
import { implement, routeHandlers } from "@/lib/api/route";
import { findLibraryTemplate } from "@/lib/db/templates";
import { errors } from "@/lib/errors";

// GET /api/v1/templates/{id}/source – the React Email source of a template in the caller's library
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers({
  GET: implement(contract.getTemplateSource, async ({ caller, params }) => {
    const template = await findLibraryTemplate(caller.accountId, params.id);
    if (!template) throw errors.templateNotFound();
    const { name, description, code, files, entry } = template;
    return { success: true, source: { name, description, code, ...(files && entry ? { files, entry } : {}) } };
  }),
});
