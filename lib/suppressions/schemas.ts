import { z } from "zod";
import { paginationSchema } from "@/lib/core/schemas";

export const suppressionSchema = z
  .object({
    email: z.string().meta({ description: "The address, lower-cased" }),
    reason: z.enum(["bounced", "complained"]).meta({ description: "A hard bounce, or a spam complaint" }),
    created_at: z.iso.datetime(),
  })
  .meta({ id: "Suppression" });

export const listSuppressionsResponseSchema = z
  .object({ success: z.literal(true), suppressions: z.array(suppressionSchema), pagination: paginationSchema })
  .meta({ id: "SuppressionListResponse" });

export const deleteSuppressionResponseSchema = z
  .object({ success: z.literal(true), suppression: suppressionSchema.meta({ description: "The entry removed" }) })
  .meta({ id: "SuppressionDeleteResponse" });
