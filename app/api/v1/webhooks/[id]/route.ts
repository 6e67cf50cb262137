import { contract } from "@/lib/api/contract";
import { implement, routeHandlers } from "@/lib/api/route";
import { deleteWebhook, getWebhook, updateWebhook } from "@/lib/webhooks/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers({
  // GET /api/v1/webhooks/{id} – one of the caller's endpoints, without its secret
  GET: implement(contract.getWebhook, async ({ caller, params }) => ({
    success: true,
    webhook: await getWebhook(caller.accountId, params.id),
  })),
  // PATCH /api/v1/webhooks/{id} – change its url, events or description, or disable and enable it
  PATCH: implement(contract.updateWebhook, async ({ caller, params, body }) => ({
    success: true,
    webhook: await updateWebhook(caller.accountId, params.id, body),
  })),
  // DELETE /api/v1/webhooks/{id} – the endpoint and its delivery log
  DELETE: implement(contract.deleteWebhook, async ({ caller, params }) => {
    await deleteWebhook(caller.accountId, params.id);
    return { success: true };
  }),
});
