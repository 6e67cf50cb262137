/** A message as it is recorded and handed to a provider: rendered and addressed. */
export type RenderedMessage = {
  from: string;
  to: string[];
  cc: string[];
  bcc: string[];
  replyTo: string[];
  subject: string;
  html: string;
  text: string | null;
  headers: Record<string, string>;
  /** Recorded whole (Base64 content included) so the record is the complete message; `size` is the decoded size. */
  attachments: { filename: string; content?: string; content_type?: string; path?: string; size?: number }[];
  tags: { name: string; value: string }[];
  scheduledAt: Date | null;
};

/** A message ready to hand to a provider, already recorded under `id` (`sent_emails.id`). */
export type OutgoingEmail = RenderedMessage & { id: string };

export type SendOptions = {
  /** Passed to the provider so a retried hand-off is not delivered twice. */
  idempotencyKey?: string;
};

/**
 * Where messages go. Two implementations: Resend (when RESEND_API_KEY is set) and the embedded outbox (the default).
 */
export interface Mailer {
  /** Recorded as `sent_emails.provider`. */
  readonly provider: "resend" | "outbox";
  /**
   * True when recording the message is its delivery (the embedded outbox): the message is recorded straight away as
   * `sent` (or `scheduled`) and `send` has nothing left to do. False for a real provider: the message is recorded as
   * `pending`, then handed over with `send`.
   */
  readonly deliversOnRecord: boolean;
  /**
   * Hands the message over. Resolves with the provider's message id; throws EMAIL_PROVIDER_ERROR when it is not
   * accepted.
   */
  send(message: OutgoingEmail, options?: SendOptions): Promise<{ id: string }>;
  /**
   * Hands several messages over in one request, accepted or refused together. Resolves with the provider's message ids
   * in the order of `messages`; throws EMAIL_PROVIDER_ERROR when they are not accepted. The messages carry no
   * attachments and no `scheduledAt` (Resend's batch endpoint refuses both): send such messages one by one.
   */
  sendBatch(messages: OutgoingEmail[], options?: SendOptions): Promise<{ ids: string[] }>;
  /**
   * Cancels a message the provider holds for its scheduled time; throws EMAIL_PROVIDER_ERROR when the provider
   * refuses.
   */
  cancel(providerMessageId: string): Promise<void>;
}
