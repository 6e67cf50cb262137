import { contract } from "@/lib/api/contract";
import { implement, routeHandlers } from "@/lib/api/route";
import { listAuditLogPage } from "@/lib/audit/service";

// GET /api/v1/audit-log – the team's audit log, newest first; a key has full access, a member's session is refused
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers({
  GET: implement(contract.listAuditLog, async ({ caller, query }) => ({
    success: true,
    ...(await listAuditLogPage(caller.accountId, query)),
  })),
});
