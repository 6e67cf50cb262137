import "server-only";
import { getConfig, type Config } from "@/lib/core/config";
import { outboxMailer } from "@/lib/mail-transport/outbox";
import { ResendMailer } from "@/lib/mail-transport/resend";
import { AppError } from "@/lib/core/errors";
import type { Mailer } from "@/lib/mail-transport/types";

export type { Mailer, OutgoingEmail, SendOptions } from "@/lib/mail-transport/types";

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

/** A provider's failure as an email's error and an API message say it; anything but EMAIL_PROVIDER_ERROR is logged. */
export function describeProviderFailure(error: unknown): string {
  if (error instanceof AppError && error.code === "EMAIL_PROVIDER_ERROR") {
    const status = error.options.provider?.status ?? null;
    return status === null ? `unreachable: ${error.message}` : `HTTP ${status}: ${error.message}`;
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
