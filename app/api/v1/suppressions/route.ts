import { contract } from "@/lib/api/contract";
import { implement, routeHandlers } from "@/lib/api/route";
import { listSuppressionsPage } from "@/lib/suppressions/service";

// GET /api/v1/suppressions – the addresses the caller may not send to (hard bounces and complaints), newest first
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers({
  GET: implement(contract.listSuppressions, async ({ caller, query }) => ({
    success: true,
    ...(await listSuppressionsPage(caller.accountId, query)),
  })),
});
