export { Letterpress, DEFAULT_BASE_URL } from "./client.ts";
export type { LetterpressOptions, Query, RequestBody, SendOptions, SuccessBody } from "./client.ts";
export { LetterpressError, type LetterpressErrorCode } from "./errors.ts";
export { CLIENT_METHODS } from "./methods.ts";
export { WebhookVerificationError } from "./webhooks.ts";
export type { EmailWebhookData, WebhookEvent, WebhookEventType, WebhookRequestHeaders } from "./webhooks.ts";
export type {
  LetterpressLocales,
  LetterpressTemplates,
  RenderBody,
  SendBatchBody,
  SendBody,
  TemplateId,
  TemplateLocale,
  TemplateVariables,
} from "./templates.ts";
export type { components, operations, paths } from "./openapi.ts";
