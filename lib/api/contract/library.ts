import { z } from "zod";
import { defineOperation, PAGINATED } from "@/lib/api/contract/define";
import { MAX_TEMPLATE_ALIAS_CHARS } from "@/lib/core/limits";
import {
  addToLibraryRequestSchema,
  libraryEntryResponseSchema,
  libraryResponseSchema,
  removeFromLibraryResponseSchema,
} from "@/lib/catalogue/library-schemas";

export const listLibrary = defineOperation({
  method: "GET",
  path: "/library",
  operationId: "listLibrary",
  summary: "List the templates in your library, newest addition first",
  metered: true,
  ...PAGINATED,
  success: { status: 200, description: "A page of your library", schema: libraryResponseSchema },
});

export const addToLibrary = defineOperation({
  method: "POST",
  path: "/library",
  operationId: "addToLibrary",
  summary: "Add a free catalogue template to your library (200 with the entry when it is there already)",
  metered: true,
  body: addToLibraryRequestSchema,
  success: { status: 201, description: "Added to your library, as `free`", schema: libraryEntryResponseSchema },
  alsoSuccess: { status: 200, description: "Already in your library: its entry", schema: libraryEntryResponseSchema },
  errors: ["PURCHASE_REQUIRED", "LIBRARY_LIMIT_REACHED", "TEMPLATE_NOT_FOUND"],
  errorDescriptions: {
    LIBRARY_LIMIT_REACHED: "Your plan's library is full",
    TEMPLATE_NOT_FOUND: "No public catalogue template has this id or slug",
  },
});

export const removeFromLibrary = defineOperation({
  method: "DELETE",
  path: "/library/{id}",
  operationId: "removeFromLibrary",
  summary: "Remove a catalogue template from your library (a template you created: DELETE /templates/{id})",
  metered: true,
  pathParameters: {
    id: z.string().meta({
      description: "The catalogue template's id, or its slug",
      maxLength: MAX_TEMPLATE_ALIAS_CHARS,
    }),
  },
  notFound: "TEMPLATE_NOT_FOUND",
  success: { status: 200, description: "Removed", schema: removeFromLibraryResponseSchema },
  errors: ["TEMPLATE_NOT_FOUND"],
  errorDescriptions: { TEMPLATE_NOT_FOUND: "No catalogue template with this id or slug in your library" },
});
