import { z } from "zod";
import { variablesSchema } from "@/lib/schemas/common";

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

export const renderResponseSchema = z
  .union([
    z.object({ success: z.literal(true), html: z.string(), text: z.string().optional() }),
    z.object({ success: z.literal(true), react: z.string() }),
  ])
  .meta({ id: "RenderResponse" });

export const accessDeniedBodySchema = z
  .object({
    error: z.literal("Template access denied"),
    code: z.literal("ACCESS_DENIED"),
    success: z.literal(false),
    message: z.string(),
    template: z.object({ id: z.uuid(), title: z.string(), price: z.string() }),
  })
  .meta({ id: "TemplateAccessDenied" });

export const variableTypeSchema = z.enum(["string", "number", "boolean", "array", "object"]);
export const variableDeclarationSchema = z.object({
  name: z.string().regex(/^[A-Za-z_$][A-Za-z0-9_$]*$/, "must be a JavaScript identifier"),
  type: variableTypeSchema,
  required: z.boolean(),
  default: z.unknown().optional(),
  description: z.string().optional(),
});
export type VariableDeclaration = z.infer<typeof variableDeclarationSchema>;
