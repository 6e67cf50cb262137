import { defineOperation } from "@/lib/api/contract/define";
import { listAuditLogQuerySchema, listAuditLogResponseSchema } from "@/lib/audit/schemas";

export const listAuditLog = defineOperation({
  method: "GET",
  path: "/audit-log",
  operationId: "listAuditLog",
  summary: "Who changed what in your team: keys, domains, webhooks, members, the plan, templates, newest first",
  metered: false,
  adminArea: "audit_log",
  query: listAuditLogQuerySchema,
  success: { status: 200, description: "A page of your team's audit log", schema: listAuditLogResponseSchema },
  errorDescriptions: { VALIDATION_ERROR: "Bad limit, offset or action" },
});
