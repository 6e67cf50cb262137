import { z } from "zod";
import { paginationSchema } from "@/lib/core/schemas";
import { component } from "@/lib/core/openapi-components";

export const suppressionSchema = z
  .object({
    email: z.string().meta({ description: "The address, lower-cased" }),
    reason: z.enum(["bounced", "complained", "unsubscribed"]).meta({
      description:
        "A hard bounce or a spam complaint (every send is held back), or a one-click unsubscribe (only the sends of its group)",
    }),
    group: z.string().nullable().optional().meta({
      description:
        "An unsubscribe's group (a send's `unsubscribe.group`), null for `\"unsubscribe\": true`; only on unsubscribes",
    }),
    created_at: z.iso.datetime(),
  })
  .meta({ id: "Suppression" })
  .apply(component);

export const listSuppressionsResponseSchema = z
  .object({ success: z.literal(true), suppressions: z.array(suppressionSchema), pagination: paginationSchema })
  .meta({ id: "SuppressionListResponse" })
  .apply(component);

export const deleteSuppressionResponseSchema = z
  .object({ success: z.literal(true), suppression: suppressionSchema.meta({ description: "The entry removed" }) })
  .meta({ id: "SuppressionDeleteResponse" })
  .apply(component);
