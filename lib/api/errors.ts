import { APP_ERROR_CODES, type AppError } from "@/lib/core/errors";

export type HttpError = { status: number; body: Record<string, unknown>; headers: Record<string, string> };

/** An AppError as the API answers it: the one place a code becomes a status, the contract's body and its headers. */
export function httpError(error: AppError): HttpError {
  const { status, error: title, ...entry } = APP_ERROR_CODES[error.code];
  const { message, details, fields, retryAfterSeconds, allow, withoutSuccess } = error.options;
  const body: Record<string, unknown> = {
    error: error.options.title ?? title,
    ...("codeInBody" in entry ? {} : { code: error.code }),
    ...("codeInBody" in entry || withoutSuccess ? {} : { success: false }),
    ...(message !== undefined ? { message } : {}),
    ...(details !== undefined ? { details } : {}),
    ...fields,
  };
  const headers: Record<string, string> = {
    ...(retryAfterSeconds !== undefined ? { "Retry-After": String(retryAfterSeconds) } : {}),
    ...(allow ? { Allow: allow.join(", ") } : {}),
  };
  return { status, body, headers };
}
