import type { operations } from "./openapi.ts";

/** The client's method for each operation of the API, by its operationId (the docs' examples are written from it). */
export const CLIENT_METHODS = {
  listLibrary: "library.list",
  addToLibrary: "library.add",
  removeFromLibrary: "library.remove",
  listCatalogue: "catalogue.list",
  createTemplate: "templates.create",
  getTemplate: "templates.get",
  replaceTemplate: "templates.replace",
  setTemplateAlias: "templates.setAlias",
  deleteTemplate: "templates.delete",
  renderTemplate: "render",
  getTemplateSource: "templates.getSource",
  publishTemplate: "templates.publish",
  listTemplateVersions: "templates.listVersions",
  getTemplateVersion: "templates.getVersion",
  restoreTemplateVersion: "templates.restoreVersion",
  sendEmail: "send",
  sendBatch: "sendBatch",
  listEmails: "emails.list",
  getEmail: "emails.get",
  cancelEmail: "emails.cancel",
  listSuppressions: "suppressions.list",
  deleteSuppression: "suppressions.delete",
  getUsage: "usage.get",
} as const satisfies Record<keyof operations, string>;
