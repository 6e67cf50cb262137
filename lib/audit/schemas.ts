import { z } from "zod";
import { paginationQuerySchema, paginationSchema } from "@/lib/core/schemas";
import { component } from "@/lib/core/openapi-components";

/** The contract's actions, as the audit_log table's CHECK lists them (20261202130000_teams.sql). */
export const AUDIT_ACTIONS = [
  "api_key.created",
  "api_key.revoked",
  "domain.added",
  "domain.verified",
  "domain.removed",
  "webhook.created",
  "webhook.updated",
  "webhook.deleted",
  "webhook.secret_rotated",
  "member.invited",
  "member.joined",
  "member.role_changed",
  "member.removed",
  "invitation.revoked",
  "plan.changed",
  "template.created",
  "template.published",
  "template.restored",
  "template.deleted",
  "library.added",
  "library.removed",
  "suppression.removed",
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_ACTOR_TYPES = ["user", "api_key", "system"] as const;

export const listAuditLogQuerySchema = z
  .object({
    ...paginationQuerySchema.shape,
    action: z
      .enum(AUDIT_ACTIONS, { error: `action must be one of ${AUDIT_ACTIONS.join(", ")}` })
      .optional()
      .meta({ description: "Only entries of this action" }),
  })
  .strict();

export const auditEntrySchema = z
  .object({
    id: z.uuid(),
    action: z.enum(AUDIT_ACTIONS),
    actor: z
      .object({
        type: z.enum(AUDIT_ACTOR_TYPES),
        id: z.string().nullable().meta({ description: "The person's or the API key's id; null for the system" }),
        label: z.string().meta({ description: "The person's email, the key's name, or Letterpress" }),
      })
      .meta({ description: "Who made the change" }),
    target: z
      .object({
        type: z.string().meta({ description: "api_key, domain, webhook_endpoint, template, plan, suppression, …" }),
        id: z.string().nullable(),
        label: z.string().nullable().meta({ description: "Its name, URL, domain or address when it was changed" }),
      })
      .meta({ description: "What was changed" }),
    ip: z.string().nullable().meta({ description: "The client's address; null for work outside a request" }),
    created_at: z.iso.datetime(),
    details: z
      .record(z.string(), z.unknown())
      .optional()
      .meta({ description: "What else the change says (never a secret: a key's display fragment at most)" }),
  })
  .meta({ id: "AuditLogEntry" })
  .apply(component);

export const listAuditLogResponseSchema = z
  .object({ success: z.literal(true), events: z.array(auditEntrySchema), pagination: paginationSchema })
  .meta({ id: "AuditLogListResponse" })
  .apply(component);
