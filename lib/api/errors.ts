import type { z } from "zod";

export type ValidationDetail = { field: string; message: string };

/** The most `details` entries one answer lists; past them, one last entry says that more problems were found. */
export const MAX_DETAILS = 100;
const MORE_DETAILS: ValidationDetail = {
  field: "body",
  message: `more problems were found than the ${MAX_DETAILS} listed`,
};

/**
 * The one way a handler reports failure: `throw new ApiError(status, body)`. The wrapper turns it into the response,
 * so every error body in the API is built by one of the factories below and matches the contract exactly.
 */
export class ApiError extends Error {
  constructor(
    public readonly status: number,
    public readonly body: Record<string, unknown>,
    public readonly headers: Record<string, string> = {},
  ) {
    super(typeof body.error === "string" ? body.error : `HTTP ${status}`);
    this.name = "ApiError";
  }
}

export const errors = {
  unauthorized: () => new ApiError(401, { error: "Authentication required", code: "UNAUTHORIZED", success: false }),

  validation: (details: ValidationDetail[]) =>
    new ApiError(400, {
      error: "Invalid request body",
      code: "VALIDATION_ERROR",
      success: false,
      details: details.length > MAX_DETAILS ? [...details.slice(0, MAX_DETAILS), MORE_DETAILS] : details,
    }),

  malformedJson: (message: string) =>
    errors.validation([{ field: "body", message: `Request body is not valid JSON: ${message}` }]),

  payloadTooLarge: () =>
    new ApiError(413, { error: "Request body too large", code: "PAYLOAD_TOO_LARGE", success: false }),

  /** A provider's webhook delivery whose signature is missing, wrong or stale (lib/webhooks/receive.ts). */
  invalidWebhookSignature: (message: string) =>
    new ApiError(400, { error: "Invalid webhook signature", code: "INVALID_SIGNATURE", success: false, message }),

  /** A path under /api that is not valid percent-encoded UTF-8 (say `/api/v1/library%ff`), answered by proxy.ts. */
  invalidPath: () =>
    new ApiError(400, {
      error: "Invalid request path",
      code: "VALIDATION_ERROR",
      success: false,
      details: [{ field: "path", message: "must be valid percent-encoded UTF-8" }],
    }),

  notFound: () => new ApiError(404, { error: "Not found", code: "NOT_FOUND", success: false }),

  methodNotAllowed: (allow: string[]) =>
    new ApiError(
      405,
      { error: "Method not allowed", code: "METHOD_NOT_ALLOWED", success: false, message: `Use ${allow.join(", ")}.` },
      { Allow: allow.join(", ") },
    ),

  templateNotFound: (message?: string) =>
    new ApiError(404, {
      error: "Template not found",
      code: "TEMPLATE_NOT_FOUND",
      success: false,
      ...(message ? { message } : {}),
    }),

  insufficientScope: () =>
    new ApiError(403, {
      error: "API key not allowed",
      code: "INSUFFICIENT_SCOPE",
      success: false,
      message:
        "This API key has sending access only: it may send and batch-send, read and cancel emails, and read usage. Use a full-access key for this endpoint.",
    }),

  emailNotFound: () => new ApiError(404, { error: "Email not found", code: "EMAIL_NOT_FOUND", success: false }),

  emailNotCancelable: (status: string) =>
    new ApiError(409, {
      error: "Email cannot be canceled",
      code: "EMAIL_NOT_CANCELABLE",
      success: false,
      message: `Only a scheduled email can be canceled; its status is ${status}`,
    }),

  /** One entry per suppressed address, by the field that names it (`to.0`, `emails.3.cc.1`). */
  recipientSuppressed: (details: ValidationDetail[]) =>
    new ApiError(422, {
      error: "Recipient suppressed",
      code: "RECIPIENT_SUPPRESSED",
      success: false,
      details: details.length > MAX_DETAILS ? [...details.slice(0, MAX_DETAILS), MORE_DETAILS] : details,
    }),

  batchTooLarge: (message: string) =>
    new ApiError(422, { error: "Batch too large", code: "BATCH_TOO_LARGE", success: false, message }),

  suppressionNotFound: () =>
    new ApiError(404, { error: "Suppression not found", code: "SUPPRESSION_NOT_FOUND", success: false }),

  templateAccessDenied: (template: { id: string; title: string; price: string }) =>
    new ApiError(403, {
      error: "Template access denied",
      code: "ACCESS_DENIED",
      success: false,
      message: `"${template.title}" is a paid template. Purchase it to add it to your library, then render it.`,
      template,
    }),

  renderFailed: (message: string) =>
    new ApiError(422, { error: "Template render failed", code: "RENDER_ERROR", message, success: false }),

  csrfRejected: () => new ApiError(403, { error: "Cross-site request refused", code: "CSRF_REJECTED", success: false }),

  conflict: (code: string, error: string, message?: string) =>
    new ApiError(409, { error, code, success: false, ...(message ? { message } : {}) }),

  limitReached: (code: string, error: string, message: string) =>
    new ApiError(403, { error, code, success: false, message }),

  internal: () => new ApiError(500, { error: "Internal server error", code: "INTERNAL_ERROR", success: false }),

  /** POST /send past the free plan's monthly emails: the contract's body has no `success` key. */
  /** Retry-After: the seconds until `reset`, when sending resumes. */
  emailLimitReached: (message: string, reset: Date) =>
    new ApiError(
      429,
      { error: "Email sending not allowed", message, is_overage: false },
      { "Retry-After": String(secondsUntil(reset)) },
    ),

  /** The template sandbox has as much work queued as it takes: refused at once rather than left waiting behind it. */
  sandboxBusy: (message: string, retryAfterSeconds: number) =>
    new ApiError(
      503,
      { error: "Template sandbox busy", code: "SANDBOX_BUSY", success: false, message },
      { "Retry-After": String(retryAfterSeconds) },
    ),

  /** A dashboard preview past its per-minute limits (previews are not API calls: the contract's quota body is not theirs). */
  previewLimitReached: (message: string, limit: number, retryAfterSeconds: number) =>
    new ApiError(
      429,
      {
        error: "Preview limit exceeded",
        code: "RATE_LIMIT_EXCEEDED",
        success: false,
        message,
        details: { limit, remaining: 0, resetInSeconds: retryAfterSeconds },
      },
      { "Retry-After": String(retryAfterSeconds) },
    ),

  emailProviderError: (message: string) =>
    new ApiError(502, { error: "Email provider error", code: "EMAIL_PROVIDER_ERROR", message, success: false }),

  idempotencyConflict: () =>
    new ApiError(409, {
      error: "Idempotency key reused with a different request",
      code: "IDEMPOTENCY_CONFLICT",
      success: false,
    }),

  /** Another request with the same key and body is still running (it did not finish while this one waited). */
  idempotencyInProgress: () =>
    new ApiError(
      409,
      {
        error: "A request with this idempotency key is still in progress",
        code: "IDEMPOTENCY_IN_PROGRESS",
        success: false,
        message: "Retry shortly with the same key to receive its response.",
      },
      { "Retry-After": "1" },
    ),
};

/**
 * zod issues as the contract's `details`: one entry per problem, `field` a dotted path under `prefix`. At most one entry
 * past MAX_DETAILS, enough for `errors.validation` to say that more were found.
 */
export function zodDetails(
  error: z.ZodError,
  prefix?: string,
  messageOf: (issue: z.core.$ZodIssue) => string = (issue) => issue.message,
): ValidationDetail[] {
  const fieldOf = (path: PropertyKey[]) =>
    [prefix, ...path.map(String)].filter((part) => part !== undefined && part !== "").join(".") || "body";
  const details: ValidationDetail[] = [];
  for (const issue of error.issues) {
    // Unknown keys are one issue in zod; the contract wants one entry per offending field.
    const entries =
      issue.code === "unrecognized_keys"
        ? issue.keys
            .slice(0, MAX_DETAILS + 1)
            .map((key) => ({ field: fieldOf([...issue.path, key]), message: `${key} is not a recognised field` }))
        : [{ field: fieldOf(issue.path), message: messageOf(issue) }];
    details.push(...entries);
    if (details.length > MAX_DETAILS) return details.slice(0, MAX_DETAILS + 1);
  }
  return details;
}

/** Whole seconds from now until `instant`, at least 1: what a Retry-After says. */
export function secondsUntil(instant: Date): number {
  return Math.max(1, Math.ceil((instant.getTime() - Date.now()) / 1000));
}
