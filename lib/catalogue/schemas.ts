import { z } from "zod";
import { holdsNul, paginationQuerySchema, paginationSchema } from "@/lib/core/schemas";
import { MAX_CATALOGUE_CATEGORY_CHARS } from "@/lib/core/limits";
import { component } from "@/lib/core/openapi-components";

/** `?limit=&offset=` as every list takes them, and an optional `category` (exact, as the entries spell it). */
export const catalogueQuerySchema = paginationQuerySchema.extend({
  category: z
    .string()
    .min(1, "category must not be empty")
    .max(MAX_CATALOGUE_CATEGORY_CHARS, `category must be at most ${MAX_CATALOGUE_CATEGORY_CHARS} characters`)
    .refine((category) => !holdsNul(category), "category must not contain NUL characters")
    .optional()
    .meta({ description: "Only the templates of this category, as entries spell it (`Commerce`)" }),
});

export const catalogueEntrySchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    description: z.string(),
    is_public: z.literal(true),
    price: z.number().min(0).meta({ description: "Price in USD; 0 for a free template" }),
    slug: z.string().nullable(),
    category: z.string().nullable(),
    author: z.string().nullable(),
    in_library: z.boolean().meta({ description: "Whether the template is in your library already" }),
  })
  .meta({ id: "CatalogueTemplate" })
  .apply(component);

export const catalogueResponseSchema = z
  .object({ success: z.literal(true), templates: z.array(catalogueEntrySchema), pagination: paginationSchema })
  .meta({ id: "CatalogueResponse" })
  .apply(component);

export type CatalogueEntry = z.infer<typeof catalogueEntrySchema>;
