import { contract } from "@/lib/api/contract";
import { implementForAdmins, routeHandlers } from "@/lib/api/route";
import { sendTestEvent } from "@/lib/webhooks/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers({
  // POST /api/v1/webhooks/{id}/test – a webhook.test event, attempted once now; answers what came of it
  POST: implementForAdmins("webhooks", contract.testWebhook, async ({ caller, params }) => ({
    success: true,
    delivery: await sendTestEvent(caller.accountId, params.id),
  })),
});
