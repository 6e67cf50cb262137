import "server-only";
import { getConfig, type Config } from "@/lib/config";
import { outboxMailer } from "@/lib/mail/outbox";
import { ResendMailer } from "@/lib/mail/resend";
import { MailerError, type Mailer } from "@/lib/mail/types";

export { MailerError, type Mailer, type OutgoingEmail, type SendOptions } from "@/lib/mail/types";

let cached: { config: Config; mailer: Mailer } | undefined;

/** Resend when RESEND_API_KEY is set (RESEND_BASE_URL honoured), otherwise the embedded outbox. */
export function getMailer(): Mailer {
  const config = getConfig();
  if (cached?.config !== config) {
    const mailer = config.resend
      ? new ResendMailer({ apiKey: config.resend.apiKey, baseUrl: config.resend.baseUrl })
      : outboxMailer;
    cached = { config, mailer };
  }
  return cached.mailer;
}

/** A provider's failure as an email's error and an API message say it; anything but a MailerError is logged. */
export function describeProviderFailure(error: unknown): string {
  if (error instanceof MailerError) {
    return error.statusCode === null ? `unreachable: ${error.message}` : `HTTP ${error.statusCode}: ${error.message}`;
  }
  console.error(
    JSON.stringify({
      level: "error",
      message: "mailer threw",
      error: error instanceof Error ? error.stack : String(error),
    }),
  );
  return "unexpected failure";
}
