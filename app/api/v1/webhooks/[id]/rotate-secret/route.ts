import { contract } from "@/lib/api/contract";
import { implement, routeHandlers } from "@/lib/api/route";
import { rotateWebhookSecret } from "@/lib/webhooks/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers({
  // POST /api/v1/webhooks/{id}/rotate-secret – a new secret, shown this once; the old one signs too for 24 hours
  POST: implement(contract.rotateWebhookSecret, async ({ caller, params }) => ({
    success: true,
    webhook: await rotateWebhookSecret(caller.accountId, params.id),
  })),
});
