import { contract } from "@/lib/api/contract";
import { implement, routeHandlers } from "@/lib/api/route";
import { usageReport } from "@/lib/usage/service";

// GET /api/v1/usage – API calls and emails this month against the plan's limits
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers({
  GET: implement(contract.getUsage, async ({ caller }) => ({ success: true, ...(await usageReport(caller)) })),
});
