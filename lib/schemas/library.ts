import { z } from "zod";
import { paginationSchema } from "@/lib/schemas/common";

export const libraryEntrySchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    description: z.string(),
    is_public: z.boolean(),
    price: z.number().min(0).meta({ description: "Price in USD; 0 for a free template" }),
    slug: z.string().nullable(),
    category: z.string().nullable(),
    author: z.string().nullable(),
    added_via: z.enum(["created", "free", "purchased"]),
    added_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
    preview_url: z.string().nullable(),
  })
  .meta({ id: "LibraryTemplate" });

export const libraryResponseSchema = z
  .object({ success: z.literal(true), templates: z.array(libraryEntrySchema), pagination: paginationSchema })
  .meta({ id: "LibraryResponse" });

export type LibraryEntry = z.infer<typeof libraryEntrySchema>;
