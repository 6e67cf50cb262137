import { contract } from "@/lib/api/contract";
import { implement, routeHandlers } from "@/lib/api/route";
import { addDomain, domainBody, listSendingDomainDetails, refusedAsField } from "@/lib/sending-domains/service";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeHandlers({
  // GET /api/v1/domains – the caller's sending domains, oldest first
  GET: implement(contract.listDomains, async ({ caller }) => ({
    success: true,
    domains: (await listSendingDomainDetails(caller.accountId)).map(domainBody),
  })),
  // POST /api/v1/domains – add a domain; the answer has the DNS records to publish
  POST: implement(contract.createDomain, async ({ caller, body }) => ({
    success: true,
    domain: domainBody((await refusedAsField("name", addDomain(caller.accountId, { domain: body.name }))).domain),
  })),
});
