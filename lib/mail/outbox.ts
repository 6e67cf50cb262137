import "server-only";
import { markEmailAccepted } from "@/lib/db/emails";
import type { Mailer } from "@/lib/mail/types";

/**
 * The embedded default: nothing leaves the machine. The complete message is stored in `sent_emails` (status `sent`,
 * or `scheduled` until its time comes and the dispatcher marks it sent) and listed by the CLI's `outbox` command.
 * Its id is the outbox record's own id.
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
