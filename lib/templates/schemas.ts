import { z } from "zod";
import {
  MAX_TEMPLATE_ALIAS_CHARS,
  MAX_TEMPLATE_DESCRIPTION_CHARS,
  MAX_LOCALE_CHARS,
  MAX_TEMPLATE_FILES,
  MAX_TEMPLATE_LOCALES,
  MAX_TEMPLATE_NAME_CHARS,
  MAX_TEMPLATE_PATH_CHARS,
  MAX_TEMPLATE_SOURCE_CHARS,
  MAX_VERSION_NUMBER,
} from "@/lib/core/limits";
import { holdsNul, paginationSchema, variablesSchema } from "@/lib/core/schemas";
import { libraryEntrySchema } from "@/lib/catalogue/library-schemas";
import type { VariablesSchema } from "@/lib/templates/variables-schema";
import { templateAliasProblem } from "@/lib/templates/alias";
import { canonicalTag, DEFAULT_ENTRY, LOCALE_MESSAGE, templateFilesProblems } from "@/lib/templates/files";
import { WARNING_KINDS } from "@/lib/render/analysis/warnings";
import { component } from "@/lib/core/openapi-components";

// The paths and the sources' size are checked by templateFilesProblems, each problem with a message of its own; the
// bounds stated here are for the OpenAPI document.
/** The shared components a saved content was built with: `[{ name, version }]`, by name. */
export const componentPinsSchema = z.array(
  z.object({ name: z.string(), version: z.number().int().meta({ description: "The component's version" }) }),
);

export const templateFilesSchema = z.record(
  z.string().meta({ maxLength: MAX_TEMPLATE_PATH_CHARS }),
  z.string({ error: "must be the file's source, a string" }).meta({ maxLength: MAX_TEMPLATE_SOURCE_CHARS }),
);

export const templateSourceResponseSchema = z
  .object({
    success: z.literal(true),
    source: z.object({
      name: z.string(),
      description: z.string(),
      code: z.string().meta({ description: "The entry's source" }),
      files: templateFilesSchema
        .optional()
        .meta({ description: "A template of several files: every file's source by its path" }),
      entry: z.string().optional().meta({ description: "A template of several files: the entry's path" }),
    }),
  })
  .meta({ id: "TemplateSourceResponse" })
  .apply(component);

/** A BCP 47 tag in a body: `locale` of a render or send, a template's `default_locale` (`message` when malformed). */
export const localeTagSchema = (message: string) =>
  z
    .string({ error: message })
    .max(MAX_LOCALE_CHARS, message)
    .refine((tag) => canonicalTag(tag) !== null, message);

/** A render's or send's `locale`. */
export const localeRequestSchema = localeTagSchema(LOCALE_MESSAGE).optional().meta({
  description:
    "A BCP 47 tag (`fr-CA`) resolved against the template's locales by lookup (`fr-CA`, then `fr`, then its default locale); the component receives the resolved tag as its `locale` prop. A template without messages ignores it.",
});

/** A template named by a path's `{id}` or a send's `template_id`, and where its id is found. */
export const TEMPLATE_ID_DESCRIPTION =
  "The template's id, or its alias; a catalogue template in your library also answers to its slug (your own aliases first). `GET /library` lists your library's templates with their ids; `GET /catalogue` lists the catalogue's, and `POST /library` adds a free one to your library.";

/** A template's alias as it is set (null clears it), checked character by character (lib/templates/alias.ts). */
const templateAliasSchema = z
  .string({ error: "alias must be a string or null" })
  .superRefine((alias, context) => {
    const problem = templateAliasProblem(alias);
    if (problem) context.addIssue({ code: "custom", message: `alias ${problem}` });
  })
  .nullable()
  .meta({
    description: `A name of your own for the template, unique among your templates, that every path and \`template_id\` taking its id takes too: 1 to ${MAX_TEMPLATE_ALIAS_CHARS} characters of a-z, 0-9, \`-\`, \`_\` and \`.\`, starting with a letter or digit (not a uuid); null for none`,
    minLength: 1,
    maxLength: MAX_TEMPLATE_ALIAS_CHARS,
  });

/**
 * POST /templates and PUT /templates/{id}: the files' paths, count, size and entry are checked as every way of saving
 * a template checks them (lib/templates/files.ts), each problem with its own field (`files.<path>`, `files`, `entry`).
 */
export const templateRequestSchema = z
  .object({
    name: z
      .string({ error: "name must be a string" })
      .trim()
      .min(1, "name must not be empty")
      .max(MAX_TEMPLATE_NAME_CHARS, `name must be at most ${MAX_TEMPLATE_NAME_CHARS} characters`)
      .refine((name) => !holdsNul(name), "name must not contain the NUL character (\\u0000)"),
    description: z
      .string({ error: "description must be a string" })
      .max(MAX_TEMPLATE_DESCRIPTION_CHARS, `description must be at most ${MAX_TEMPLATE_DESCRIPTION_CHARS} characters`)
      .refine((description) => !holdsNul(description), "description must not contain the NUL character (\\u0000)")
      .default(""),
    files: templateFilesSchema.meta({
      description: `The template's files: TSX (or .ts, .jsx, .js) source by relative path (\`email.tsx\`, \`components/footer.tsx\`; no \`..\`, no leading \`/\`), 1 to ${MAX_TEMPLATE_FILES}, at most ${MAX_TEMPLATE_SOURCE_CHARS.toLocaleString("en-US")} characters in all. They import each other by relative path, with or without the extension, and besides that only \`react\` and \`@react-email/components\` (\`Tailwind\` with its \`config\` written as a literal and every class name whole in the source: its CSS is made when the template is saved), \`next-intl\` and \`use-intl\`. Messages per locale: \`messages/<tag>.json\` (\`<tag>\` a BCP 47 tag as canonically written: \`en\`, \`pt-BR\`), at most ${MAX_TEMPLATE_LOCALES}, each at most 100 KB of JSON objects nested at most 8 deep whose leaves are ICU MessageFormat strings; a key a locale lacks falls back to its parent locale's, then the default locale's.`,
      minProperties: 1,
      maxProperties: MAX_TEMPLATE_FILES + MAX_TEMPLATE_LOCALES,
    }),
    default_locale: localeTagSchema("default_locale must be a BCP 47 language tag (en, pt-BR)").optional().meta({
      description:
        "A template with messages (`messages/<tag>.json`): its default locale, one of its tags. By default `en` when it has it, else its first tag in alphabetical order",
    }),
    entry: z
      .string({ error: "entry must be a string" })
      .max(MAX_TEMPLATE_PATH_CHARS)
      .optional()
      .meta({
        description: `The file whose default export is the email: by default the only file, else \`${DEFAULT_ENTRY}\``,
      }),
    alias: templateAliasSchema.optional().meta({
      description: "The template's alias (see PATCH /templates/{id}); PUT keeps the one it has when left out",
    }),
    publish: z.boolean({ error: "publish must be a boolean" }).optional().meta({
      description:
        "false: save the files as the template's draft (POST: the template has only a draft until its first publish; PUT: what sends use is untouched). By default they are published as the next version.",
    }),
  })
  .strict()
  .superRefine(({ files, entry }, context) => {
    // The field is the problem's whole dotted path: a file's path holds dots of its own.
    for (const { field, message } of templateFilesProblems(files, entry)) {
      context.addIssue({ code: "custom", path: [field], message });
    }
  })
  .meta({ id: "TemplateRequest" })
  .apply(component);

/** PATCH /templates/{id}: sets the alias, or clears it. */
export const templateAliasRequestSchema = z
  .object({ alias: templateAliasSchema })
  .strict()
  .meta({ id: "TemplateAliasRequest" })
  .apply(component);

export const deleteTemplateResponseSchema = z
  .object({ success: z.literal(true) })
  .meta({ id: "TemplateDeleteResponse" })
  .apply(component);

/** Which version a render or send uses: a published version's number, or the draft; the published one by default. */
const BAD_VERSION = 'version must be a version number (a positive integer) or "draft"';

export const templateVersionRequestSchema = z
  .union(
    [
      z.int({ error: BAD_VERSION }).min(1, BAD_VERSION).max(MAX_VERSION_NUMBER, BAD_VERSION),
      z.literal("draft").meta({ maxLength: 5 }),
    ],
    {
      error: BAD_VERSION,
    },
  )
  .optional()
  .meta({
    description:
      'The version to use: a number, or "draft" (sent only with a test key). By default the published version.',
  });

export const renderRequestSchema = z
  .object({
    version: templateVersionRequestSchema,
    variables: variablesSchema.meta({
      description: "Values for the template's declared variables; at most 1 MB as JSON",
    }),
    format: z.enum(["html", "react"], { error: 'format must be "html" or "react"' }).default("html"),
    plain_text: z.boolean({ error: "plain_text must be a boolean" }).default(false),
    locale: localeRequestSchema,
  })
  .meta({ id: "RenderRequest" })
  .apply(component);

export const warningsSchema = z
  .array(
    z.object({
      field: z
        .string()
        .meta({ description: "`variables.<path>` for an undeclared variable, `files.messages/<tag>.json`, or `html`" }),
      message: z.string(),
      kind: z.enum(WARNING_KINDS).meta({
        description:
          "What it is about: `variables` (a variable the template does not declare), `messages` (a save's key a locale lacks), `size` (HTML Gmail clips), `compatibility` (email client support). Entries come in that order of kinds",
      }),
    }),
  )
  .meta({
    id: "Warnings",
    description:
      "Left out when empty. In this order: variables the template does not declare (passed to it unchanged, with a suggestion when a declared name is close), HTML past 102 KB, which Gmail clips, and (in a render's answer of a template you wrote) each feature of the HTML that an email client does not support, from the caniemail data set: `<feature> is not supported by Outlook (Windows), partially by Gmail (Android)`, at most 20. The clients: Gmail (web, Android, iOS), Outlook (Windows, macOS, Outlook.com), Apple Mail (macOS, iOS), Yahoo Mail. A catalogue template's render has no email client warnings: you cannot change its HTML, and GET /templates/{id} lists its support once, as `compatibility`.",
  })
  .apply(component);

const renderedLocaleSchema = z.string().optional().meta({
  description: "The template's locale the request's `locale` resolved to; left out for a template without messages",
});

export const renderResponseSchema = z
  .union([
    z.object({
      success: z.literal(true),
      locale: renderedLocaleSchema,
      html: z.string(),
      text: z.string().optional(),
      warnings: warningsSchema.optional(),
    }),
    z.object({
      success: z.literal(true),
      locale: renderedLocaleSchema,
      react: z.string(),
      files: z.record(z.string(), z.string()).optional().meta({
        description:
          "A template of several files: every file by its path, the entry's as `react` (with the variables applied); `react` imports the others by relative path, so write them all into one folder",
      }),
      entry: z
        .string()
        .optional()
        .meta({ description: "A template of several files: the path of `react` among `files`" }),
      warnings: warningsSchema.optional(),
    }),
  ])
  .meta({ id: "RenderResponse" })
  .apply(component);

export const variablesJsonSchemaSchema = z
  .record(z.string(), z.unknown())
  .meta({
    id: "VariablesSchema",
    description:
      'The template\'s variables as a JSON Schema (2020-12) object: `{ "type": "object", "properties", "required", "additionalProperties" }`',
  })
  .apply(component);

export const templateDraftSchema = z
  .object({
    revision: z.int().meta({ description: "Moves on with every save of the draft" }),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: "TemplateDraft", description: "The template's draft, unpublished" })
  .apply(component);

export const templateVersionSchema = z
  .object({
    version: z.int(),
    created_at: z.iso.datetime().meta({ description: "When its files were saved" }),
    published_at: z.iso.datetime(),
    entry: z.string().meta({ description: "The path of the file whose default export is the email" }),
    variables: variablesJsonSchemaSchema,
    components: componentPinsSchema.optional().meta({
      description:
        "The shared components it was built with, by name, and their versions: it renders with these whatever becomes of them; left out when it imports none",
    }),
    reason: z.string().optional().meta({
      description:
        'Why it was made, for a version Letterpress published itself: "component footer v3" (an update of a component it imports); left out for a version someone published',
    }),
  })
  .meta({ id: "TemplateVersion" })
  .apply(component);

export const templateVersionsResponseSchema = z
  .object({
    success: z.literal(true),
    versions: z.array(templateVersionSchema).meta({ description: "Newest first" }),
    draft: templateDraftSchema.nullable(),
    pagination: paginationSchema,
  })
  .meta({ id: "TemplateVersionsResponse" })
  .apply(component);

export const templateVersionResponseSchema = z
  .object({
    success: z.literal(true),
    version: templateVersionSchema.extend({
      files: z.record(z.string(), z.string()).meta({ description: "Every file's source by its path" }),
    }),
  })
  .meta({ id: "TemplateVersionResponse" })
  .apply(component);

export const publishRequestSchema = z
  .object({
    revision: z
      .int({ error: "revision must be an integer" })
      .min(1, "revision must be at least 1")
      .max(MAX_VERSION_NUMBER, `revision must be at most ${MAX_VERSION_NUMBER}`)
      .optional()
      .meta({ description: "The draft's revision you read: refused (409) when the draft was saved again since" }),
  })
  .strict()
  .meta({ id: "PublishRequest" })
  .apply(component);

export const publishResponseSchema = z
  .object({ success: z.literal(true), version: templateVersionSchema })
  .meta({ id: "PublishResponse" })
  .apply(component);

export const restoreRequestSchema = z
  .object({
    publish: z
      .boolean({ error: "publish must be a boolean" })
      .default(false)
      .meta({ description: "true: publish it as the next version at once" }),
  })
  .strict()
  .meta({ id: "RestoreRequest" })
  .apply(component);

export const restoreResponseSchema = z
  .object({
    success: z.literal(true),
    draft: templateDraftSchema.nullable().meta({
      description:
        'The draft now holding the version; with "publish": true the draft as it was, left alone (null when none)',
    }),
    version: templateVersionSchema.optional().meta({ description: 'With "publish": true, the version it became' }),
  })
  .meta({ id: "RestoreResponse" })
  .apply(component);

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
    alias: z.string().nullable().meta({
      description: "Your own template's alias (PATCH /templates/{id}); null when none, and for catalogue templates",
    }),
    in_library: z.boolean(),
    added_via: libraryEntrySchema.shape.added_via.nullable(),
    updated_at: z.iso.datetime(),
    version: z.int().nullable().meta({
      description: "The published version that renders and sends use; null before a first publish",
    }),
    draft: templateDraftSchema.nullable(),
    variables: variablesJsonSchemaSchema,
    example: z.record(z.string(), z.unknown()).meta({
      description: "Sample variables that render: the template's PreviewProps, else values made from its schema",
    }),
    compatibility: z
      .array(
        z.object({
          feature: z.string().meta({ description: "The caniemail data set's name of the feature" }),
          unsupported: z.array(z.string()).meta({ description: "The clients that do not support it" }),
          partial: z.array(z.string()).meta({ description: "The clients that support it in part" }),
        }),
      )
      .meta({
        description:
          "Email client support of the published version's example render (the draft's before a first publish), computed when it was saved: each feature of its HTML that Gmail (web, Android, iOS), Outlook (Windows, macOS, Outlook.com), Apple Mail (macOS, iOS) or Yahoo Mail does not fully support, from the caniemail data set",
      }),
    locales: z.array(z.string()).optional().meta({
      description:
        "A template with messages: its locales (the tags of its `messages/<tag>.json` files, alphabetical), which a render's or send's `locale` resolves against; left out for a template without messages",
    }),
    default_locale: z.string().optional().meta({
      description:
        "A template with messages: the locale used when none is asked for or none matches; left out for a template without messages",
    }),
    components: componentPinsSchema.optional().meta({
      description:
        "The shared components its published version (its draft's before a first publish) was built with, by name, and their versions; left out for a template that imports none",
    }),
  });
export type TemplateDetails = Omit<z.infer<typeof templateDetailsSchema>, "variables"> & { variables: VariablesSchema };

export const templateDetailsResponseSchema = z
  .object({ success: z.literal(true), template: templateDetailsSchema })
  .meta({ id: "TemplateDetailsResponse" })
  .apply(component);

export const savedTemplateResponseSchema = templateDetailsResponseSchema
  .extend({
    warnings: warningsSchema.optional().meta({
      description:
        "Left out when empty. Each key of the default locale's messages that another locale lacks (`kind` `messages`, field `files.messages/<tag>.json`: `missing welcome.title: falls back to en`), then each feature of the saved content's example render that an email client does not support (as a render's warnings)",
    }),
  })
  .meta({ id: "SavedTemplateResponse" })
  .apply(component);

export const accessDeniedBodySchema = z
  .object({
    error: z.literal("Template access denied"),
    code: z.literal("ACCESS_DENIED"),
    success: z.literal(false),
    message: z.string(),
    template: z.object({ id: z.uuid(), title: z.string(), price: z.string() }),
  })
  .meta({ id: "TemplateAccessDenied" })
  .apply(component);

export const purchaseRequiredBodySchema = z
  .object({
    error: z.literal("Purchase required"),
    code: z.literal("PURCHASE_REQUIRED"),
    success: z.literal(false),
    message: z.string(),
    checkout_url: z.url().meta({ description: "Where to buy the template, as the dashboard's Buy button would" }),
  })
  .meta({ id: "PurchaseRequired" })
  .apply(component);
