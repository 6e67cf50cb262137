import { contract } from "@/lib/api/contract";
import { implement, routeHandlers } from "@/lib/api/route";
import { sendTestEvent } from "@/lib/webhooks/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers({
  // POST /api/v1/webhooks/{id}/test – a webhook.test event, attempted once now; answers what came of it
  POST: implement(contract.testWebhook, async ({ caller, params }) => ({
    success: true,
    delivery: await sendTestEvent(caller.accountId, params.id),
  })),
});
