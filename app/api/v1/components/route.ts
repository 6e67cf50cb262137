import { contract } from "@/lib/api/contract";
import { implement, routeHandlers } from "@/lib/api/route";
import { createComponent, listComponents } from "@/lib/components/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers({
  // POST /api/v1/components – add a shared component, as its version 1
  POST: implement(contract.createComponent, async ({ caller, body }) => ({
    success: true,
    component: await createComponent(caller.accountId, body),
  })),
  // GET /api/v1/components – the caller's components, by name
  GET: implement(contract.listComponents, async ({ caller }) => ({
    success: true,
    components: await listComponents(caller.accountId),
  })),
});
