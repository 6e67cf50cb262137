import { contract } from "@/lib/api/contract";
import { implement, routeHandlers } from "@/lib/api/route";
import { listEmailsPage } from "@/lib/sent-emails/service";

// GET /api/v1/emails – list the caller's emails with their status, newest first, optionally of one status
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers({
  GET: implement(contract.listEmails, async ({ caller, query }) => ({
    success: true,
    ...(await listEmailsPage(caller.accountId, query)),
  })),
});
