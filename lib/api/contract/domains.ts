import { z } from "zod";
import { defineOperation } from "@/lib/api/contract/define";
import { MAX_SENDING_DOMAINS } from "@/lib/core/limits";
import {
  createDomainBodySchema,
  deleteDomainResponseSchema,
  domainResponseSchema,
  listDomainsResponseSchema,
  updateDomainBodySchema,
} from "@/lib/sending-domains/schemas";

/** A domain named by its id in the path. */
const BY_DOMAIN_ID = {
  pathParameters: { id: z.string().max(64).meta({ description: "The domain's id" }) },
  notFound: "DOMAIN_NOT_FOUND",
} as const;

const NOT_YOURS = { DOMAIN_NOT_FOUND: "Not one of your sending domains" } as const;
const PROVIDER = "Resend could not be reached, or refused: nothing was changed";

export const listDomains = defineOperation({
  method: "GET",
  path: "/domains",
  operationId: "listDomains",
  summary: "List your sending domains, oldest first",
  metered: true,
  adminArea: "domains",
  success: { status: 200, description: "Your sending domains", schema: listDomainsResponseSchema },
});

export const createDomain = defineOperation({
  method: "POST",
  path: "/domains",
  operationId: "createDomain",
  summary: "Add a domain to send from; the answer lists the DNS records to publish before verifying it",
  metered: true,
  adminArea: "domains",
  body: createDomainBodySchema,
  success: {
    status: 201,
    description: "Added (pending until verified), with its DNS records",
    schema: domainResponseSchema,
  },
  errors: ["DOMAIN_EXISTS", "DOMAIN_TAKEN", "DOMAIN_LIMIT_REACHED", "EMAIL_PROVIDER_ERROR"],
  errorDescriptions: {
    VALIDATION_ERROR:
      "A name that is not a domain name, or one of this service's own domains or a parent or subdomain of one (field name)",
    DOMAIN_EXISTS: "Already one of your domains",
    DOMAIN_TAKEN: "Another account holds the domain, or a parent or subdomain of it",
    DOMAIN_LIMIT_REACHED: `You have ${MAX_SENDING_DOMAINS} domains already`,
    EMAIL_PROVIDER_ERROR: PROVIDER,
  },
});

export const getDomain = defineOperation({
  method: "GET",
  path: "/domains/{id}",
  operationId: "getDomain",
  summary: "A sending domain of yours, with its DNS records and tracking switches",
  metered: true,
  adminArea: "domains",
  ...BY_DOMAIN_ID,
  success: { status: 200, description: "The domain", schema: domainResponseSchema },
  errors: ["DOMAIN_NOT_FOUND"],
  errorDescriptions: NOT_YOURS,
});

export const verifyDomain = defineOperation({
  method: "POST",
  path: "/domains/{id}/verify",
  operationId: "verifyDomain",
  summary:
    "Check the domain's DNS records again (Resend checks a little later: read the domain again); without Resend, DNS is simulated and the domain is verified",
  metered: true,
  adminArea: "domains",
  ...BY_DOMAIN_ID,
  success: { status: 200, description: "The domain as now known", schema: domainResponseSchema },
  errors: ["DOMAIN_NOT_FOUND", "DOMAIN_TAKEN", "EMAIL_PROVIDER_ERROR"],
  errorDescriptions: {
    ...NOT_YOURS,
    DOMAIN_TAKEN: "Another account verified a parent or subdomain of it first",
    EMAIL_PROVIDER_ERROR: PROVIDER,
  },
});

export const updateDomain = defineOperation({
  method: "PATCH",
  path: "/domains/{id}",
  operationId: "updateDomain",
  summary: "Turn open and click tracking on or off, or change the default sender",
  metered: true,
  adminArea: "domains",
  ...BY_DOMAIN_ID,
  body: updateDomainBodySchema,
  success: { status: 200, description: "The domain as changed", schema: domainResponseSchema },
  errors: ["DOMAIN_NOT_FOUND", "EMAIL_PROVIDER_ERROR"],
  errorDescriptions: {
    ...NOT_YOURS,
    VALIDATION_ERROR:
      "A tracking switch that is not true or false, or a default sender that is not an address @ the domain (field default_sender)",
    EMAIL_PROVIDER_ERROR: PROVIDER,
  },
});

export const deleteDomain = defineOperation({
  method: "DELETE",
  path: "/domains/{id}",
  operationId: "deleteDomain",
  summary: "Remove a sending domain (with Resend, there too): nothing is sent from it afterwards",
  metered: true,
  adminArea: "domains",
  ...BY_DOMAIN_ID,
  success: { status: 200, description: "Removed", schema: deleteDomainResponseSchema },
  errors: ["DOMAIN_NOT_FOUND", "EMAIL_PROVIDER_ERROR"],
  errorDescriptions: { ...NOT_YOURS, EMAIL_PROVIDER_ERROR: PROVIDER },
});
