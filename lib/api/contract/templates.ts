import { z } from "zod";
import { defineOperation } from "@/lib/api/contract/define";
import { MAX_TEMPLATE_ALIAS_CHARS } from "@/lib/core/limits";
import {
  deleteTemplateResponseSchema,
  renderRequestSchema,
  renderResponseSchema,
  templateAliasRequestSchema,
  savedTemplateResponseSchema,
  templateDetailsResponseSchema,
  templateRequestSchema,
  templateSourceResponseSchema,
  TEMPLATE_ID_DESCRIPTION,
} from "@/lib/templates/schemas";

/**
 * A template named in the path by its id or alias (lib/templates/data/templates.ts `templateIdSql`); one that can name
 * nothing is answered as a template that is not there.
 */
const BY_TEMPLATE_ID = {
  pathParameters: {
    id: z.string().meta({ description: TEMPLATE_ID_DESCRIPTION, maxLength: MAX_TEMPLATE_ALIAS_CHARS }),
  },
  notFound: "TEMPLATE_NOT_FOUND",
} as const;

const ALIAS_TAKEN = "Another of your templates has that alias";

const TRIAL_RENDER_FAILED = "The trial render of its PreviewProps failed";

export const createTemplate = defineOperation({
  method: "POST",
  path: "/templates",
  operationId: "createTemplate",
  summary: "Create a template of your own from its TSX files; it is added to your library",
  metered: true,
  body: templateRequestSchema,
  success: {
    status: 201,
    description: "Created: the template, as GET /templates/{id} answers it",
    schema: savedTemplateResponseSchema,
  },
  errors: ["LIBRARY_LIMIT_REACHED", "ALIAS_TAKEN", "RENDER_ERROR", "SANDBOX_BUSY"],
  errorDescriptions: {
    VALIDATION_ERROR:
      "A bad name, description, alias, path, entry or default_locale, a file that does not compile (field `files.<path>`, the message starting with its line and column) or imports what it may not, or a messages file that is not JSON objects of ICU messages (field `files.messages/<tag>.json`, the message naming the key)",
    LIBRARY_LIMIT_REACHED: "The free plan's library is full",
    ALIAS_TAKEN,
    RENDER_ERROR: TRIAL_RENDER_FAILED,
  },
});

export const getTemplate = defineOperation({
  method: "GET",
  path: "/templates/{id}",
  operationId: "getTemplate",
  summary: "A template's details, the variables it takes (JSON Schema) and sample variables that render",
  metered: false,
  ...BY_TEMPLATE_ID,
  success: { status: 200, description: "The template", schema: templateDetailsResponseSchema },
  errors: ["TEMPLATE_NOT_FOUND"],
  errorDescriptions: {
    TEMPLATE_NOT_FOUND: "Neither in your library nor in the public catalogue (an alias or slug: not in your library)",
  },
});

export const replaceTemplate = defineOperation({
  method: "PUT",
  path: "/templates/{id}",
  operationId: "replaceTemplate",
  summary: "Replace the files, name and description of a template you created (checked as on creation)",
  metered: true,
  ...BY_TEMPLATE_ID,
  body: templateRequestSchema,
  success: { status: 200, description: "The template as it is now", schema: savedTemplateResponseSchema },
  errors: ["TEMPLATE_NOT_FOUND", "ALIAS_TAKEN", "RENDER_ERROR", "SANDBOX_BUSY"],
  errorDescriptions: {
    VALIDATION_ERROR:
      "As for POST /templates: a bad field, a file that does not compile or imports what it may not, or a malformed message",
    TEMPLATE_NOT_FOUND: "Not a template you created",
    ALIAS_TAKEN,
    RENDER_ERROR: TRIAL_RENDER_FAILED,
  },
});

export const setTemplateAlias = defineOperation({
  method: "PATCH",
  path: "/templates/{id}",
  operationId: "setTemplateAlias",
  summary: "Set or clear (null) the alias of a template you created",
  metered: true,
  ...BY_TEMPLATE_ID,
  body: templateAliasRequestSchema,
  success: { status: 200, description: "The template as it is now", schema: templateDetailsResponseSchema },
  errors: ["TEMPLATE_NOT_FOUND", "ALIAS_TAKEN"],
  errorDescriptions: {
    VALIDATION_ERROR: "An alias that is not one (field `alias`), or another field",
    TEMPLATE_NOT_FOUND: "Not a template you created",
    ALIAS_TAKEN,
  },
});

export const deleteTemplate = defineOperation({
  method: "DELETE",
  path: "/templates/{id}",
  operationId: "deleteTemplate",
  summary: "Delete a template you created; it leaves your library",
  metered: true,
  ...BY_TEMPLATE_ID,
  success: { status: 200, description: "Deleted", schema: deleteTemplateResponseSchema },
  errors: ["TEMPLATE_NOT_FOUND"],
  errorDescriptions: { TEMPLATE_NOT_FOUND: "Not a template you created" },
});

export const renderTemplate = defineOperation({
  method: "POST",
  path: "/templates/{id}/render",
  operationId: "renderTemplate",
  summary: "Render a template with variables to HTML (and plain text) or to React source",
  metered: true,
  ...BY_TEMPLATE_ID,
  body: renderRequestSchema,
  success: { status: 200, description: "The rendered template", schema: renderResponseSchema },
  errors: ["ACCESS_DENIED", "TEMPLATE_NOT_FOUND", "VERSION_NOT_FOUND", "RENDER_ERROR", "SANDBOX_BUSY"],
  errorDescriptions: {
    VALIDATION_ERROR: "Bad variables, format, plain_text, version or locale (not a BCP 47 tag)",
    TEMPLATE_NOT_FOUND:
      'No such template you may render; for an alias or slug a few letters from one of yours or the catalogue\'s, the message asks "Did you mean <name>?"',
    VERSION_NOT_FOUND: "The template has no such version, or no draft",
  },
});

export const getTemplateSource = defineOperation({
  method: "GET",
  path: "/templates/{id}/source",
  operationId: "getTemplateSource",
  summary: "Download the React Email source of a template in your library",
  metered: false,
  ...BY_TEMPLATE_ID,
  success: { status: 200, description: "The template's source", schema: templateSourceResponseSchema },
  errors: ["TEMPLATE_NOT_FOUND"],
  errorDescriptions: { TEMPLATE_NOT_FOUND: "Not in your library" },
});
