import { contract } from "@/lib/api/contract";
import { implement, routeHandlers } from "@/lib/api/route";
import { emailMetrics, foldEmailMetricsSoon } from "@/lib/metrics/service";

// GET /api/v1/metrics – the account's email counts and rates over a range of days, grouped. After the answer, the
// deltas it summed are folded, so the next read has fewer.
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers({
  GET: implement(contract.getMetrics, async ({ caller, query }) => {
    const metrics = await emailMetrics(caller.accountId, query);
    foldEmailMetricsSoon();
    return { success: true, ...metrics };
  }),
});
