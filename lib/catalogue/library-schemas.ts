import { z } from "zod";
import { MAX_TEMPLATE_ALIAS_CHARS } from "@/lib/core/limits";
import { paginationSchema } from "@/lib/core/schemas";
import { component } from "@/lib/core/openapi-components";

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
  .meta({ id: "LibraryTemplate" })
  .apply(component);

export const libraryResponseSchema = z
  .object({ success: z.literal(true), templates: z.array(libraryEntrySchema), pagination: paginationSchema })
  .meta({ id: "LibraryResponse" })
  .apply(component);

export type LibraryEntry = z.infer<typeof libraryEntrySchema>;

export const addToLibraryRequestSchema = z
  .object({
    template_id: z
      .string()
      .min(1, "template_id must not be empty")
      .max(MAX_TEMPLATE_ALIAS_CHARS, `template_id must be at most ${MAX_TEMPLATE_ALIAS_CHARS} characters`)
      .meta({ description: "A public catalogue template's id or slug (GET /catalogue lists them)" }),
  })
  .strict()
  .meta({ id: "LibraryAddRequest" })
  .apply(component);

export const libraryEntryResponseSchema = z
  .object({ success: z.literal(true), template: libraryEntrySchema })
  .meta({ id: "LibraryEntryResponse" })
  .apply(component);

export const removeFromLibraryResponseSchema = z
  .object({ success: z.literal(true) })
  .meta({ id: "LibraryRemoveResponse" })
  .apply(component);
