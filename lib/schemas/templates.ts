import { z } from "zod";
import { variablesSchema } from "@/lib/schemas/common";
import { libraryEntrySchema } from "@/lib/schemas/library";
import type { VariablesSchema } from "@/lib/schemas/variables";

export const templateSourceResponseSchema = z
  .object({
    success: z.literal(true),
    source: z.object({ name: z.string(), description: z.string(), code: z.string() }),
  })
  .meta({ id: "TemplateSourceResponse" });

export const renderRequestSchema = z
  .object({
    variables: variablesSchema.meta({
      description: "Values for the template's declared variables; at most 1 MB as JSON",
    }),
    format: z.enum(["html", "react"], { error: 'format must be "html" or "react"' }).default("html"),
    plain_text: z.boolean({ error: "plain_text must be a boolean" }).default(false),
  })
  .meta({ id: "RenderRequest" });

export const warningsSchema = z
  .array(
    z.object({
      field: z.string().meta({ description: "`variables.<path>` for an undeclared variable, or `html`" }),
      message: z.string(),
    }),
  )
  .meta({
    id: "Warnings",
    description:
      "Left out when empty. Variables the template does not declare (passed to it unchanged, with a suggestion when a declared name is close), and HTML past 102 KB, which Gmail clips.",
  });

export const renderResponseSchema = z
  .union([
    z.object({
      success: z.literal(true),
      html: z.string(),
      text: z.string().optional(),
      warnings: warningsSchema.optional(),
    }),
    z.object({ success: z.literal(true), react: z.string(), warnings: warningsSchema.optional() }),
  ])
  .meta({ id: "RenderResponse" });

export const variablesJsonSchemaSchema = z.record(z.string(), z.unknown()).meta({
  id: "VariablesSchema",
  description:
    'The template\'s variables as a JSON Schema (2020-12) object: `{ "type": "object", "properties", "required", "additionalProperties" }`',
});

export const templateDetailsSchema = libraryEntrySchema
  .pick({
    id: true,
    name: true,
    description: true,
    is_public: true,
    price: true,
    slug: true,
    category: true,
    author: true,
  })
  .extend({
    in_library: z.boolean(),
    added_via: libraryEntrySchema.shape.added_via.nullable(),
    updated_at: z.iso.datetime(),
    variables: variablesJsonSchemaSchema,
    example: z.record(z.string(), z.unknown()).meta({
      description: "Sample variables that render: the template's PreviewProps, else values made from its schema",
    }),
  });
export type TemplateDetails = Omit<z.infer<typeof templateDetailsSchema>, "variables"> & { variables: VariablesSchema };

export const templateDetailsResponseSchema = z
  .object({ success: z.literal(true), template: templateDetailsSchema })
  .meta({ id: "TemplateDetailsResponse" });

export const accessDeniedBodySchema = z
  .object({
    error: z.literal("Template access denied"),
    code: z.literal("ACCESS_DENIED"),
    success: z.literal(false),
    message: z.string(),
    template: z.object({ id: z.uuid(), title: z.string(), price: z.string() }),
  })
  .meta({ id: "TemplateAccessDenied" });
