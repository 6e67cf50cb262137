import { contract } from "@/lib/api/contract";
import { implement, routeHandlers } from "@/lib/api/route";
import { emailMetrics } from "@/lib/metrics/service";

// GET /api/v1/metrics – the account's email counts and rates over a range of days, grouped
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers({
  GET: implement(contract.getMetrics, async ({ caller, query }) => ({
    success: true,
    ...(await emailMetrics(caller.accountId, query)),
  })),
});
