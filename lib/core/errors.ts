import type { z } from "zod";

export type ValidationDetail = { field: string; message: string };

/** The most `details` entries one answer lists; past them, one last entry says that more problems were found. */
export const MAX_DETAILS = 100;
const MORE_DETAILS: ValidationDetail = {
  field: "body",
  message: `more problems were found than the ${MAX_DETAILS} listed`,
};

/**
 * Every failure lib/ reports to a caller, by code: its HTTP status and the `error` title its body carries. The set is
 * closed: the API's answers and the dashboard's messages are made from this one table.
 */
export const APP_ERROR_CODES = {
  VALIDATION_ERROR: { status: 400, error: "Invalid request body" },
  INVALID_SIGNATURE: { status: 400, error: "Invalid webhook signature" },
  // A domain or default sender that is not one, or a domain reserved to this service.
  INVALID_DOMAIN: { status: 400, error: "Invalid domain" },
  UNAUTHORIZED: { status: 401, error: "Authentication required" },
  INVALID_CREDENTIALS: { status: 401, error: "Invalid credentials" },
  // POST /library of a paid catalogue template not bought: the body carries the checkout to buy it at.
  PURCHASE_REQUIRED: { status: 402, error: "Purchase required" },
  EMAIL_NOT_CONFIRMED: { status: 403, error: "Email not confirmed" },
  INSUFFICIENT_SCOPE: { status: 403, error: "API key not allowed" },
  ADMIN_REQUIRED: { status: 403, error: "Team admin required" },
  ACCESS_DENIED: { status: 403, error: "Template access denied" },
  CSRF_REJECTED: { status: 403, error: "Cross-site request refused" },
  LIBRARY_LIMIT_REACHED: { status: 403, error: "Library limit reached" },
  PURCHASE_LIMIT_REACHED: { status: 403, error: "Purchase limit reached" },
  WEBHOOK_LIMIT_REACHED: { status: 403, error: "Webhook limit reached" },
  DOMAIN_LIMIT_REACHED: { status: 403, error: "Domain limit reached" },
  COMPONENT_LIMIT_REACHED: { status: 403, error: "Component limit reached" },
  NOT_FOUND: { status: 404, error: "Not found" },
  TEMPLATE_NOT_FOUND: { status: 404, error: "Template not found" },
  EMAIL_NOT_FOUND: { status: 404, error: "Email not found" },
  SUPPRESSION_NOT_FOUND: { status: 404, error: "Suppression not found" },
  DOMAIN_NOT_FOUND: { status: 404, error: "Domain not found" },
  VERSION_NOT_FOUND: { status: 404, error: "Template version not found" },
  WEBHOOK_NOT_FOUND: { status: 404, error: "Webhook not found" },
  WEBHOOK_DELIVERY_NOT_FOUND: { status: 404, error: "Webhook delivery not found" },
  COMPONENT_NOT_FOUND: { status: 404, error: "Component not found" },
  METHOD_NOT_ALLOWED: { status: 405, error: "Method not allowed" },
  EMAIL_NOT_CANCELABLE: { status: 409, error: "Email cannot be canceled" },
  DOMAIN_TAKEN: { status: 409, error: "Domain taken" },
  DOMAIN_EXISTS: { status: 409, error: "Domain exists" },
  // An email that already has an account, or signs in another way (the dashboard's sign-in).
  EMAIL_TAKEN: { status: 409, error: "Email taken" },
  ALREADY_IN_LIBRARY: { status: 409, error: "Template already in library" },
  // Another of the account's templates has the alias.
  ALIAS_TAKEN: { status: 409, error: "Alias taken" },
  // A publish naming a draft revision that was saved over since.
  TEMPLATE_REVISION_MISMATCH: { status: 409, error: "Template draft revision mismatch" },
  NO_DRAFT: { status: 409, error: "No draft to publish" },
  // A template's draft built with a component's draft: published templates use published components only.
  COMPONENT_NOT_PUBLISHED: { status: 409, error: "Component not published" },
  COMPONENT_EXISTS: { status: 409, error: "Component exists" },
  // An update that other saves of the component or its templates kept overtaking: nothing was changed.
  COMPONENT_CHANGING: { status: 409, error: "Component changing" },
  // DELETE /components/{name} while a template's content imports it: `details` name them.
  COMPONENT_IN_USE: { status: 409, error: "Component in use" },
  // A live send of a template that has only a draft.
  TEMPLATE_NOT_PUBLISHED: { status: 409, error: "Template not published" },
  IDEMPOTENCY_CONFLICT: { status: 409, error: "Idempotency key reused with a different request" },
  IDEMPOTENCY_IN_PROGRESS: { status: 409, error: "A request with this idempotency key is still in progress" },
  PAYLOAD_TOO_LARGE: { status: 413, error: "Request body too large" },
  RECIPIENT_SUPPRESSED: { status: 422, error: "Recipient suppressed" },
  BATCH_TOO_LARGE: { status: 422, error: "Batch too large" },
  RENDER_ERROR: { status: 422, error: "Template render failed" },
  // PUT /components/{name} whose new version fails a dependent's compile or trial render: `details` name each.
  COMPONENT_BREAKS_TEMPLATES: { status: 422, error: "Component breaks templates" },
  TOO_MANY_DEPENDENTS: { status: 422, error: "Too many dependent templates" },
  RATE_LIMIT_EXCEEDED: { status: 429, error: "API usage limit exceeded" },
  TOO_MANY_ATTEMPTS: { status: 429, error: "Too many attempts" },
  // POST /send past the free plan's monthly emails: the contract's body has neither `code` nor `success`.
  EMAIL_LIMIT_REACHED: { status: 429, error: "Email sending not allowed", codeInBody: false },
  INTERNAL_ERROR: { status: 500, error: "Internal server error" },
  EMAIL_PROVIDER_ERROR: { status: 502, error: "Email provider error" },
  // The processor could not start a checkout, plan change or portal session; nothing was charged.
  PAYMENT_PROCESSOR_ERROR: { status: 502, error: "Payment processor error" },
  AUTH_PROVIDER_ERROR: { status: 502, error: "Sign-in provider error" },
  SANDBOX_BUSY: { status: 503, error: "Template sandbox busy" },
  PAYMENTS_NOT_CONFIGURED: { status: 503, error: "Payments are not configured" },
  EMAIL_EVENTS_NOT_CONFIGURED: { status: 503, error: "Email events are not configured" },
} as const satisfies Record<string, { status: number; error: string; codeInBody?: false }>;

export type AppErrorCode = keyof typeof APP_ERROR_CODES;

export type AppErrorOptions = {
  /** What the caller can do about it: the body's `message`, and the message the dashboard shows. */
  message?: string;
  /** A more precise title than the code's (same code), as the body's `error`. */
  title?: string;
  /** The body's `details`: which fields were refused, or the numbers behind a limit. */
  details?: unknown;
  /** Further fields the contract gives this answer (a paid template's `template`, the quota's `upgrade_url`). */
  fields?: Record<string, unknown>;
  /** When to try again (a Retry-After). */
  retryAfterSeconds?: number;
  /** The methods the path does serve (an Allow header), for METHOD_NOT_ALLOWED. */
  allow?: string[];
  /** The contract's API usage-limit body, which has no `success` key. */
  withoutSuccess?: boolean;
  /** A refused template source, for the editor and the CLI to point at; the API's `details` say it in words. */
  source?: SourceProblem;
  /** What the email provider answered a request it did not carry out: lib/ decides on it; no body shows it. */
  provider?: ProviderResponse;
  /** The failure behind it, for the log. */
  cause?: unknown;
};

/**
 * What is wrong with a template's source, in the compiler's words, and where: the file (none when the problem is not in
 * one file) and, for a compile error, the 1-based line and column.
 */
export type SourceProblem = { message: string; path?: string; line?: number; column?: number };

/** The provider's HTTP status (null when it could not be reached or did not answer in time) and its error name. */
export type ProviderResponse = { status: number | null; code: string | null };

/**
 * The one way lib/ reports a failure its caller should see: `throw errors.xxx(…)` (or `new AppError(code, …)`). The
 * API's wrapper turns it into the response (lib/api/errors.ts), the dashboard's actions into a form's message; any
 * other error is a bug, answered with the generic 500 or message and logged.
 */
export class AppError extends Error {
  constructor(
    public readonly code: AppErrorCode,
    public readonly options: AppErrorOptions = {},
  ) {
    super(options.message ?? options.title ?? APP_ERROR_CODES[code].error, { cause: options.cause });
    this.name = "AppError";
  }
}

/** The contract's `details` list, cut at MAX_DETAILS with one last entry saying that more were found. */
const capped = (details: ValidationDetail[]) =>
  details.length > MAX_DETAILS ? [...details.slice(0, MAX_DETAILS), MORE_DETAILS] : details;

/**
 * What the API's 401 says is wrong with a request's credentials, never quoting them. An unknown key and a revoked one
 * get the same words, so an answer never tells whether a key ever existed. (A malformed key's words are
 * apiKeyProblem's, lib/api-keys/service.ts.)
 */
export const CREDENTIAL_PROBLEMS = {
  none: "No credentials: send your API key as Authorization: Bearer <key> (or X-API-Key: <key>).",
  notBearer: "The Authorization header is not Bearer and a key: use Authorization: Bearer <key>.",
  emptyKey: "The API key is malformed: the X-API-Key header is empty.",
  unknownOrRevoked:
    "The API key is unknown or revoked: use a key listed on the dashboard's API keys page (Settings), or create one.",
  expired: "The API key has expired: create a new one on the dashboard's API keys page (Settings).",
  sessionEnded: "Your session has expired or is no longer valid: sign in again.",
  noTeam:
    "You are signed in but belong to no team: create one in the dashboard (/teams/new), or open the link of an invitation a team's admin sent you.",
} as const;

export const errors = {
  /** `message` says what is wrong with the credentials (CREDENTIAL_PROBLEMS, apiKeyProblem). */
  unauthorized: (message?: string) => new AppError("UNAUTHORIZED", message ? { message } : {}),

  validation: (details: ValidationDetail[], title?: string) =>
    new AppError("VALIDATION_ERROR", { details: capped(details), ...(title ? { title } : {}) }),

  /** A template's source refused: `details` for the API, `source` for the editor and the CLI. */
  sourceRefused: (details: ValidationDetail[], source: SourceProblem) =>
    new AppError("VALIDATION_ERROR", { details: capped(details), source }),

  malformedJson: (message: string) =>
    errors.validation([{ field: "body", message: `Request body is not valid JSON: ${message}` }]),

  payloadTooLarge: () => new AppError("PAYLOAD_TOO_LARGE"),

  /**
   * A webhook delivery whose signature is missing, wrong or stale (lib/mail-transport/resend-events.ts,
   * lib/billing/payments/stripe.ts).
   */
  invalidWebhookSignature: (message: string) => new AppError("INVALID_SIGNATURE", { message }),

  /** A path under /api that is not valid percent-encoded UTF-8 (say `/api/v1/library%ff`), answered by proxy.ts. */
  invalidPath: () =>
    errors.validation([{ field: "path", message: "must be valid percent-encoded UTF-8" }], "Invalid request path"),

  notFound: () => new AppError("NOT_FOUND"),

  methodNotAllowed: (allow: string[]) =>
    new AppError("METHOD_NOT_ALLOWED", { message: `Use ${allow.join(", ")}.`, allow }),

  templateNotFound: (message?: string) => new AppError("TEMPLATE_NOT_FOUND", message ? { message } : {}),

  aliasTaken: (alias: string) =>
    new AppError("ALIAS_TAKEN", {
      message: `Another of your templates has the alias "${alias}". Choose another, or clear it there first.`,
    }),

  /** A version (a number, or "draft") the template does not have. */
  versionNotFound: (version: number | "draft") =>
    new AppError("VERSION_NOT_FOUND", {
      message: version === "draft" ? "This template has no draft" : `This template has no version ${version}`,
    }),

  templateNotPublished: () =>
    new AppError("TEMPLATE_NOT_PUBLISHED", {
      message:
        'This template has a draft and no published version yet: publish it first (POST /templates/{id}/publish), or send its draft with a test key ("version": "draft").',
    }),

  insufficientScope: () =>
    new AppError("INSUFFICIENT_SCOPE", {
      message:
        "This API key has sending access only: it may send and batch-send, read and cancel emails, and read usage. Use a full-access key for this endpoint.",
    }),

  emailNotFound: () => new AppError("EMAIL_NOT_FOUND"),

  emailNotCancelable: (status: string) =>
    new AppError("EMAIL_NOT_CANCELABLE", {
      message: `Only a scheduled email can be canceled; its status is ${status}`,
    }),

  /** One entry per suppressed address, by the field that names it (`to.0`, `emails.3.cc.1`). */
  recipientSuppressed: (details: ValidationDetail[]) =>
    new AppError("RECIPIENT_SUPPRESSED", { details: capped(details) }),

  batchTooLarge: (message: string) => new AppError("BATCH_TOO_LARGE", { message }),

  suppressionNotFound: () => new AppError("SUPPRESSION_NOT_FOUND"),

  webhookNotFound: () => new AppError("WEBHOOK_NOT_FOUND"),

  webhookDeliveryNotFound: () => new AppError("WEBHOOK_DELIVERY_NOT_FOUND"),

  // A name that can be no component's is not repeated back.
  componentNotFound: (name: string) =>
    new AppError("COMPONENT_NOT_FOUND", {
      message: /^[a-z][a-z0-9-]{0,63}$/.test(name)
        ? `You have no component named "${name}".`
        : "You have no component of that name: a name is 1 to 64 of a-z, 0-9 and -, starting with a letter.",
    }),
  componentChanging: (name: string) =>
    new AppError("COMPONENT_CHANGING", {
      message: `@components/${name} or a template that imports it was saved again while this update was checked, three times: nothing was changed. Send it again.`,
      retryAfterSeconds: 1,
    }),
  componentExists: (name: string) =>
    new AppError("COMPONENT_EXISTS", {
      message: `You have a component named "${name}" already: PUT /api/v1/components/${name} saves a new version of it.`,
    }),
  componentInUse: (name: string, users: { template_id: string; name: string }[]) =>
    new AppError("COMPONENT_IN_USE", {
      message: `${users.length === 1 ? "A template imports" : `${users.length} templates import`} @components/${name}: change ${users.length === 1 ? "it" : "them"} first.`,
      details: capped(
        users.map(({ template_id, name: templateName }) => ({
          field: `templates.${template_id}`,
          message: `${templateName} imports @components/${name}`,
        })),
      ),
    }),
  componentBreaksTemplates: (name: string, broken: ValidationDetail[]) =>
    new AppError("COMPONENT_BREAKS_TEMPLATES", {
      message: `This version of @components/${name} breaks ${broken.length === 1 ? "a template" : `${broken.length} templates`} that import${broken.length === 1 ? "s" : ""} it: nothing was changed.`,
      details: capped(broken),
    }),
  tooManyDependents: (name: string, count: number, limit: number) =>
    new AppError("TOO_MANY_DEPENDENTS", {
      message: `${count} published templates import @components/${name}; an update checks and republishes at most ${limit}: nothing was changed. Move some of them to another component first.`,
    }),
  componentNotPublished: (pins: { name: string; version: number }[]) =>
    new AppError("COMPONENT_NOT_PUBLISHED", {
      message: `This draft was built with ${pins.map(({ name, version }) => `the draft of @components/${name} (version ${version})`).join(" and ")}: publish ${pins.length === 1 ? "it" : "them"} (PUT /api/v1/components/{name}), then save the template's draft again, or save it with publish.`,
    }),
  componentLimitReached: (limit: number) =>
    new AppError("COMPONENT_LIMIT_REACHED", {
      message: `An account has at most ${limit} components: delete one to add another.`,
    }),
  domainLimitReached: (limit: number) =>
    new AppError("DOMAIN_LIMIT_REACHED", {
      message: `An account has at most ${limit} sending domains: delete one (DELETE /api/v1/domains/{id}) to add another.`,
    }),
  webhookLimitReached: (limit: number) =>
    new AppError("WEBHOOK_LIMIT_REACHED", {
      message: `An account has at most ${limit} webhook endpoints: delete one (DELETE /api/v1/webhooks/{id}) to add another.`,
    }),

  templateAccessDenied: (template: { id: string; title: string; price: string }) =>
    new AppError("ACCESS_DENIED", {
      message: `"${template.title}" is a paid template. Purchase it to add it to your library, then render it.`,
      fields: { template },
    }),

  /** POST /library of a paid catalogue template not bought yet: where to buy it (`checkout_url`); nothing was added. */
  purchaseRequired: (template: { name: string; price: string }, checkoutUrl: string) =>
    new AppError("PURCHASE_REQUIRED", {
      message: `"${template.name}" costs $${Number(template.price).toFixed(2)}. Buy it at checkout_url; it is in your library once paid.`,
      fields: { checkout_url: checkoutUrl },
    }),

  renderFailed: (message: string, cause?: unknown) => new AppError("RENDER_ERROR", { message, cause }),

  csrfRejected: () => new AppError("CSRF_REJECTED"),

  internal: () => new AppError("INTERNAL_ERROR"),

  /** POST /send past the free plan's monthly emails; Retry-After: the seconds until `reset`, when sending resumes. */
  emailLimitReached: (message: string, reset: Date) =>
    new AppError("EMAIL_LIMIT_REACHED", {
      message,
      fields: { is_overage: false },
      retryAfterSeconds: secondsUntil(reset),
    }),

  /** The template sandbox has as much work queued as it takes: refused at once rather than left waiting behind it. */
  sandboxBusy: (message: string, retryAfterSeconds: number) =>
    new AppError("SANDBOX_BUSY", { message, retryAfterSeconds }),

  /** A dashboard preview past its per-minute limits (previews are not API calls: the contract's quota body is not theirs). */
  previewLimitReached: (message: string, limit: number, retryAfterSeconds: number) =>
    new AppError("RATE_LIMIT_EXCEEDED", {
      title: "Preview limit exceeded",
      message,
      details: { limit, remaining: 0, resetInSeconds: retryAfterSeconds },
      retryAfterSeconds,
    }),

  /** What the caller is told of the provider's failure (`cause`), and what became of the email. */
  emailProviderError: (message: string, cause?: unknown) => new AppError("EMAIL_PROVIDER_ERROR", { message, cause }),

  /** The email provider's client: the request was refused, failed, timed out or could not be reached. */
  emailProviderFailure: (message: string, status: number | null = null, code: string | null = null) =>
    new AppError("EMAIL_PROVIDER_ERROR", { message, provider: { status, code } }),

  idempotencyConflict: () => new AppError("IDEMPOTENCY_CONFLICT"),

  /** Another request with the same key and body is still running (it did not finish while this one waited). */
  idempotencyInProgress: () =>
    new AppError("IDEMPOTENCY_IN_PROGRESS", {
      message: "Retry shortly with the same key to receive its response.",
      retryAfterSeconds: 1,
    }),

  invalidDomain: (message: string) => new AppError("INVALID_DOMAIN", { message }),

  /**
   * Another account holds the domain, or (`related`) has verified a parent or sub-domain of it: a domain and its
   * sub-domains belong to one account.
   */
  domainTaken: (domain: string, related = false) =>
    new AppError("DOMAIN_TAKEN", {
      message: related
        ? `${domain} is a parent or sub-domain of a domain another account has verified. A domain and its sub-domains belong to one account only.`
        : `${domain} is already registered by another account. A sending domain belongs to one account only.`,
    }),

  domainExists: (domain: string) =>
    new AppError("DOMAIN_EXISTS", { message: `${domain} is already one of your sending domains` }),

  domainNotFound: () => new AppError("DOMAIN_NOT_FOUND", { message: "No sending domain with this id on your account" }),

  paymentsNotConfigured: () => new AppError("PAYMENTS_NOT_CONFIGURED"),

  emailEventsNotConfigured: () => new AppError("EMAIL_EVENTS_NOT_CONFIGURED"),
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
