import "server-only";
import { Resend, type CreateBatchEmailOptions, type CreateEmailOptions } from "resend";
import { errors } from "@/lib/core/errors";
import type { Mailer, OutgoingEmail, SendOptions } from "@/lib/mail-transport/types";

export const RESEND_TIMEOUT_MS = 10_000;

/** What every SDK call resolves with: its data, or Resend's error (statusCode null for a network failure). */
type SdkResult<T> = { data: T | null; error: { statusCode?: number | null; name?: string; message?: string } | null };

/**
 * Resend through its SDK. The SDK never throws on HTTP errors (it returns `{ error: { statusCode, name, message } }`,
 * statusCode null for a network failure) and has no timeout or retry of its own: each request is aborted after
 * `timeoutMs` and every failure becomes an EMAIL_PROVIDER_ERROR carrying what Resend answered.
 */
export class ResendMailer implements Mailer {
  readonly provider = "resend" as const;
  readonly deliversOnRecord = false;
  private readonly client: Resend;
  private readonly timeoutMs: number;

  constructor(options: { apiKey: string; baseUrl?: string; timeoutMs?: number }) {
    this.client = new Resend(
      options.apiKey,
      options.baseUrl ? { baseUrl: options.baseUrl.replace(/\/+$/, "") } : undefined,
    );
    this.timeoutMs = options.timeoutMs ?? RESEND_TIMEOUT_MS;
  }

  async send(message: OutgoingEmail, options: SendOptions = {}): Promise<{ id: string }> {
    const data = await this.call((signal) =>
      this.client.emails.send(toResendPayload(message), { idempotencyKey: options.idempotencyKey, signal }),
    );
    const id = data?.id;
    if (typeof id !== "string" || id === "") throw errors.emailProviderFailure("the answer carried no message id");
    return { id };
  }

  async sendBatch(messages: OutgoingEmail[], options: SendOptions = {}): Promise<{ ids: string[] }> {
    const items = messages.map(toResendBatchItem);
    // Strict validation (the SDK's default): one invalid message refuses the whole batch, so none is sent.
    const data = await this.call((signal) =>
      this.client.batch.send(items, { idempotencyKey: options.idempotencyKey, signal }),
    );
    const ids = Array.isArray(data?.data) ? data.data.map((item) => item?.id) : [];
    if (ids.length !== messages.length || !ids.every((id) => typeof id === "string" && id !== "")) {
      throw errors.emailProviderFailure(`the answer carried ${ids.length} message ids for ${messages.length} messages`);
    }
    return { ids };
  }

  async cancel(providerMessageId: string): Promise<void> {
    // The SDK puts the id into the request's path as it is.
    await this.call((signal) => this.client.emails.cancel(encodeURIComponent(providerMessageId), { signal }));
  }

  /** One request under the timeout: its data, or EMAIL_PROVIDER_ERROR for a refusal, a failure or no answer in time. */
  private async call<T>(request: (signal: AbortSignal) => Promise<SdkResult<T>>): Promise<T | null> {
    const signal = AbortSignal.timeout(this.timeoutMs);
    const timedOut = `no answer within ${this.timeoutMs} ms`;
    let result: SdkResult<T>;
    try {
      result = await request(signal);
    } catch (error) {
      throw errors.emailProviderFailure(signal.aborted ? timedOut : (error as Error).message);
    }
    if (result.error) {
      const { statusCode, name, message } = result.error;
      const reason = signal.aborted ? timedOut : message || name || "unknown error";
      throw errors.emailProviderFailure(reason, typeof statusCode === "number" ? statusCode : null, name ?? null);
    }
    return result.data;
  }
}

/** The fields of a message every request takes, as the SDK names them; empty lists are left out. */
function messageFields(message: OutgoingEmail) {
  const list = (values: string[]) => (values.length > 0 ? values : undefined);
  return {
    from: message.from,
    to: message.to,
    cc: list(message.cc),
    bcc: list(message.bcc),
    replyTo: list(message.replyTo),
    subject: message.subject,
    html: message.html,
    text: message.text ?? undefined,
    headers: Object.keys(message.headers).length > 0 ? message.headers : undefined,
    tags: message.tags.length > 0 ? message.tags : undefined,
  };
}

/** The SDK's options (it sends them snake_case: reply_to, scheduled_at, content_type). */
export function toResendPayload(message: OutgoingEmail): CreateEmailOptions {
  return {
    ...messageFields(message),
    attachments:
      message.attachments.length > 0
        ? message.attachments.map((a) => ({
            filename: a.filename,
            content: a.content,
            path: a.path,
            contentType: a.content_type,
          }))
        : undefined,
    scheduledAt: message.scheduledAt?.toISOString(),
  };
}

/** One message of a batch: Resend's batch endpoint refuses attachments and scheduled_at, so there are none to drop. */
export function toResendBatchItem(message: OutgoingEmail): CreateBatchEmailOptions {
  if (message.attachments.length > 0 || message.scheduledAt) {
    throw new Error("a message with attachments or a scheduled time cannot be sent in a batch");
  }
  return messageFields(message);
}
