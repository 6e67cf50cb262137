import { contract } from "@/lib/api/contract";
import { implement, routeHandlers } from "@/lib/api/route";
import {
  domainBody,
  getDomain,
  refusedAsField,
  removeSendingDomain,
  updateDomain,
} from "@/lib/sending-domains/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers({
  // GET /api/v1/domains/{id} – one of the caller's domains
  GET: implement(contract.getDomain, async ({ caller, params }) => ({
    success: true,
    domain: domainBody(await getDomain(caller.accountId, params.id)),
  })),
  // PATCH /api/v1/domains/{id} – tracking switches and the default sender
  PATCH: implement(contract.updateDomain, async ({ caller, params, body }) => ({
    success: true,
    domain: domainBody(await refusedAsField("default_sender", updateDomain(caller.accountId, params.id, body))),
  })),
  // DELETE /api/v1/domains/{id} – the domain, here and at Resend
  DELETE: implement(contract.deleteDomain, async ({ caller, params }) => {
    await removeSendingDomain(caller.accountId, params.id);
    return { success: true };
  }),
});
