export { Letterpress, DEFAULT_BASE_URL } from "./client.js";
export type { LetterpressOptions, Query, RequestBody, SendOptions, SuccessBody } from "./client.js";
export { LetterpressError, type LetterpressErrorCode } from "./errors.js";
export { CLIENT_METHODS } from "./methods.js";
export type {
  LetterpressTemplates,
  RenderBody,
  SendBatchBody,
  SendBody,
  TemplateId,
  TemplateVariables,
} from "./templates.js";
export type { components, operations, paths } from "./openapi.js";
