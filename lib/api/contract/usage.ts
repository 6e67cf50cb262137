import { defineOperation } from "@/lib/api/contract/define";
import { usageResponseSchema } from "@/lib/usage/schemas";

export const getUsage = defineOperation({
  method: "GET",
  path: "/usage",
  operationId: "getUsage",
  summary: "API calls and emails this month against your plan's limits",
  metered: false,
  sendingAccess: true,
  success: { status: 200, description: "Current usage", schema: usageResponseSchema },
});
