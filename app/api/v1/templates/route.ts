import { contract } from "@/lib/api/contract";
import { implement, routeHandlers } from "@/lib/api/route";
import { publishedByCaller } from "@/lib/templates/versions";
import { createTemplateOrThrow } from "@/lib/templates/user-templates";

// POST /api/v1/templates – create a template of your own from its files (compiled and trial-rendered first)
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers({
  POST: implement(contract.createTemplate, async ({ caller, body }) => ({
    success: true,
    ...(await createTemplateOrThrow(caller.accountId, { ...body, publishedBy: publishedByCaller(caller) })),
  })),
});
