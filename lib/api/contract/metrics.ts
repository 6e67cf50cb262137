import { defineOperation } from "@/lib/api/contract/define";
import { metricsQuerySchema, metricsResponseSchema } from "@/lib/metrics/schemas";

export const getMetrics = defineOperation({
  method: "GET",
  path: "/metrics",
  operationId: "getMetrics",
  summary:
    "Your emails' sends, deliveries, bounces, complaints, opens and clicks, with their rates, by day, template, tag or domain",
  metered: true,
  query: metricsQuerySchema,
  success: { status: 200, description: "The range's counts and rates", schema: metricsResponseSchema },
  errorDescriptions: {
    VALIDATION_ERROR: "Bad from, to (past 366 days, or before from), group_by, template_id, tag or test",
  },
});
