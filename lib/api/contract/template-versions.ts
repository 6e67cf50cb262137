import { z } from "zod";
import { defineOperation, PAGINATED } from "@/lib/api/contract/define";
import { uuidSchema } from "@/lib/core/schemas";
import {
  publishRequestSchema,
  publishResponseSchema,
  restoreRequestSchema,
  restoreResponseSchema,
  templateVersionResponseSchema,
  templateVersionsResponseSchema,
} from "@/lib/templates/schemas";

/** A template you created, named by its id in the path; anything else is answered as a template that is not there. */
const BY_TEMPLATE_ID = { pathParameters: { id: uuidSchema }, notFound: "TEMPLATE_NOT_FOUND" } as const;

/** One of its versions by number: anything but a positive integer is a 400 (field `n`). */
const BY_VERSION = {
  pathParameters: { id: uuidSchema, n: z.int().min(1).meta({ description: "The version's number" }) },
  notFound: "TEMPLATE_NOT_FOUND",
} as const;

const NOT_YOURS = "Not a template you created";
const BAD_VERSION = "The version in the path is not a positive integer (field `n`)";

export const publishTemplate = defineOperation({
  method: "POST",
  path: "/templates/{id}/publish",
  operationId: "publishTemplate",
  summary: "Publish the draft of a template you created as its next version: renders and sends use it from then on",
  metered: true,
  ...BY_TEMPLATE_ID,
  body: publishRequestSchema,
  success: {
    status: 200,
    description:
      "The version published (a draft the same as the latest version publishes nothing new: that version). A draft built with a shared component updated since is built again with the component's current version first, so a publish never brings back what the update replaced",
    schema: publishResponseSchema,
  },
  errors: ["TEMPLATE_NOT_FOUND", "TEMPLATE_REVISION_MISMATCH", "NO_DRAFT", "COMPONENT_NOT_PUBLISHED", "RENDER_ERROR"],
  errorDescriptions: {
    VALIDATION_ERROR:
      "A revision that is not a positive integer; or a draft built with a shared component updated since, which no longer compiles with its current version (`files`)",
    TEMPLATE_NOT_FOUND: NOT_YOURS,
    TEMPLATE_REVISION_MISMATCH: "The draft was saved again since the revision named: nothing was published",
    NO_DRAFT: "The template has no draft",
    COMPONENT_NOT_PUBLISHED: "The draft was built with a shared component's draft: publish the component first",
    RENDER_ERROR:
      "The draft was built with a shared component updated since, and its preview no longer renders with the component's current version: nothing was published",
  },
});

export const listTemplateVersions = defineOperation({
  method: "GET",
  path: "/templates/{id}/versions",
  operationId: "listTemplateVersions",
  summary: "The published versions of a template you created, newest first, and its draft",
  metered: true,
  ...BY_TEMPLATE_ID,
  ...PAGINATED,
  success: { status: 200, description: "A page of its versions", schema: templateVersionsResponseSchema },
  errors: ["TEMPLATE_NOT_FOUND"],
  errorDescriptions: { ...PAGINATED.errorDescriptions, TEMPLATE_NOT_FOUND: NOT_YOURS },
});

export const getTemplateVersion = defineOperation({
  method: "GET",
  path: "/templates/{id}/versions/{n}",
  operationId: "getTemplateVersion",
  summary: "One version of a template you created, with its files",
  metered: true,
  ...BY_VERSION,
  success: { status: 200, description: "The version", schema: templateVersionResponseSchema },
  errors: ["VALIDATION_ERROR", "TEMPLATE_NOT_FOUND", "VERSION_NOT_FOUND"],
  errorDescriptions: {
    VALIDATION_ERROR: BAD_VERSION,
    TEMPLATE_NOT_FOUND: NOT_YOURS,
    VERSION_NOT_FOUND: "The template has no such version",
  },
});

export const restoreTemplateVersion = defineOperation({
  method: "POST",
  path: "/templates/{id}/versions/{n}/restore",
  operationId: "restoreTemplateVersion",
  summary:
    "Copy a version of a template you created into its draft, or publish it again as the next version (the draft left alone)",
  metered: true,
  ...BY_VERSION,
  body: restoreRequestSchema,
  success: { status: 200, description: "The draft, or the version published", schema: restoreResponseSchema },
  errors: ["TEMPLATE_NOT_FOUND", "VERSION_NOT_FOUND"],
  errorDescriptions: {
    VALIDATION_ERROR: `${BAD_VERSION}, or a publish that is not a boolean`,
    TEMPLATE_NOT_FOUND: NOT_YOURS,
    VERSION_NOT_FOUND: "The template has no such version",
  },
});
