import { contract } from "@/lib/api/contract";
import { implement, routeHandlers } from "@/lib/api/route";
import { createWebhook, listWebhooks } from "@/lib/webhooks/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers({
  // POST /api/v1/webhooks – add an endpoint; its secret is in this answer only
  POST: implement(contract.createWebhook, async ({ caller, body }) => ({
    success: true,
    webhook: await createWebhook(caller.accountId, body),
  })),
  // GET /api/v1/webhooks – the caller's endpoints, oldest first
  GET: implement(contract.listWebhooks, async ({ caller }) => ({
    success: true,
    webhooks: await listWebhooks(caller.accountId),
  })),
});
