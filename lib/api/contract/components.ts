import { z } from "zod";
import { defineOperation } from "@/lib/api/contract/define";
import { MAX_COMPONENT_DEPENDENTS, MAX_COMPONENTS } from "@/lib/core/limits";
import {
  componentResponseSchema,
  createComponentBodySchema,
  deleteComponentResponseSchema,
  listComponentsResponseSchema,
  updateComponentBodySchema,
  updatedComponentResponseSchema,
} from "@/lib/components/schemas";

/** A component named in the path. */
const BY_COMPONENT_NAME = {
  pathParameters: { name: z.string().max(64).meta({ description: "The component's name (`@components/<name>`)" }) },
  notFound: "COMPONENT_NOT_FOUND",
} as const;

const NOT_YOURS = { COMPONENT_NOT_FOUND: "You have no component of that name" } as const;
const FILES_REFUSED =
  "A bad name, description, path or entry, or a file that does not compile (field `files.<path>`, the message starting with its line and column), imports what it may not, names none of your components or imports this component again (a cycle)";

export const createComponent = defineOperation({
  method: "POST",
  path: "/components",
  operationId: "createComponent",
  summary: "Add a shared component your templates import as @components/<name>",
  metered: true,
  body: createComponentBodySchema,
  success: { status: 201, description: "Created as its version 1", schema: componentResponseSchema },
  errors: ["COMPONENT_EXISTS", "COMPONENT_LIMIT_REACHED", "SANDBOX_BUSY"],
  errorDescriptions: {
    VALIDATION_ERROR: FILES_REFUSED,
    COMPONENT_EXISTS: "You have a component of that name: PUT /components/{name} saves a new version",
    COMPONENT_LIMIT_REACHED: `You have ${MAX_COMPONENTS} components already`,
  },
});

export const listComponents = defineOperation({
  method: "GET",
  path: "/components",
  operationId: "listComponents",
  summary: "List your shared components by name, each with the templates that use it",
  metered: true,
  success: { status: 200, description: "Your components", schema: listComponentsResponseSchema },
});

export const getComponent = defineOperation({
  method: "GET",
  path: "/components/{name}",
  operationId: "getComponent",
  summary: "A shared component: its current version's files and the templates that use it",
  metered: true,
  ...BY_COMPONENT_NAME,
  success: { status: 200, description: "The component", schema: componentResponseSchema },
  errors: ["COMPONENT_NOT_FOUND"],
  errorDescriptions: NOT_YOURS,
});

export const updateComponent = defineOperation({
  method: "PUT",
  path: "/components/{name}",
  operationId: "updateComponent",
  summary:
    "Save a component's next version, and publish again each template whose published version imports it, once all of them compile and render with it",
  metered: true,
  ...BY_COMPONENT_NAME,
  body: updateComponentBodySchema,
  success: {
    status: 200,
    description: "The component at its new version, and the templates published again with it",
    schema: updatedComponentResponseSchema,
  },
  errors: [
    "COMPONENT_NOT_FOUND",
    "COMPONENT_CHANGING",
    "COMPONENT_BREAKS_TEMPLATES",
    "TOO_MANY_DEPENDENTS",
    "SANDBOX_BUSY",
  ],
  errorDescriptions: {
    ...NOT_YOURS,
    VALIDATION_ERROR: FILES_REFUSED,
    COMPONENT_BREAKS_TEMPLATES:
      "A template that imports it does not compile or render with this version: nothing was changed, and `details` name each (field `templates.<id>`, the message starting with its name)",
    TOO_MANY_DEPENDENTS: `More than ${MAX_COMPONENT_DEPENDENTS} published templates import it: nothing was changed`,
    COMPONENT_CHANGING:
      "The component or a template that imports it was saved again while the update was checked, three times: nothing was changed; send it again",
  },
});

export const deleteComponent = defineOperation({
  method: "DELETE",
  path: "/components/{name}",
  operationId: "deleteComponent",
  summary: "Delete a shared component no template imports",
  metered: true,
  ...BY_COMPONENT_NAME,
  success: { status: 200, description: "Deleted", schema: deleteComponentResponseSchema },
  errors: ["COMPONENT_NOT_FOUND", "COMPONENT_IN_USE"],
  errorDescriptions: {
    ...NOT_YOURS,
    COMPONENT_IN_USE: "A template's content or draft imports it: `details` name each (field `templates.<id>`)",
  },
});
