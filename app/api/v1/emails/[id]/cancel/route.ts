import { contract } from "@/lib/api/contract";
import { implement, routeHandlers } from "@/lib/api/route";
import { cancelEmailOrThrow } from "@/lib/sent-emails/service";

// POST /api/v1/emails/{id}/cancel – cancel a scheduled email; it no longer counts toward the month's emails
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers({
  POST: implement(contract.cancelEmail, async ({ caller, params }) => ({
    success: true,
    email: await cancelEmailOrThrow(caller.accountId, params.id),
  })),
});
