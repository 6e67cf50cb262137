import { contract } from "@/lib/api/contract";
import { implement, routeHandlers } from "@/lib/api/route";
import { deleteComponent, getComponent, updateComponent } from "@/lib/components/service";
import { publishedByCaller } from "@/lib/templates/versions";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers({
  // GET /api/v1/components/{name} – one of the caller's components, at its current version
  GET: implement(contract.getComponent, async ({ caller, params }) => ({
    success: true,
    component: await getComponent(caller.accountId, params.name),
  })),
  // PUT /api/v1/components/{name} – its next version
  PUT: implement(contract.updateComponent, async ({ caller, params, body }) => ({
    success: true,
    ...(await updateComponent(caller.accountId, params.name, body, publishedByCaller(caller))),
  })),
  // DELETE /api/v1/components/{name} – unless a template imports it
  DELETE: implement(contract.deleteComponent, async ({ caller, params }) => {
    await deleteComponent(caller.accountId, params.name);
    return { success: true };
  }),
});
