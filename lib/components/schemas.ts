import { z } from "zod";
import { MAX_TEMPLATE_DESCRIPTION_CHARS, MAX_TEMPLATE_FILES, MAX_TEMPLATE_PATH_CHARS } from "@/lib/core/limits";
import { holdsNul } from "@/lib/core/schemas";
import { messagesTag, templateFilesProblems, type TemplateFiles } from "@/lib/templates/files";
import { templateFilesSchema } from "@/lib/templates/schemas";
import { component } from "@/lib/core/openapi-components";

/** A component's name, as templates import it (`@components/<name>`). */
export const COMPONENT_NAME_PATTERN = /^[a-z][a-z0-9-]{0,63}$/;
export const COMPONENT_NAME_MESSAGE =
  "name must be 1 to 64 of a-z, 0-9 and -, starting with a letter (footer, brand-header)";

/** The entry of a component of several files that names none. */
export const DEFAULT_COMPONENT_ENTRY = "index.tsx";

/** The entry of a component that names none: its only file, else index.tsx. */
export function defaultComponentEntry(files: TemplateFiles): string {
  const paths = Object.keys(files);
  return paths.length === 1 ? paths[0] : DEFAULT_COMPONENT_ENTRY;
}

/** Every problem with a component's files and entry: a template's rules, with code files only and its own default entry. */
export function componentFilesProblems(
  files: TemplateFiles,
  entry: string | undefined,
): { field: string; message: string }[] {
  const messages = Object.keys(files).filter((path) => messagesTag(path) !== null);
  if (messages.length > 0)
    return messages.map((path) => ({
      field: `files.${path}`,
      message: "a component holds code files only: its text comes from the template, as props or a translator",
    }));
  const chosen = entry ?? defaultComponentEntry(files);
  return templateFilesProblems(files, chosen).map((problem) =>
    problem.field === "entry" && entry === undefined
      ? { field: "entry", message: `is required when none of the files is ${DEFAULT_COMPONENT_ENTRY}` }
      : { field: problem.field, message: problem.message },
  );
}

const descriptionField = z
  .string({ error: "description must be a string" })
  .max(MAX_TEMPLATE_DESCRIPTION_CHARS, `description must be at most ${MAX_TEMPLATE_DESCRIPTION_CHARS} characters`)
  .refine((description) => !holdsNul(description), "description must not contain the NUL character (\\u0000)");

const componentFields = {
  description: descriptionField
    .optional()
    .meta({ description: "What it is for; PUT keeps the one it has when left out" }),
  files: templateFilesSchema.meta({
    description: `The component's files: TSX (or .ts, .jsx, .js) source by relative path, 1 to ${MAX_TEMPLATE_FILES}, under a template's rules. They may import each other, react, @react-email/components, next-intl and your other components (@components/<name>, no cycles). Exports any named components and a default.`,
    minProperties: 1,
    maxProperties: MAX_TEMPLATE_FILES,
  }),
  entry: z
    .string({ error: "entry must be a string" })
    .max(MAX_TEMPLATE_PATH_CHARS)
    .optional()
    .meta({
      description: `The file templates import as @components/<name>: by default the only file, else \`${DEFAULT_COMPONENT_ENTRY}\``,
    }),
};

const refineFiles = ({ files, entry }: { files: TemplateFiles; entry?: string }, context: z.RefinementCtx) => {
  // The field is the problem's whole dotted path: a file's path holds dots of its own.
  for (const { field, message } of componentFilesProblems(files, entry)) {
    context.addIssue({ code: "custom", path: [field], message });
  }
};

export const createComponentBodySchema = z
  .object({
    name: z
      .string({ error: "name must be a string" })
      .regex(COMPONENT_NAME_PATTERN, COMPONENT_NAME_MESSAGE)
      .meta({ description: "How templates import it: `@components/<name>`" }),
    ...componentFields,
  })
  .strict()
  .superRefine(refineFiles)
  .meta({ id: "ComponentRequest" })
  .apply(component);
export type CreateComponentBody = z.output<typeof createComponentBodySchema>;

export const updateComponentBodySchema = z
  .object({
    ...componentFields,
    publish: z.boolean({ error: "publish must be a boolean" }).optional().meta({
      description:
        "false: save it as the component's draft, which templates' drafts are built with (publish: false) and published versions are not; no template is published again. By default it is published",
    }),
  })
  .strict()
  .superRefine(refineFiles)
  .meta({ id: "ComponentUpdateRequest" })
  .apply(component);
export type UpdateComponentBody = z.output<typeof updateComponentBodySchema>;

const usedBySchema = z
  .array(
    z.object({
      template_id: z.string(),
      name: z.string(),
      component_version: z
        .number()
        .int()
        .meta({ description: "The version of this component its content was built with" }),
    }),
  )
  .meta({ description: "Your templates whose published content or draft imports it, by name" });

export const componentSchema = z
  .object({
    name: z.string(),
    description: z.string(),
    version: z.number().int().meta({ description: "The version templates compile with; each save makes the next" }),
    files: z.record(z.string(), z.string()),
    entry: z.string(),
    used_by: usedBySchema,
    draft: z
      .object({
        version: z.number().int(),
        files: z.record(z.string(), z.string()),
        entry: z.string(),
        created_at: z.iso.datetime(),
      })
      .nullable()
      .meta({
        description:
          'Its draft: a later version saved with "publish": false, which only templates\' drafts are built with; null when it has none',
      }),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: "Component" })
  .apply(component);
export type ComponentView = z.input<typeof componentSchema>;

export const componentResponseSchema = z.object({ success: z.literal(true), component: componentSchema });
export const updatedComponentResponseSchema = componentResponseSchema.extend({
  republished: z.array(z.object({ template_id: z.string(), version: z.number().int() })).meta({
    description:
      "The templates whose published version imported it, each published again with this version (its reason: `component <name> v<version>`), by template name",
  }),
});

export const listComponentsResponseSchema = z.object({
  success: z.literal(true),
  components: z.array(componentSchema),
});
export const deleteComponentResponseSchema = z.object({ success: z.literal(true) });
