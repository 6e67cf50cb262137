import { contract } from "@/lib/api/contract";
import { implement, routeHandlers } from "@/lib/api/route";
import { replayDelivery } from "@/lib/webhooks/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers({
  // POST /api/v1/webhooks/{id}/deliveries/{delivery_id}/replay – the same event delivered again, attempted at once
  POST: implement(contract.replayWebhookDelivery, async ({ caller, params }) => ({
    success: true,
    delivery: await replayDelivery(caller.accountId, params.id, params.delivery_id),
  })),
});
