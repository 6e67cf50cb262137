import { contract } from "@/lib/api/contract";
import { implement, routeHandlers } from "@/lib/api/route";
import { domainBody, verifyDomain } from "@/lib/sending-domains/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers({
  // POST /api/v1/domains/{id}/verify – check its DNS records again
  POST: implement(contract.verifyDomain, async ({ caller, params }) => ({
    success: true,
    domain: domainBody((await verifyDomain(caller.accountId, params.id)).domain),
  })),
});
