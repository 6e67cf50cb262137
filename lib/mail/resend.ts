import "server-only";
import { Resend, type CreateEmailOptions } from "resend";
import { MailerError, type Mailer, type OutgoingEmail, type SendOptions } from "@/lib/mail/types";

export const RESEND_TIMEOUT_MS = 10_000;

/**
 * Resend through its SDK. The SDK never throws on HTTP errors (it returns `{ error: { statusCode, name, message } }`,
 * statusCode null for a network failure) and has no timeout or retry of its own: the request is aborted after
 * `timeoutMs` and every failure becomes a MailerError.
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
    const signal = AbortSignal.timeout(this.timeoutMs);
    let result: Awaited<ReturnType<Resend["emails"]["send"]>>;
    try {
      result = await this.client.emails.send(toResendPayload(message), {
        idempotencyKey: options.idempotencyKey,
        signal,
      });
    } catch (error) {
      throw new MailerError(signal.aborted ? `no answer within ${this.timeoutMs} ms` : (error as Error).message, null);
    }
    if (result.error) {
      const {
        statusCode,
        name,
        message: text,
      } = result.error as { statusCode?: number | null; name?: string; message?: string };
      const reason = signal.aborted ? `no answer within ${this.timeoutMs} ms` : text || name || "unknown error";
      throw new MailerError(reason, typeof statusCode === "number" ? statusCode : null, name ?? null);
    }
    const id = result.data?.id;
    if (typeof id !== "string" || id === "") throw new MailerError("the answer carried no message id", null);
    return { id };
  }
}

/** The SDK's options (it sends them snake_case: reply_to, scheduled_at, content_type); empty lists are left out. */
export function toResendPayload(message: OutgoingEmail): CreateEmailOptions {
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
    attachments:
      message.attachments.length > 0
        ? message.attachments.map((a) => ({
            filename: a.filename,
            content: a.content,
            path: a.path,
            contentType: a.content_type,
          }))
        : undefined,
    tags: message.tags.length > 0 ? message.tags : undefined,
    scheduledAt: message.scheduledAt?.toISOString(),
  };
}
