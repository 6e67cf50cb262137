import { contract } from "@/lib/api/contract";
import { implement, routeHandlers } from "@/lib/api/route";
import { listDeliveries } from "@/lib/webhooks/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers({
  // GET /api/v1/webhooks/{id}/deliveries – the endpoint's deliveries, newest first, each with its last attempt
  GET: implement(contract.listWebhookDeliveries, async ({ caller, params, query }) => ({
    success: true,
    ...(await listDeliveries(caller.accountId, params.id, query)),
  })),
});
