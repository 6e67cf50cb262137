import type { components } from "./openapi.ts";

/** A code of the API's errors (its `code`), or NETWORK_ERROR when no answer came. */
export type LetterpressErrorCode = NonNullable<components["schemas"]["Error"]["code"]> | "NETWORK_ERROR";

/**
 * Every failure of a call: the API's error answer (its status, `code`, `message` and `details`), or a request that got
 * no answer (status 0, code NETWORK_ERROR, the fetch error as `cause`).
 */
export class LetterpressError extends Error {
  /** The HTTP status; 0 when no answer came. */
  readonly status: number;
  /** The error's code; null for an answer without one (say, the free plan's monthly email limit). */
  readonly code: LetterpressErrorCode | null;
  readonly details: unknown;
  /** The answer's X-Request-Id, which the service's logs are kept under. */
  readonly requestId: string | null;
  /** The whole error body as answered (null when it was not JSON). */
  readonly body: unknown;

  constructor(init: {
    status: number;
    code: LetterpressErrorCode | null;
    message: string;
    details?: unknown;
    requestId?: string | null;
    body?: unknown;
    cause?: unknown;
  }) {
    super(init.message, { cause: init.cause });
    this.name = "LetterpressError";
    this.status = init.status;
    this.code = init.code;
    this.details = init.details ?? null;
    this.requestId = init.requestId ?? null;
    this.body = init.body ?? null;
  }

  /** The error an answer that is not a success stands for. */
  static fromResponse(response: Response, body: unknown): LetterpressError {
    const fields = typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
    const text = (value: unknown) => (typeof value === "string" ? value : undefined);
    return new LetterpressError({
      status: response.status,
      code: (text(fields.code) as LetterpressErrorCode | undefined) ?? null,
      message: text(fields.message) ?? text(fields.error) ?? `HTTP ${response.status}`,
      details: fields.details,
      requestId: response.headers.get("X-Request-Id") ?? text(fields.request_id),
      body: typeof body === "object" ? body : null,
    });
  }

  static network(cause: unknown): LetterpressError {
    const reason = cause instanceof Error ? cause.message : String(cause);
    return new LetterpressError({ status: 0, code: "NETWORK_ERROR", message: `No answer: ${reason}`, cause });
  }
}
