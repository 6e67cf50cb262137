import { z } from "zod";
import { holdsNul } from "@/lib/core/schemas";
import { component } from "@/lib/core/openapi-components";

// The sending domains API (v1.3, Engagement). The rules beyond these bounds (a domain's form, the operator's domains,
// one account per domain and zone, a sender @ the domain) are the service's, which the dashboard's forms share.

const nameField = z
  .string({ error: "name must be a string" })
  .min(1, "name must not be empty")
  .max(253, "name must be at most 253 characters")
  .refine((name) => !holdsNul(name), "name must not contain the NUL character (\\u0000)")
  .meta({ description: "The domain or subdomain you send from, such as mail.example.com" });

const trackingField = (what: string) =>
  z.boolean({ error: `${what}_tracking must be true or false` }).meta({
    description: `Track the ${what}s of emails from this domain (with Resend, Resend's switch for the domain)`,
  });

export const createDomainBodySchema = z.object({ name: nameField }).strict();
export type CreateDomainBody = z.output<typeof createDomainBodySchema>;

export const updateDomainBodySchema = z
  .object({
    open_tracking: trackingField("open").optional(),
    click_tracking: trackingField("click").optional(),
    default_sender: z
      .string({ error: "default_sender must be a string" })
      .max(320, "default_sender must be at most 320 characters")
      // The dashboard's form asks the same of it (app/dashboard/domains/actions.ts).
      .pipe(z.email({ error: "default_sender must be an email address" }))
      .optional()
      .meta({
        description: "The address sends from this domain use when they name no `from`: an address @ the domain",
      }),
  })
  .strict();
export type UpdateDomainBody = z.output<typeof updateDomainBodySchema>;

const dnsRecordSchema = z
  .object({ record: z.string(), name: z.string(), type: z.string(), value: z.string() })
  .catchall(z.unknown())
  .meta({ description: "A DNS record to publish (SPF, DKIM, …), as Resend asks for it" });

export const domainSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  status: z.enum(["pending", "verified"]).meta({ description: "verified: emails may be sent from it" }),
  records: z
    .array(dnsRecordSchema)
    .meta({ description: "What to publish at your DNS provider; empty without Resend, where DNS is simulated" }),
  open_tracking: z.boolean(),
  click_tracking: z.boolean(),
  default_sender: z.string().nullable(),
  created_at: z.iso.datetime(),
});
export type DomainBody = z.output<typeof domainSchema>;

export const domainResponseSchema = z
  .object({ success: z.literal(true), domain: domainSchema })
  .meta({ id: "DomainResponse" })
  .apply(component);

export const listDomainsResponseSchema = z
  .object({ success: z.literal(true), domains: z.array(domainSchema) })
  .meta({ id: "DomainListResponse" })
  .apply(component);

export const deleteDomainResponseSchema = z
  .object({ success: z.literal(true) })
  .meta({ id: "DomainDeleteResponse" })
  .apply(component);
