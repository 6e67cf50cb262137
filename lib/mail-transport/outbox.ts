import "server-only";
import { logFailure } from "@/lib/core/background";
import { dispatchDueScheduledEmails, markEmailAccepted } from "@/lib/sent-emails/delivery";
import type { Mailer } from "@/lib/mail-transport/types";

/**
 * The embedded default: nothing leaves the machine. The complete message is stored in `sent_emails` (status `sent`,
 * or `scheduled` until its time comes and it is marked sent: see deliverScheduledOutboxEmails) and listed by the CLI's
 * `outbox` command. Its id is the outbox record's own id.
 */
export const outboxMailer: Mailer = {
  provider: "outbox",
  deliversOnRecord: true,
  // send and sendBatch are only reached for messages recorded as pending; the send service records outbox messages
  // as delivered.
  async send(message) {
    await markEmailAccepted(message.id, null);
    return { id: message.id };
  },
  async sendBatch(messages) {
    for (const message of messages) await markEmailAccepted(message.id, null);
    return { ids: messages.map((message) => message.id) };
  },
  async cancel() {
    // Nothing was handed anywhere: canceling the email in the database is all there is.
  },
};

/** How often a long-running server looks for the outbox's due scheduled emails: each goes out within this of its time. */
export const OUTBOX_SCHEDULE_INTERVAL_MS = 1000;

/**
 * Sends the outbox's scheduled emails when their time comes, as a provider holding them would: looks for due ones
 * every `intervalMs` until stopped. A long-running server runs it (bin/serve.ts: npm run dev, npm start); on
 * Vercel the dispatcher's runs send them (the cron route, and the after-response work of each send). Reading emails
 * never does. The stop returned resolves once a look in flight has finished, so the database can close after it.
 */
export function deliverScheduledOutboxEmails(intervalMs = OUTBOX_SCHEDULE_INTERVAL_MS): () => Promise<void> {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> = Promise.resolve();
  const look = () => {
    inFlight = dispatchDueScheduledEmails()
      .then(
        () => {},
        (error: unknown) => logFailure("sending due scheduled outbox emails failed", error),
      )
      .finally(() => {
        if (!stopped) timer = setTimeout(look, intervalMs);
      });
  };
  look();
  return async () => {
    stopped = true;
    clearTimeout(timer);
    await inFlight;
  };
}
