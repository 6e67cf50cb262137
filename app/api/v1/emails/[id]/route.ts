import { contract } from "@/lib/api/contract";
import { implement, routeHandlers } from "@/lib/api/route";
import { getEmailOrThrow } from "@/lib/sent-emails/service";

// GET /api/v1/emails/{id} – one of the caller's emails, by the id POST /send answered with, and its delivery events
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers({
  GET: implement(contract.getEmail, async ({ caller, params }) => ({
    success: true,
    email: await getEmailOrThrow(caller.accountId, params.id),
  })),
});
